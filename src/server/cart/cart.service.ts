import { getDb, type DbOrTx } from '../db/client.ts';
import { nextTierFor, unitPriceFor } from '../../lib/pricing.ts';
import { bahtToSatang, satangToBaht } from '../../lib/money.ts';
import type { CartQuote, CartQuoteLine, CartQuoteRequest } from '../../lib/cart-limits.ts';
import { MAX_LINE_AMOUNT } from '../../lib/cart-limits.ts';
import { productsForQuote } from './cart.repo.ts';

export type { CartQuote, CartQuoteLine, CartQuoteRequest };

/** A quoted line with the product's id, for the checkout that writes order lines (never sent to clients). */
export interface PricedLine extends CartQuoteLine {
  productId: number | null;
}

export interface PricedCart extends Omit<CartQuote, 'lines'> {
  lines: PricedLine[];
}

/**
 * Prices a cart from the database alone: current names, images, stock and the wholesale tier the
 * amount reaches. Whatever price the client sent is only compared (`price_changed`), never used.
 * The checkout calls this inside its transaction with `lock: true`, so the order is charged exactly
 * what the cart page showed from this same function.
 */
export async function priceCart(
  request: CartQuoteRequest,
  options: { db?: DbOrTx; lock?: boolean } = {},
): Promise<PricedCart> {
  const db = options.db ?? (await getDb());
  // One line per product: duplicates from a hand-edited cart are merged, keeping the first seen price.
  const merged = new Map<string, { amount: number; lastSeen: number | null }>();
  for (const item of request.items) {
    const code = item.product_code.trim();
    const seen = merged.get(code);
    if (seen) seen.amount = Math.min(MAX_LINE_AMOUNT, seen.amount + item.amount);
    else merged.set(code, { amount: item.amount, lastSeen: item.product_price ?? null });
  }
  const found = await productsForQuote(db, [...merged.keys()], { lock: options.lock });

  const lines: PricedLine[] = [];
  let subtotalSatang = 0;
  for (const [code, { amount, lastSeen }] of merged) {
    const product = found.get(code);
    if (!product || !product.active) {
      lines.push(unavailableLine(code, amount, lastSeen));
      continue;
    }
    const unitSatang = unitPriceFor(product.priceSatang, product.tiers, amount);
    const lineSatang = unitSatang * amount;
    const next = nextTierFor(product.priceSatang, product.tiers, amount);
    // A sold-out line cannot be ordered: it is flagged, and like the client cart total it adds nothing.
    if (product.stock > 0) subtotalSatang += lineSatang;
    lines.push({
      productId: product.id,
      product_code: product.code,
      product_name: product.name,
      product_image: product.image,
      amount,
      stock: product.stock,
      unit_price: satangToBaht(unitSatang),
      unit_price_satang: unitSatang,
      retail_price: satangToBaht(product.priceSatang),
      retail_price_satang: product.priceSatang,
      line_total: satangToBaht(lineSatang),
      line_total_satang: lineSatang,
      tiers: product.tiers.map((tier) => ({
        min_quantity: tier.minQuantity,
        price: satangToBaht(tier.priceSatang),
        price_satang: tier.priceSatang,
      })),
      next_tier: next
        ? { missing: next.missing, min_quantity: next.minQuantity, price: satangToBaht(next.priceSatang), price_satang: next.priceSatang }
        : null,
      last_seen_price: lastSeen,
      price_changed: lastSeen !== null && bahtToSatang(lastSeen) !== unitSatang,
      insufficient_stock: amount > product.stock,
      unavailable: false,
    });
  }
  return {
    lines,
    subtotal: satangToBaht(subtotalSatang),
    subtotal_satang: subtotalSatang,
    orderable: lines.length > 0 && lines.every((line) => !line.unavailable && !line.insufficient_stock),
  };
}

function unavailableLine(code: string, amount: number, lastSeen: number | null): PricedLine {
  return {
    productId: null,
    product_code: code,
    product_name: null,
    product_image: null,
    amount,
    stock: 0,
    unit_price: 0,
    unit_price_satang: 0,
    retail_price: 0,
    retail_price_satang: 0,
    line_total: 0,
    line_total_satang: 0,
    tiers: [],
    next_tier: null,
    last_seen_price: lastSeen,
    price_changed: false,
    insufficient_stock: false,
    unavailable: true,
  };
}

/** The quote as the endpoint answers it: the same numbers without internal ids. */
export async function quoteCart(request: CartQuoteRequest, options: { db?: DbOrTx } = {}): Promise<CartQuote> {
  const priced = await priceCart(request, options);
  return { ...priced, lines: priced.lines.map(({ productId: _productId, ...line }) => line) };
}
