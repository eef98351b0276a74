import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { productPriceTiers, products, productVariants } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { formatTiers, tierProblem, type TierInput } from '../../lib/product-rules.ts';
import { variantLabel, variantOptions } from '../../lib/variants.ts';

/**
 * A variant's own wholesale tiers (issue 30, docs/decisions/205): a variant without any sells at its
 * product's tiers (variant_id null); one with its own sells at those alone. Checked with the product
 * form's rules against the variant's own price, written in one transaction with an audit row, and the
 * product's pages dropped from the cache.
 */

/** Each variant's own tiers by variant id (a variant using its product's has none here). */
export async function ownTiersOfVariants(db: DbOrTx, variantIds: readonly number[]): Promise<Map<number, TierInput[]>> {
  const result = new Map<number, TierInput[]>();
  if (variantIds.length === 0) return result;
  const rows = await db
    .select({ variantId: productPriceTiers.variantId, minQuantity: productPriceTiers.minQuantity, priceSatang: productPriceTiers.priceSatang })
    .from(productPriceTiers)
    .where(and(isNotNull(productPriceTiers.variantId), inArray(productPriceTiers.variantId, [...variantIds])))
    .orderBy(asc(productPriceTiers.minQuantity));
  for (const row of rows) {
    const list = result.get(row.variantId as number) ?? [];
    list.push({ minQuantity: row.minQuantity, priceSatang: row.priceSatang });
    result.set(row.variantId as number, list);
  }
  return result;
}

/**
 * A new price of a variant with tiers of its own must stay above them, as a product's price must stay
 * above its tiers (quickEditProduct): refused in Thai, naming the variant, before anything is written.
 */
export async function refusePricesBelowOwnTiers(tx: DbOrTx, changes: readonly { id: number; code: string; priceSatang: number }[]): Promise<void> {
  const own = await ownTiersOfVariants(tx, changes.map((change) => change.id));
  for (const change of changes) {
    const problem = tierProblem(change.priceSatang, own.get(change.id) ?? []);
    if (problem) throw badRequest('validation_failed', `ราคาใหม่ของตัวเลือก ${change.code} ขัดกับราคาส่งของตัวเลือกนี้: ${problem}`);
  }
}

/**
 * Sets a variant's own tiers, or (`own` null) sends it back to its product's. Own tiers must be at least
 * one row and read as a price list below the variant's price (tierProblem, the product form's rule).
 */
export async function setVariantTiers(actor: AuditActor, productCode: string, variantCode: string, own: readonly TierInput[] | null): Promise<{ changed: boolean; label: string }> {
  if (own !== null && own.length === 0) throw badRequest('validation_failed', 'กรุณากรอกราคาส่งอย่างน้อยหนึ่งขั้น หรือเลือก "ใช้ราคาส่งของสินค้า"', { tiers: 'ยังไม่มีขั้นราคาส่ง' });
  const db = await getDb();
  const outcome = await db.transaction(async (tx) => {
    const [product] = await tx.select({ id: products.id, code: products.code, optionNames: products.optionNames }).from(products).where(eq(products.code, productCode));
    if (!product) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
    // The variant row locked, as every variant edit does: two saves of its tiers at once take turns.
    const [variant] = await tx
      .select()
      .from(productVariants)
      .where(and(eq(productVariants.productId, product.id), eq(productVariants.code, variantCode)))
      .for('update');
    if (!variant) throw notFound('variant_not_found', `ไม่พบตัวเลือกรหัส ${variantCode} ของสินค้านี้ กรุณาโหลดหน้าใหม่`);
    const label = variantLabel(variantOptions(product.optionNames, [variant.option1, variant.option2, variant.option3])) || variant.code;
    if (own !== null) {
      const problem = tierProblem(variant.priceSatang, own);
      if (problem) throw badRequest('validation_failed', `ตัวเลือก ${label}: ${problem}`, { tiers: problem });
    }
    const before = (await ownTiersOfVariants(tx, [variant.id])).get(variant.id) ?? [];
    const after = own ?? [];
    if (formatTiers(before) === formatTiers(after)) return { changed: false, label, codes: [] };
    await tx.delete(productPriceTiers).where(eq(productPriceTiers.variantId, variant.id));
    if (after.length > 0) await tx.insert(productPriceTiers).values(after.map((tier) => ({ productId: product.id, variantId: variant.id, minQuantity: tier.minQuantity, priceSatang: tier.priceSatang })));
    const shape = (tiers: readonly TierInput[]) => ({ variant: variant.code, tiers: tiers.length > 0 ? tiers.map((tier) => ({ minQuantity: tier.minQuantity, priceSatang: tier.priceSatang })) : 'product' });
    await recordAudit(tx, actor, { action: 'product.variants.tiers', entityType: 'product', entityId: product.code, before: shape(before), after: shape(after) });
    return { changed: true, label, codes: [product.code, variant.code] };
  });
  if (outcome.changed) await invalidateCatalog({ productCodes: outcome.codes });
  return { changed: outcome.changed, label: outcome.label };
}
