import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';
import { MAX_CART_LINES, MAX_LINE_AMOUNT, PRODUCT_CODE_PATTERN } from '../lib/cart-limits';
import { bahtToSatang, satangToBaht } from '../lib/money';
import { unitPriceFor } from '../lib/pricing';

export { MAX_CART_LINES, MAX_LINE_AMOUNT };

/**
 * The cart, kept in localStorage under `shoppingCart` (docs/design.md section 7) and shared by every island
 * and every tab. Prices here are what the shopper last saw; the server re-prices before checkout.
 */
export interface CartTier {
  min_quantity: number;
  /** Unit price in baht from this quantity on. */
  price: number;
}

export interface CartItem {
  product_code: string;
  product_name: string;
  /** Unit price in baht for the current amount, as last quoted. */
  product_price: number;
  product_image: string | null;
  amount: number;
  /** Stock when last quoted, so steppers can stop at it. */
  stock?: number;
  /**
   * Retail price and wholesale tiers when known: amount changes re-price the line at once, so the
   * dropdown total is right before the server quote comes back.
   */
  retail_price?: number;
  tiers?: CartTier[];
}

export const CART_STORAGE_KEY = 'shoppingCart';
const MAX_TIERS = 20;
const MAX_NAME_LENGTH = 300;
const MAX_PRICE_BAHT = 10_000_000;

function toPrice(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_PRICE_BAHT) return null;
  return Math.round(value * 100) / 100;
}

/** Only same-origin paths: `//host/x` or `javascript:` from a tampered store never become an image URL. */
function toImage(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 500) return null;
  return /^\/(?![/\\])[^\s\\]*$/.test(value) ? value : null;
}

function toTiers(value: unknown): CartTier[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const tiers: CartTier[] = [];
  for (const entry of value.slice(0, MAX_TIERS)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { min_quantity: min, price } = entry as Record<string, unknown>;
    const tierPrice = toPrice(price);
    if (typeof min === 'number' && Number.isInteger(min) && min >= 1 && tierPrice !== null) {
      tiers.push({ min_quantity: min, price: tierPrice });
    }
  }
  return tiers.sort((a, b) => a.min_quantity - b.min_quantity);
}

function toItem(value: unknown): CartItem | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const raw = value as Record<string, unknown>;
  const code = typeof raw.product_code === 'string' ? raw.product_code.trim() : '';
  if (!PRODUCT_CODE_PATTERN.test(code)) return null;
  // Amounts must be real numbers of at least one; fractions are cut down, huge ones capped.
  const amount = typeof raw.amount === 'number' && Number.isFinite(raw.amount) ? Math.floor(raw.amount) : 0;
  if (amount < 1) return null;
  const item: CartItem = {
    product_code: code,
    product_name:
      typeof raw.product_name === 'string' && raw.product_name.trim() !== ''
        ? raw.product_name.slice(0, MAX_NAME_LENGTH)
        : code,
    product_price: toPrice(raw.product_price) ?? 0,
    product_image: toImage(raw.product_image),
    amount: Math.min(MAX_LINE_AMOUNT, amount),
  };
  if (typeof raw.stock === 'number' && Number.isInteger(raw.stock) && raw.stock >= 0) item.stock = raw.stock;
  const retail = toPrice(raw.retail_price);
  const tiers = toTiers(raw.tiers);
  if (retail !== null && tiers) {
    item.retail_price = retail;
    item.tiers = tiers;
  }
  return item;
}

/**
 * Repairs whatever is stored: not JSON, wrong shape, bad amounts or a huge array give a clean cart.
 * Lines with the same code are merged, so a hand-edited store cannot hold two prices for one product.
 */
export function sanitizeCart(value: unknown): CartItem[] {
  if (!Array.isArray(value)) return [];
  const byCode = new Map<string, CartItem>();
  // Looking at a bounded prefix keeps a multi-megabyte foreign array from freezing the page.
  for (const entry of value.slice(0, MAX_CART_LINES * 2)) {
    const item = toItem(entry);
    if (!item) continue;
    const existing = byCode.get(item.product_code);
    if (existing) existing.amount = Math.min(MAX_LINE_AMOUNT, existing.amount + item.amount);
    else if (byCode.size < MAX_CART_LINES) byCode.set(item.product_code, item);
  }
  return [...byCode.values()].map((item) => repriced(item, item.amount));
}

export function decodeCart(encoded: string): CartItem[] {
  try {
    return sanitizeCart(JSON.parse(encoded));
  } catch {
    return [];
  }
}

export function encodeCart(items: CartItem[]): string {
  return JSON.stringify(items);
}

export const $cart = persistentAtom<CartItem[]>(CART_STORAGE_KEY, [], {
  encode: encodeCart,
  decode: decodeCart,
});

/** Number of lines (products) in the cart: what the navbar badge shows. */
export const $cartCount = /* @__PURE__ */ computed($cart, (items) => items.length);
/** Number of pieces over all lines. */
export const $cartPieces = /* @__PURE__ */ computed($cart, (items) => items.reduce((sum, item) => sum + item.amount, 0));
export const $cartTotal = /* @__PURE__ */ computed($cart, (items) => cartTotal(items));

/** A line the server last reported with no stock (sold out, withdrawn or unknown) cannot be ordered. */
export function orderableLine(item: CartItem): boolean {
  return item.stock !== 0;
}

/**
 * Σ price × amount over the lines that can be ordered, in baht with at most two decimals (summed in
 * satang, so no float drift). Sold-out lines stay visible but do not count (docs/decisions/041).
 */
export function cartTotal(items: readonly CartItem[]): number {
  return satangToBaht(
    items.filter(orderableLine).reduce((sum, item) => sum + bahtToSatang(item.product_price) * item.amount, 0),
  );
}

/** The unit price for an amount, from the line's tiers when it carries them. */
export function repriced(item: CartItem, amount: number): CartItem {
  if (item.retail_price === undefined || !item.tiers) return item.amount === amount ? item : { ...item, amount };
  const tiers = item.tiers.map((tier) => ({ minQuantity: tier.min_quantity, priceSatang: bahtToSatang(tier.price) }));
  const price = satangToBaht(unitPriceFor(bahtToSatang(item.retail_price), tiers, amount));
  if (item.amount === amount && item.product_price === price) return item;
  return { ...item, amount, product_price: price };
}

/** The most of one line the cart takes: the known stock, at most MAX_LINE_AMOUNT. */
export function limitFor(stock: number | undefined): number {
  return Math.min(MAX_LINE_AMOUNT, stock ?? MAX_LINE_AMOUNT);
}

export type NewCartItem = Omit<CartItem, 'amount'> & { amount?: number };

export interface AddResult {
  /** added: all of it; limited: capped at the stock or the line maximum; sold_out / full: nothing added. */
  status: 'added' | 'limited' | 'sold_out' | 'full';
  /** The line's amount afterwards (0 when nothing is in the cart for it). */
  amount: number;
}

/** Same code raises the amount (by the chosen quantity, default 1); a new item starts at that amount. */
export function addToCart(item: NewCartItem): AddResult {
  const wanted = Math.max(1, Math.floor(Number.isFinite(item.amount) ? (item.amount as number) : 1));
  const items = $cart.get();
  const index = items.findIndex((line) => line.product_code === item.product_code);
  const existing = index >= 0 ? items[index] : undefined;
  const stock = item.stock ?? existing?.stock;
  const limit = limitFor(stock);
  const current = existing?.amount ?? 0;
  if (limit < 1) return { status: 'sold_out', amount: current };
  if (!existing && items.length >= MAX_CART_LINES) return { status: 'full', amount: 0 };
  const next = Math.min(limit, current + wanted);
  const fresh = sanitizeCart([{ ...existing, ...item, amount: Math.max(1, next) }])[0];
  if (!fresh) return { status: 'full', amount: current };
  const line = repriced(fresh, Math.max(current, next));
  $cart.set(existing ? items.map((old, i) => (i === index ? line : old)) : [...items, line]);
  return { status: next < current + wanted ? 'limited' : 'added', amount: line.amount };
}

export function removeCartItem(code: string): void {
  const items = $cart.get();
  if (items.some((line) => line.product_code === code)) $cart.set(items.filter((line) => line.product_code !== code));
}

/**
 * Writes back a repaired value when what is stored is corrupt or foreign, so other readers see it clean.
 * It decodes what is stored now rather than trusting memory: another tab may have written since this
 * page loaded, and its storage event may not have arrived yet.
 */
export function repairStoredCart(storage: Pick<Storage, 'getItem'> = localStorage): void {
  const raw = storage.getItem(CART_STORAGE_KEY);
  if (raw === null) return;
  const clean = decodeCart(raw);
  if (encodeCart(clean) !== raw) $cart.set(clean);
}
