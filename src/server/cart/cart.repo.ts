import { asc, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { productPriceTiers, products } from '../db/schema.ts';
import { groupTiersByProduct, type PriceTier } from '../../lib/pricing.ts';

/** What pricing a cart line needs to know about a product, as a plain object. */
export interface ProductForQuote {
  id: number;
  code: string;
  name: string;
  image: string | null;
  priceSatang: number;
  stock: number;
  active: boolean;
  tiers: PriceTier[];
}

/**
 * Products (active or not) and their tiers by code. With `lock`, the product rows are locked
 * (`FOR UPDATE`) so a checkout transaction prices and takes stock from rows nobody else changes meanwhile.
 */
export async function productsForQuote(db: DbOrTx, codes: readonly string[], options: { lock?: boolean } = {}): Promise<Map<string, ProductForQuote>> {
  const found = new Map<string, ProductForQuote>();
  if (codes.length === 0) return found;
  const query = db
    .select({
      id: products.id,
      code: products.code,
      name: products.name,
      image: products.image,
      priceSatang: products.priceSatang,
      stock: products.stock,
      active: products.active,
    })
    .from(products)
    .where(inArray(products.code, [...codes]))
    // A fixed lock order keeps two checkouts of overlapping carts from deadlocking.
    .orderBy(asc(products.id));
  const rows = options.lock ? await query.for('update') : await query;
  if (rows.length === 0) return found;
  const tierRows = await db
    .select({ productId: productPriceTiers.productId, minQuantity: productPriceTiers.minQuantity, priceSatang: productPriceTiers.priceSatang })
    .from(productPriceTiers)
    .where(inArray(productPriceTiers.productId, rows.map((row) => row.id)))
    .orderBy(asc(productPriceTiers.productId), asc(productPriceTiers.minQuantity));
  const tiersById = groupTiersByProduct(tierRows);
  for (const row of rows) found.set(row.code, { ...row, tiers: tiersById.get(row.id) ?? [] });
  return found;
}
