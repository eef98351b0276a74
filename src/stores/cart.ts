import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';

/**
 * The cart, kept in localStorage under `shoppingCart` (DESIGN.md section 7) and shared by every island
 * and every tab. Prices here are what the shopper last saw; the server re-prices before checkout.
 */
export interface CartItem {
  product_code: string;
  product_name: string;
  /** Unit price in baht, as last quoted. */
  product_price: number;
  product_image: string | null;
  amount: number;
  /** Stock when last quoted, so steppers can stop at it. */
  stock?: number;
}

export const CART_STORAGE_KEY = 'shoppingCart';
export const MAX_CART_LINES = 100;
export const MAX_LINE_AMOUNT = 9999;

function toItem(value: unknown): CartItem | null {
  if (typeof value !== 'object' || value === null) return null;
  const raw = value as Record<string, unknown>;
  const code = typeof raw.product_code === 'string' ? raw.product_code.trim() : '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) return null;
  const amount = Number(raw.amount);
  if (!Number.isFinite(amount) || amount < 1) return null;
  const price = Number(raw.product_price);
  const item: CartItem = {
    product_code: code,
    product_name: typeof raw.product_name === 'string' ? raw.product_name.slice(0, 300) : code,
    product_price: Number.isFinite(price) && price >= 0 ? Math.round(price * 100) / 100 : 0,
    product_image: typeof raw.product_image === 'string' && raw.product_image.startsWith('/') ? raw.product_image : null,
    amount: Math.min(MAX_LINE_AMOUNT, Math.floor(amount)),
  };
  const stock = Number(raw.stock);
  if (Number.isInteger(stock) && stock >= 0) item.stock = stock;
  return item;
}

/** Repairs whatever is stored: not JSON, wrong shape, bad amounts or a huge array give a clean cart. */
export function sanitizeCart(value: unknown): CartItem[] {
  if (!Array.isArray(value)) return [];
  const byCode = new Map<string, CartItem>();
  for (const entry of value.slice(0, MAX_CART_LINES * 2)) {
    const item = toItem(entry);
    if (!item) continue;
    const existing = byCode.get(item.product_code);
    if (existing) existing.amount = Math.min(MAX_LINE_AMOUNT, existing.amount + item.amount);
    else byCode.set(item.product_code, item);
    if (byCode.size >= MAX_CART_LINES) break;
  }
  return [...byCode.values()];
}

export function decodeCart(encoded: string): CartItem[] {
  try {
    return sanitizeCart(JSON.parse(encoded));
  } catch {
    return [];
  }
}

export const $cart = persistentAtom<CartItem[]>(CART_STORAGE_KEY, [], {
  encode: (value) => JSON.stringify(value),
  decode: decodeCart,
});

export const $cartCount = computed($cart, (items) => items.reduce((sum, item) => sum + item.amount, 0));
export const $cartTotal = computed($cart, (items) => cartTotal(items));

/** Σ price × amount, in baht with at most two decimals. */
export function cartTotal(items: readonly CartItem[]): number {
  const satang = items.reduce((sum, item) => sum + Math.round(item.product_price * 100) * item.amount, 0);
  return satang / 100;
}

export type NewCartItem = Omit<CartItem, 'amount'> & { amount?: number };

/** Same code raises the amount (by the chosen quantity, default 1); a new item starts at that amount. */
export function addToCart(item: NewCartItem): void {
  const amount = Math.max(1, Math.floor(item.amount ?? 1));
  const items = $cart.get();
  const existing = items.find((line) => line.product_code === item.product_code);
  if (existing) {
    const limit = Math.min(MAX_LINE_AMOUNT, item.stock ?? existing.stock ?? MAX_LINE_AMOUNT);
    $cart.set(
      items.map((line) =>
        line.product_code === item.product_code
          ? { ...line, ...withoutAmount(item), amount: Math.min(limit, line.amount + amount) }
          : line,
      ),
    );
    return;
  }
  if (items.length >= MAX_CART_LINES) return;
  const limit = Math.min(MAX_LINE_AMOUNT, item.stock ?? MAX_LINE_AMOUNT);
  $cart.set([...items, { ...withoutAmount(item), amount: Math.min(limit, amount) }]);
}

function withoutAmount(item: NewCartItem): Omit<CartItem, 'amount'> {
  const { amount: _amount, ...rest } = item;
  return rest;
}

/** Lowers the amount by one, only while it is above one. */
export function reduceCartItem(code: string): void {
  $cart.set($cart.get().map((line) => (line.product_code === code && line.amount > 1 ? { ...line, amount: line.amount - 1 } : line)));
}

export function increaseCartItem(code: string): void {
  $cart.set(
    $cart.get().map((line) => {
      if (line.product_code !== code) return line;
      const limit = Math.min(MAX_LINE_AMOUNT, line.stock ?? MAX_LINE_AMOUNT);
      return { ...line, amount: Math.min(limit, line.amount + 1) };
    }),
  );
}

/** Sets the amount; anything below one becomes one (removing is a separate, confirmed action). */
export function updateCartItem(code: string, amount: number): void {
  const wanted = Number.isFinite(amount) ? Math.floor(amount) : 1;
  $cart.set(
    $cart.get().map((line) => {
      if (line.product_code !== code) return line;
      const limit = Math.min(MAX_LINE_AMOUNT, line.stock ?? MAX_LINE_AMOUNT);
      return { ...line, amount: Math.max(1, Math.min(limit, wanted)) };
    }),
  );
}

export function removeCartItem(code: string): void {
  $cart.set($cart.get().filter((line) => line.product_code !== code));
}

export function replaceCart(items: unknown): void {
  $cart.set(sanitizeCart(items));
}

export function clearCart(): void {
  $cart.set([]);
}
