import type { CartQuoteLine } from '../lib/cart-limits';
import { $cart, encodeCart, limitFor, repriced, sanitizeCart, type CartItem } from './cart';

/**
 * Cart changes that only the cart page, checkout and tests make. They live beside the store rather than
 * in it so that the chunk every catalog page loads (the navbar cart, the add-to-cart buttons) leaves
 * them out: 0.25 KB gzip of a 75 KB script budget (docs/decisions/146).
 */

function changeLine(code: string, change: (line: CartItem) => CartItem): void {
  const items = $cart.get();
  let changed = false;
  const next = items.map((line) => {
    if (line.product_code !== code) return line;
    const updated = change(line);
    if (updated !== line) changed = true;
    return updated;
  });
  if (changed) $cart.set(next);
}

/** Lowers the amount by one, only while it is above one. */
export function reduceCartItem(code: string): void {
  changeLine(code, (line) => (line.amount > 1 ? repriced(line, line.amount - 1) : line));
}

/** Raises the amount by one, never above the known stock (and never lowers a line already above it). */
export function increaseCartItem(code: string): void {
  changeLine(code, (line) => (line.amount < limitFor(line.stock) ? repriced(line, line.amount + 1) : line));
}

/** Sets the amount within 1..stock; anything below one becomes one (removing is a separate, confirmed action). */
export function updateCartItem(code: string, amount: number): void {
  const wanted = Number.isFinite(amount) ? Math.floor(amount) : 1;
  changeLine(code, (line) => repriced(line, Math.max(1, Math.min(limitFor(line.stock), wanted))));
}

/** Replaces the whole list (sanitised, so callers cannot store a broken cart). */
export function replaceCart(items: unknown): void {
  $cart.set(sanitizeCart(items));
}

export function clearCart(): void {
  $cart.set([]);
}

/**
 * Takes the server's view of each line: name, image, unit price, tiers and stock; an amount above the
 * stock comes down to it. Unknown or withdrawn products stay, with stock 0, until the shopper removes
 * them (the cart page says why), so nothing disappears from the cart unasked.
 */
export function applyQuote(lines: readonly CartQuoteLine[]): void {
  const byCode = new Map(lines.map((line) => [line.product_code, line]));
  const next = $cart.get().map((item) => {
    const line = byCode.get(item.product_code);
    if (!line) return item;
    if (line.unavailable || line.product_name === null) return item.stock === 0 ? item : { ...item, stock: 0 };
    const amount = line.stock > 0 ? Math.min(item.amount, line.stock) : item.amount;
    const updated: CartItem = {
      ...item,
      product_name: line.product_name,
      product_image: line.product_image,
      stock: line.stock,
      retail_price: line.retail_price,
      tiers: line.tiers.map((tier) => ({ min_quantity: tier.min_quantity, price: tier.price })),
      // The quoted price is for the quoted amount; if the shopper changed it meanwhile, tiers re-price.
      product_price: line.unit_price,
    };
    return item.amount === line.amount && amount === item.amount ? updated : repriced(updated, amount);
  });
  if (encodeCart(next) !== encodeCart($cart.get())) $cart.set(next);
}

