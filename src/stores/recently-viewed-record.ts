/**
 * Noting a product page in this browser's recently viewed list (docs/decisions/210), without the store:
 * Navbar.astro's script runs this on every product page, so it stays a few lines of plain code there (the
 * product page's script budget, docs/design.md section 15). The store (recently-viewed.ts) reads the
 * same key and repairs whatever it finds.
 */
export const RECENTLY_VIEWED_KEY = 'recentlyViewed';
export const MAX_RECENTLY_VIEWED = 12;

export interface ViewedProduct {
  code: string;
  name: string;
  /** Retail unit price in baht, as the product page showed it. */
  price: number;
  image: string | null;
}

/** Puts the product first (moving it up when it was there), keeping the newest twelve. */
export function recordView(product: ViewedProduct, storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage): void {
  try {
    const stored: unknown = JSON.parse(storage.getItem(RECENTLY_VIEWED_KEY) ?? '[]');
    const others = Array.isArray(stored) ? stored.filter((item: { code?: unknown } | null) => item?.code !== product.code) : [];
    storage.setItem(RECENTLY_VIEWED_KEY, JSON.stringify([product, ...others].slice(0, MAX_RECENTLY_VIEWED)));
  } catch {
    // Not JSON (written over by hand), or storage full or refused: this view is simply not kept.
  }
}
