import { eq, sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { MAX_STOCK } from '../../lib/product-rules.ts';
import { normalizeText } from '../../lib/thai-text.ts';
import { statusLabels } from '../../lib/orders.ts';
import { recordStockMovements, stockHistory, type StockMovementRow } from './stock.repo.ts';

/**
 * Stock adjustments (docs/design.md section 10, /admin/products/{code}/stock): a signed difference with a
 * reason, applied to the locked row in one transaction with its history row and audit row. Because the
 * difference is applied (`stock = stock + delta`) to the row an order also locks, an adjustment racing an
 * order never loses a unit.
 */
export async function adjustStock(actor: AuditActor, code: string, delta: number, reasonText: string): Promise<{ stock: number }> {
  const reason = normalizeText(reasonText).slice(0, 300);
  if (!Number.isInteger(delta) || delta === 0 || Math.abs(delta) > MAX_STOCK) {
    throw badRequest('validation_failed', 'กรุณากรอกจำนวนที่ปรับเป็นจำนวนเต็มบวกหรือลบ (ไม่ใช่ 0)', { delta: 'จำนวนไม่ถูกต้อง' });
  }
  if (!reason) throw badRequest('validation_failed', 'กรุณาระบุเหตุผลในการปรับสต็อก', { reason: 'กรุณาระบุเหตุผล' });
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: products.id, stock: products.stock })
      .from(products)
      .where(eq(products.code, code))
      .for('update');
    if (!row) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
    if (row.stock + delta < 0) throw conflict('stock_negative', `ปรับลดได้ไม่เกิน ${row.stock.toLocaleString('th-TH')} (คงเหลือปัจจุบัน)`);
    const [updated] = await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${delta}`, updatedAt: sql`now()` })
      .where(eq(products.id, row.id))
      .returning({ stock: products.stock });
    await recordStockMovements(tx, [{ productId: row.id, delta, kind: 'adjust', reason, actorEmail: actor.email }]);
    await recordAudit(tx, actor, {
      action: 'product.stock_adjust',
      entityType: 'product',
      entityId: code,
      before: { stock: row.stock },
      after: { stock: updated?.stock },
      note: reason,
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
