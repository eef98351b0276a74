import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { productPriceTiers, products, productVariants } from '../db/schema.ts';
import type { PriceTier } from '../../lib/pricing.ts';
import { variantDisplayName, variantOptions, type VariantOption } from '../../lib/variants.ts';

/**
 * Variants as they are sold (docs/decisions/205): a cart line, a quote and an order line name a variant's
 * code; its price and stock are the variant's, its name the product's with the variant's values.
 */
export interface VariantForSale {
  /** The product's id (promotions, categories and history are per product). */
  id: number;
  variantId: number;
  /** The variant's code: what the cart and the order line carry. */
  code: string;
  /** The product's own code (its page, its cache tag). */
  productCode: string;
  /** "ลิปสติกเนื้อแมตต์ — สีส้มพีช"; the product's name alone for a one-variant product. */
  name: string;
  options: VariantOption[];
  priceSatang: number;
  stock: number;
  image: string | null;
  /** The product and the variant are both on sale. */
  active: boolean;
  categoryId: number;
}

const saleColumns = {
  id: products.id,
  variantId: productVariants.id,
  code: productVariants.code,
  productCode: products.code,
  productName: products.name,
  optionNames: products.optionNames,
  option1: productVariants.option1,
  option2: productVariants.option2,
  option3: productVariants.option3,
  priceSatang: productVariants.priceSatang,
  stock: productVariants.stock,
  image: sql<string | null>`coalesce(${productVariants.image}, ${products.image})`,
  active: sql<boolean>`(${products.active} and ${productVariants.active})`,
  categoryId: products.categoryId,
};

interface SaleRow {
  id: number;
  variantId: number;
  code: string;
  productCode: string;
  productName: string;
  optionNames: string[];
  option1: string | null;
  option2: string | null;
  option3: string | null;
  priceSatang: number;
  stock: number;
  image: string | null;
  active: boolean;
  categoryId: number;
}

function forSale(row: SaleRow): VariantForSale {
  const options = variantOptions(row.optionNames, [row.option1, row.option2, row.option3]);
  return {
    id: row.id,
    variantId: row.variantId,
    code: row.code,
    productCode: row.productCode,
    name: variantDisplayName(row.productName, options),
    options,
    priceSatang: row.priceSatang,
    stock: row.stock,
    image: row.image,
    active: row.active,
    categoryId: row.categoryId,
  };
}

/**
 * Variants by code, in (product, variant) order. With `lock`, the variant rows are locked for the rest of
 * the transaction: two checkouts sharing variants queue on the first shared one, and their stock changes
 * then lock the product rows (through the trigger) in product order, so they never deadlock.
 */
export async function variantsForSale(db: DbOrTx, codes: readonly string[], options: { lock?: boolean } = {}): Promise<VariantForSale[]> {
  if (codes.length === 0) return [];
  const query = db
    .select(saleColumns)
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(inArray(productVariants.code, [...codes]))
    .orderBy(asc(products.id), asc(productVariants.id));
  const rows = options.lock ? await query.for('update', { of: productVariants }) : await query;
  return (rows as SaleRow[]).map(forSale);
}

/** Each variant's tiers: its own when it has any, else its product's (variant_id null). */
export async function tiersForVariants(db: DbOrTx, variants: readonly { id: number; variantId: number }[]): Promise<Map<number, PriceTier[]>> {
  const result = new Map<number, PriceTier[]>();
  if (variants.length === 0) return result;
  const productIds = [...new Set(variants.map((variant) => variant.id))];
  const rows = await db
    .select({
      productId: productPriceTiers.productId,
      variantId: productPriceTiers.variantId,
      minQuantity: productPriceTiers.minQuantity,
      priceSatang: productPriceTiers.priceSatang,
    })
    .from(productPriceTiers)
    .where(
      or(
        and(inArray(productPriceTiers.productId, productIds), sql`${productPriceTiers.variantId} is null`),
        inArray(productPriceTiers.variantId, variants.map((variant) => variant.variantId)),
      ),
    )
    .orderBy(asc(productPriceTiers.minQuantity));
  const own = new Map<number, PriceTier[]>();
  const shared = new Map<number, PriceTier[]>();
  for (const row of rows) {
    const map = row.variantId === null ? shared : own;
    const key = row.variantId ?? row.productId;
    const list = map.get(key) ?? [];
    list.push({ minQuantity: row.minQuantity, priceSatang: row.priceSatang });
    map.set(key, list);
  }
  for (const variant of variants) result.set(variant.variantId, own.get(variant.variantId) ?? shared.get(variant.id) ?? []);
  return result;
}

/** Takes a variant's stock only while enough is left; false means someone else took it first. */
export async function takeVariantStock(tx: DbOrTx, variantId: number, amount: number): Promise<boolean> {
  const rows = await tx
    .update(productVariants)
    .set({ stock: sql`${productVariants.stock} - ${amount}`, updatedAt: sql`now()` })
    .where(and(eq(productVariants.id, variantId), sql`${productVariants.stock} >= ${amount}`))
    .returning({ id: productVariants.id });
  return rows.length === 1;
}

/**
 * Gives stock back to the variants of order lines (in product, then variant order, as orders take it).
 * A line whose variant was deleted since (variant_id null) gives it to its product's first variant.
 */
export async function returnVariantStock(tx: DbOrTx, lines: readonly { productId: number; variantId: number | null; amount: number }[]): Promise<void> {
  const sorted = [...lines].sort((a, b) => a.productId - b.productId || (a.variantId ?? 0) - (b.variantId ?? 0));
  for (const line of sorted) {
    const target =
      line.variantId ??
      (
        await tx
          .select({ id: productVariants.id })
          .from(productVariants)
          .where(eq(productVariants.productId, line.productId))
          .orderBy(asc(productVariants.sortOrder), asc(productVariants.id))
          .limit(1)
      )[0]?.id;
    if (target === undefined) continue;
    await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${line.amount}`, updatedAt: sql`now()` })
      .where(eq(productVariants.id, target));
  }
}

/**
 * A staff change of a product's price or stock (the product form, the list's quick edit, a stock
 * adjustment), written on its one variant: the variant row is locked before the product row (through the
 * trigger), the order every checkout takes them in. False when the stock would go below zero. A product
 * of several variants refuses a change of either: they are its variants' (docs/decisions/205).
 */
export async function writeSoleVariant(tx: DbOrTx, productId: number, change: { priceSatang?: number | null; stockDelta: number }): Promise<{ ok: boolean; variantId: number | null }> {
  const variants = await tx
    .select({ id: productVariants.id, priceSatang: productVariants.priceSatang })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.sortOrder), asc(productVariants.id));
  const priceChanges = change.priceSatang != null && variants.some((variant) => variant.priceSatang !== change.priceSatang);
  if (change.stockDelta === 0 && !priceChanges) return { ok: true, variantId: variants.length === 1 ? (variants[0]?.id ?? null) : null };
  const [variant, ...more] = variants;
  if (!variant || more.length > 0) throw new VariantsOwnTheirFigures();
  const rows = await tx
    .update(productVariants)
    .set({
      ...(change.priceSatang != null ? { priceSatang: change.priceSatang } : {}),
      stock: sql`${productVariants.stock} + ${change.stockDelta}`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(productVariants.id, variant.id), sql`${productVariants.stock} + ${change.stockDelta} >= 0`))
    .returning({ id: productVariants.id });
  return { ok: rows.length === 1, variantId: variant.id };
}

/** A product of several variants had its price or stock changed as a whole (the caller answers in Thai). */
export class VariantsOwnTheirFigures extends Error {
  constructor() {
    super('a product of several variants has its price and stock on its variants');
  }
}
