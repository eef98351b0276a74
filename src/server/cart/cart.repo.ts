import type { DbOrTx } from '../db/client.ts';
import type { PriceTier } from '../../lib/pricing.ts';
import { tiersForVariants, variantsForSale, type VariantForSale } from '../catalog/variant.repo.ts';

/** What pricing a cart line needs to know about a variant, as a plain object. */
export interface ProductForQuote extends VariantForSale {
  tiers: PriceTier[];
}

/**
 * Variants (active or not) and their tiers by code: a cart line's `product_code` is a variant's code,
 * and a one-variant product's variant has the product's code, so carts saved before variants still load
 * (docs/decisions/205). With `lock`, the variant rows are locked (`FOR UPDATE`) so a checkout transaction
 * prices and takes stock from rows nobody else changes meanwhile.
 */
export async function productsForQuote(db: DbOrTx, codes: readonly string[], options: { lock?: boolean } = {}): Promise<Map<string, ProductForQuote>> {
  const found = new Map<string, ProductForQuote>();
  const rows = await variantsForSale(db, codes, options);
  if (rows.length === 0) return found;
  const tiers = await tiersForVariants(db, rows);
  for (const row of rows) found.set(row.code, { ...row, tiers: tiers.get(row.variantId) ?? [] });
  return found;
}
