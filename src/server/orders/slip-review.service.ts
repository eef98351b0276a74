import { getDb } from '../db/client.ts';
import { AppError, badRequest } from '../http/errors.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { orderNoSchema } from '../../lib/orders.ts';
import * as repo from './order.repo.ts';
import * as reviewRepo from './slip-review.repo.ts';
import { changeOrderStatus } from './order.service.ts';
import type { BulkResult } from './admin-orders.service.ts';

/**
 * The slip review queue (docs/decisions/175-slip-review-before-money.md): staff go from one waiting slip to
 * the next, oldest first, and confirm several at once only after opening each slip themselves.
 */

export const REVIEW_TAB_URL = '/admin/orders?tab=review';
export const MAX_BULK_CONFIRM = 100;

/** The waiting slip that comes after this order in the queue, or the oldest one when the order is unknown. */
export async function nextSlipAfter(orderNo: string | null): Promise<string | null> {
  const db = await getDb();
  const row = orderNo ? await repo.findOrderByNo(db, orderNo) : null;
  return reviewRepo.nextWaitingSlip(db, row ? { orderNo: row.orderNo, createdAt: row.createdAt } : null);
}

/** Records that this staff member has the order's current slip on screen (the order page shows it). */
export async function noteSlipLookedAt(staffId: string, orderNo: string): Promise<void> {
  await reviewRepo.recordSlipLook(await getDb(), staffId, orderNo);
}

/** Of these orders, the ones whose current slip this staff member has opened (the review tab marks them). */
export async function slipsLookedAt(staffId: string, orderNos: string[]): Promise<Set<string>> {
  return reviewRepo.ordersWithSlipLookedAt(await getDb(), staffId, orderNos);
}

/** Where staff go after confirming or rejecting a slip: the next one waiting, else the review tab. */
export async function afterSlipDecision(orderNo: string): Promise<{ redirect: string; allChecked: boolean }> {
  const next = await nextSlipAfter(orderNo);
  return next ? { redirect: `/admin/orders/${encodeURIComponent(next)}`, allChecked: false } : { redirect: REVIEW_TAB_URL, allChecked: true };
}

export const NOT_LOOKED_AT = 'ยังไม่ได้เปิดดูสลิปของคำสั่งซื้อนี้ กรุณาเปิดตรวจสลิปก่อนยืนยันการชำระเงิน';

/**
 * Confirms the payment of several waiting orders. Only those whose current slip this staff member has
 * opened are confirmed (each with its own audit row, as one at a time); the rest are refused with the reason.
 */
export async function bulkConfirmPayments(actor: AuditActor, orderNos: string[]): Promise<BulkResult> {
  const unique = [...new Set(orderNos.map((no) => no.trim().toUpperCase()).filter(Boolean))];
  if (unique.length === 0) throw badRequest('no_orders', 'กรุณาเลือกคำสั่งซื้ออย่างน้อย 1 รายการ');
  if (unique.length > MAX_BULK_CONFIRM) throw badRequest('too_many_orders', `ยืนยันได้ครั้งละไม่เกิน ${MAX_BULK_CONFIRM} คำสั่งซื้อ`);
  for (const no of unique) if (!orderNoSchema.safeParse(no).success) throw badRequest('order_no_invalid', `เลขที่คำสั่งซื้อ ${no.slice(0, 40)} ไม่ถูกต้อง`);
  if (!actor.id) throw badRequest('staff_unknown', 'ไม่พบผู้ใช้งาน กรุณาเข้าสู่ระบบอีกครั้ง');
  const looked = await reviewRepo.ordersWithSlipLookedAt(await getDb(), actor.id, unique);
  const result: BulkResult = { done: [], refused: [] };
  for (const orderNo of unique) {
    if (!looked.has(orderNo)) {
      result.refused.push({ orderNo, reason: NOT_LOOKED_AT });
      continue;
    }
    try {
      await changeOrderStatus({ type: 'staff', id: actor.id }, orderNo, { action: 'confirm_payment' }, { audit: actor, expectedStatus: 'payment_review' });
      result.done.push(orderNo);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      result.refused.push({ orderNo, reason: error.message });
    }
  }
  return result;
}
