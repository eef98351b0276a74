import { persistentAtom } from '@nanostores/persistent';
import { PRODUCT_CODE_PATTERN } from '../lib/cart-limits';
import type { ViewedProduct } from './recently-viewed-record';

export type { ViewedProduct };
/**
 * The same key and length as recently-viewed-record.ts, which Navbar.astro's script imports: a value
 * import from there would split it into a chunk of its own on every page (tests/unit checks they agree).
 */
export const RECENTLY_VIEWED_KEY = 'recentlyViewed';
export const MAX_RECENTLY_VIEWED = 12;

/**
 * The products this browser viewed last, newest first (docs/decisions/210): kept in localStorage under
 * `recentlyViewed` like the cart, never sent to the server, shared by every tab. What a card needs is
 * written when a product page is seen (recently-viewed-record.ts); prices are what the page showed then.
 */

function toViewed(value: unknown): ViewedProduct | null {
  if (typeof value !== 'object' || value === null) return null;
  const raw = value as Record<string, unknown>;
  if (typeof raw.code !== 'string' || !PRODUCT_CODE_PATTERN.test(raw.code)) return null;
  const name = typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name.slice(0, 300) : raw.code;
  const price = typeof raw.price === 'number' && Number.isFinite(raw.price) && raw.price >= 0 ? raw.price : 0;
  // Only same-origin paths: a tampered store never turns into `//host` or `javascript:` pictures.
  const image = typeof raw.image === 'string' && raw.image.length <= 500 && /^\/(?![/\\])[^\s\\]*$/.test(raw.image) ? raw.image : null;
  return { code: raw.code, name, price, image };
}

/** Whatever is stored, repaired: a clean list of at most MAX_RECENTLY_VIEWED products, each once. */
export function sanitizeViewed(value: unknown): ViewedProduct[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const list: ViewedProduct[] = [];
  for (const entry of value.slice(0, MAX_RECENTLY_VIEWED * 2)) {
    const item = toViewed(entry);
    if (!item || seen.has(item.code)) continue;
    seen.add(item.code);
    list.push(item);
    if (list.length === MAX_RECENTLY_VIEWED) break;
  }
  return list;
}

export const $recentlyViewed = persistentAtom<ViewedProduct[]>(RECENTLY_VIEWED_KEY, [], {
  encode: JSON.stringify,
  decode: (encoded) => {
    try {
      return sanitizeViewed(JSON.parse(encoded));
    } catch {
      return [];
    }
  },
});

export function clearRecentlyViewed(): void {
  $recentlyViewed.set([]);
}
