import { invalidateNavigation } from './navigation.service.ts';

/**
 * How cached catalog answers are dropped when catalog data changes (stock, prices, products,
 * categories, promotions). Two layers are cleared together:
 *  - Astro's route cache (whole HTML pages, tagged per page: see cachePublicPage), and
 *  - the in-process query caches (navigation categories, search/listing id pages).
 * Other features call `invalidateCatalog()` after they change catalog rows (an order taking stock,
 * an operator editing a product). See docs/decisions/031-route-cache-invalidation.md.
 */
export interface RouteCacheHandle {
  readonly enabled: boolean;
  set(options: { maxAge?: number; swr?: number; tags?: string[] } | false): void;
  invalidate(options: { tags?: string | string[]; path?: string }): Promise<void>;
}

/** Fresh for a minute, then served stale while one request re-renders: bounds staleness across instances. */
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

export interface CatalogChange {
  /** Only these products changed (stock, price, text): their pages, listings, search and home. */
  productCodes?: readonly string[];
  /** Company record or Markdown-backed content changed. */
  content?: boolean;
}

/**
 * Call after catalog data changes. Without a scope every catalog page goes; with product codes only
 * the pages that can show those products (their own page, listings, search, home, promotions).
 */
export async function invalidateCatalog(change: CatalogChange = {}, handle?: RouteCacheHandle): Promise<void> {
  version++;
  invalidateNavigation();
  for (const listener of listeners) listener();
  const cache = handle?.enabled ? handle : routeCache;
  if (!cache) return;
  let tags: string[];
  if (change.content) tags = ['content', 'catalog'];
  else if (change.productCodes && change.productCodes.length > 0) {
    tags = [...change.productCodes.map(tagFor.product), 'listing', 'home', 'promotions'];
  } else tags = ['catalog'];
  await cache.invalidate({ tags });
}
