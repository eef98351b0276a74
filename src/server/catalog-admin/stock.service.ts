import { and, asc, eq, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { products, productVariants } from '../db/schema.ts';
import { variantLabel, variantOptions } from '../../lib/variants.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { MAX_STOCK } from '../../lib/product-rules.ts';
import { normalizeText } from '../../lib/thai-text.ts';
import { statusLabels } from '../../lib/orders.ts';
import { recordStockMovements, stockHistory, type StockMovementRow } from './stock.repo.ts';
import { VariantsOwnTheirFigures, writeSoleVariant } from '../catalog/variant.repo.ts';

/** One variant's stock by a difference (the stock page of a product with several variants). */
async function adjustVariant(tx: DbOrTx, productId: number, variantCode: string, delta: number): Promise<{ ok: boolean; variantId: number | null }> {
  const [variant] = await tx
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(and(eq(productVariants.productId, productId), eq(productVariants.code, variantCode)));
  if (!variant) throw notFound('variant_not_found', 'ไม่พบตัวเลือกสินค้านี้');
  const rows = await tx
    .update(productVariants)
    .set({ stock: sql`${productVariants.stock} + ${delta}`, updatedAt: sql`now()` })
    .where(and(eq(productVariants.id, variant.id), sql`${productVariants.stock} + ${delta} >= 0`))
    .returning({ id: productVariants.id });
  return { ok: rows.length === 1, variantId: variant.id };
}

/** A product's variants with their stock, for its stock page. */
export async function variantsForStock(productId: number): Promise<{ id: number; code: string; label: string; stock: number; active: boolean }[]> {
  const db = await getDb();
  const [product] = await db.select({ optionNames: products.optionNames }).from(products).where(eq(products.id, productId));
  const rows = await db
    .select({ id: productVariants.id, code: productVariants.code, option1: productVariants.option1, option2: productVariants.option2, option3: productVariants.option3, stock: productVariants.stock, active: productVariants.active })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.sortOrder), asc(productVariants.id));
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    label: variantLabel(variantOptions(product?.optionNames ?? [], [row.option1, row.option2, row.option3])) || row.code,
    stock: row.stock,
    active: row.active,
  }));
}

/** A product of several variants: its stock is changed per variant. */
export function variantsOwnStock() {
  return conflict('product_has_variants', 'สินค้านี้มีหลายตัวเลือก (เช่น สีหรือขนาด) ราคาและจำนวนคงเหลือต้องแก้ที่แต่ละตัวเลือก');
}

/**
 * Stock adjustments (docs/design.md section 10, /admin/products/{code}/stock): a signed difference with a
 * reason, applied to the locked row in one transaction with its history row and audit row. Because the
 * difference is applied (`stock = stock + delta`) to the row an order also locks, an adjustment racing an
 * order never loses a unit.
 */
export async function adjustStock(actor: AuditActor, code: string, delta: number, reasonText: string, variantCode?: string): Promise<{ stock: number }> {
  const reason = normalizeText(reasonText).slice(0, 300);
  if (!Number.isInteger(delta) || delta === 0 || Math.abs(delta) > MAX_STOCK) {
    throw badRequest('validation_failed', 'กรุณากรอกจำนวนที่ปรับเป็นจำนวนเต็มบวกหรือลบ (ไม่ใช่ 0)', { delta: 'จำนวนไม่ถูกต้อง' });
  }
  if (!reason) throw badRequest('validation_failed', 'กรุณาระบุเหตุผลในการปรับสต็อก', { reason: 'กรุณาระบุเหตุผล' });
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select({ id: products.id, stock: products.stock }).from(products).where(eq(products.code, code));
    if (!row) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
    // The variant's row, then the product's (the trigger), as every checkout locks them (docs/decisions/205).
    const written = variantCode
      ? await adjustVariant(tx, row.id, variantCode, delta)
      : await writeSoleVariant(tx, row.id, { stockDelta: delta }).catch((error: unknown) => {
          throw error instanceof VariantsOwnTheirFigures ? variantsOwnStock() : error;
        });
    const [now] = await tx.select({ stock: products.stock }).from(products).where(eq(products.id, row.id));
    if (!written.ok) throw conflict('stock_negative', `ปรับลดได้ไม่เกิน ${(now?.stock ?? row.stock).toLocaleString('th-TH')} (คงเหลือปัจจุบัน)`);
    const updated = now;
    await recordStockMovements(tx, [{ productId: row.id, variantId: written.variantId, delta, kind: 'adjust', reason, actorEmail: actor.email }]);
    await recordAudit(tx, actor, {
      action: 'product.stock_adjust',
      entityType: 'product',
      // The product's code, so the trail names and links the product; the variant adjusted is in the note.
      entityId: code,
      before: { stock: row.stock },
      after: { stock: updated?.stock },
      note: variantCode ? `${reason} (${variantCode})` : reason,
    });
    return { stock: updated?.stock ?? row.stock + delta };
  });
  await invalidateCatalog({ productCodes: [code] });
  return result;
}

export async function productStockHistory(productId: number, limit = 50, beforeId?: number): Promise<StockMovementRow[]> {
  return stockHistory(await getDb(), productId, limit, beforeId);
}

export const STOCK_KIND_LABELS: Record<StockMovementRow['kind'], string> = {
  adjust: 'ปรับสต็อก',
  order: 'คำสั่งซื้อ',
  cancel: 'ยกเลิกคำสั่งซื้อ',
  expire: statusLabels.expired,
  import: 'นำเข้า CSV',
  create: 'สร้างสินค้า',
};
