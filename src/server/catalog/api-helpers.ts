import type { APIContext } from 'astro';
import { badRequest } from '../http/errors.ts';
import { paged } from '../http/responses.ts';
import { cachePublicPage, type RouteCacheHandle } from './catalog-cache.ts';
import { apiProduct } from './api-shapes.ts';
import type { ProductPage } from '../../lib/catalog-types.ts';

/**
 * The raw (still percent-encoded) last path segment after `prefix`, so comma-separated parameters
 * are split before decoding: `%2C` inside a keyword is not a separator.
 */
export function rawSegmentAfter(url: URL, prefix: string): string {
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.startsWith(prefix)) throw badRequest('invalid_parameters', 'พารามิเตอร์ไม่ถูกต้อง');
  const rest = path.slice(prefix.length);
  if (rest.includes('/')) throw badRequest('invalid_parameters', 'พารามิเตอร์ไม่ถูกต้อง');
  return rest;
}

export function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw badRequest('invalid_parameters', 'พารามิเตอร์ไม่ถูกต้อง');
  }
}

export function decodedParam(value: string | undefined, message = 'พารามิเตอร์ไม่ถูกต้อง'): string {
  const text = (value ?? '').trim();
  if (text.length === 0 || text.length > 200) throw badRequest('invalid_parameters', message);
  return text;
}

/** Public catalog JSON: cached like the pages, invalidated with them. */
export function cacheApi(context: APIContext, tags: string[] = []): void {
  cachePublicPage(context.cache as unknown as RouteCacheHandle, ['api', ...tags]);
}

export function productPageResponse(page: ProductPage): Response {
  // total_capped: more than `total` match (counting stops at the bound, docs/decisions/120).
  return paged(page.items.map(apiProduct), { total: page.total, ...(page.totalCapped ? { totalCapped: true } : {}), page: page.page, pageSize: page.pageSize });
}
