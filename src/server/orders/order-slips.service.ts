import { getDb } from '../db/client.ts';
import { conflict, notFound } from '../http/errors.ts';
import { nextStatus, type OrderView } from '../../lib/orders.ts';
import * as repo from './order.repo.ts';
import { checkSlip, cleanSlip, readSlip, removeSlip, storeSlip } from './slip-storage.ts';
import { checkSlipForOrder, readSlipQr } from '../payments/slip-verify.ts';
import type { Actor, OrderMember } from './order-actors.ts';
import { orderNotFound, orderView, visibleOrder } from './order-read.ts';

/** Payment slips: upload with the QR check, and reading them back for their member or staff. */

/**
 * Stores a payment slip for the member's own unpaid order and moves it to payment review. The content
 * is checked before anything is written; a refused request leaves no file behind. The QR is read from
 * the upload; what is stored is the picture written again without its metadata (slip-storage.ts).
 */
export async function uploadSlip(member: OrderMember, orderNo: string, bytes: Uint8Array): Promise<OrderView> {
  checkSlip(bytes);
  const cleaned = await cleanSlip(bytes);
  const reading = await readSlipQr(bytes);
  const db = await getDb();
  const before = await visibleOrder(db, { type: 'member', id: member.id }, orderNo);
  if (!nextStatus(before, 'upload_slip', 'member')) {
    throw conflict('slip_not_accepted', 'คำสั่งซื้อนี้ไม่อยู่ในสถานะที่รอชำระเงิน');
  }
  const stored = await storeSlip(cleaned.bytes, cleaned.type);
  let replaced: string | null = null;
  let sameSlip = false;
  let updated: repo.OrderRow;
  try {
    updated = await db.transaction(async (tx) => {
      const row = await repo.lockOrderByNo(tx, orderNo);
      if (!row || row.memberId !== member.id) throw orderNotFound();
      const to = nextStatus(row, 'upload_slip', 'member');
      if (!to) throw conflict('slip_not_accepted', 'คำสั่งซื้อนี้ไม่อยู่ในสถานะที่รอชำระเงิน');
      ({ sameSlip } = await checkSlipForOrder(tx, row, reading));
      if (sameSlip) return row;
      replaced = row.slipPath;
      const next = await repo.updateOrder(tx, row.id, { status: to, slipPath: stored, slipUploadedAt: new Date() });
      await repo.insertOrderEvent(tx, {
        orderId: row.id,
        fromStatus: row.status,
        toStatus: to,
        actorType: 'member',
        actorId: member.id,
        note: 'แนบสลิปการโอนเงิน',
      });
      return next;
    });
  } catch (error) {
    await removeSlip(stored).catch(() => {});
    throw error;
  }
  if (sameSlip) await removeSlip(stored).catch(() => {});
  if (replaced) await removeSlip(replaced).catch(() => {});
  return orderView(db, updated);
}

export async function slipOf(actor: Actor, orderNo: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  const db = await getDb();
  const row = await visibleOrder(db, actor, orderNo);
  if (!row.slipPath) throw notFound('slip_not_found', 'ยังไม่มีสลิปสำหรับคำสั่งซื้อนี้');
  return readSlip(row.slipPath);
}
