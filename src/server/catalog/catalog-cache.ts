import { invalidateTags, registerDropper } from '../cache/invalidation-bus.ts';
import { pagesDropped } from '../cache/page-drops.ts';
import { invalidateNavigation } from './navigation.service.ts';

/**
 * How cached catalog answers are dropped when catalog data changes (stock, prices, products,
 * categories, promotions). Two layers are cleared together:
 *  - Astro's route cache (whole HTML pages, tagged per page: see cachePublicPage), and
 *  - the in-process query caches (navigation categories, search/listing id pages).
 * Other features call `invalidateCatalog()` after they change catalog rows (an order taking stock,
 * an operator editing a product). The invalidation bus carries the tags to every instance
 * (docs/decisions/031 and 142); other changes (settings, content) call `invalidateTags` there.
 */
export interface RouteCacheHandle {
  readonly enabled: boolean;
  set(options: { maxAge?: number; swr?: number; tags?: string[] } | false): void;
  invalidate(options: { tags?: string | string[]; path?: string }): Promise<void>;
}

/**
 * Fresh for a minute, then served stale while one request re-renders. The bus drops changed pages on
 * every instance at once; this lifetime is only the safety net for a change nobody announced.
 */
export const PAGE_MAX_AGE = 60;
export const PAGE_SWR = 600;

let routeCache: RouteCacheHandle | undefined;
let version = 0;
const listeners = new Set<() => void>();

/**
 * Marks a page as public and cacheable with its tags. The handle is kept: every request's cache
 * object talks to the same provider, so it can purge later from code that runs outside a request.
 */
export function cachePublicPage(cache: RouteCacheHandle, tags: readonly string[], maxAge = PAGE_MAX_AGE): void {
  if (!cache.enabled) return;
  cache.set({ maxAge, swr: PAGE_SWR, tags: ['catalog', ...tags] });
  routeCache ??= cache;
}

/** Answers that must not be cached (404 for an unknown code, 400 for a malformed filter). */
export function doNotCache(cache: RouteCacheHandle): void {
  if (cache.enabled) cache.set(false);
}

/** Increases on every change; in-process caches key on it. */
export function catalogVersion(): number {
  return version;
}

export function onCatalogChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const tagFor = {
  product: (code: string) => `product:${code.toLowerCase()}`,
  category: (code: string) => `category:${code.toLowerCase()}`,
  promotion: (code: string) => `promotion:${code.toLowerCase()}`,
};

/**
 * The product tags of a product's page or answer: its own code and each variant's, so a change named by a
 * variant's code (an order line's) drops them too (docs/decisions/205).
 */
export function productTags(product: { code: string; variants?: readonly { code: string }[] }): string[] {
  const codes = new Set([product.code.toLowerCase(), ...(product.variants ?? []).map((variant) => variant.code.toLowerCase())]);
  return [...codes].map(tagFor.product);
}

export interface CatalogChange {
  /** Only these products changed (stock, price, text): their pages, listings, search and home. */
  productCodes?: readonly string[];
  /** Company record or Markdown-backed content changed. */
  content?: boolean;
}

/** The tags a change makes stale. */
export function tagsForChange(change: CatalogChange = {}): string[] {
  if (change.content) return ['content', 'catalog'];
  if (change.productCodes && change.productCodes.length > 0) {
    return [...change.productCodes.map(tagFor.product), 'listing', 'home', 'promotions'];
  }
  return ['catalog'];
}

/** What this module graph drops for a tag set heard on the bus (or raised here). */
async function dropHere(tags: readonly string[]): Promise<void> {
  version++;
  invalidateNavigation();
  for (const listener of listeners) listener();
  // The finished pages kept in front of Astro go too, before and after the route cache drops its
  // entries, so neither a request in between nor one already rendering can keep an old page there.
  pagesDropped();
  if (routeCache) await routeCache.invalidate({ tags: [...tags] });
  pagesDropped();
}
registerDropper(dropHere);

/**
 * Call after catalog data changes. Without a scope every catalog page goes; with product codes only
 * the pages that can show those products (their own page, listings, search, home, promotions). Every
 * instance drops them (invalidation bus).
 */
export async function invalidateCatalog(change: CatalogChange = {}, handle?: RouteCacheHandle): Promise<void> {
  const tags = tagsForChange(change);
  if (handle?.enabled && handle !== routeCache) await handle.invalidate({ tags });
  await invalidateTags(tags);
}
