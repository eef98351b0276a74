import type { DbOrTx } from '../db/client.ts';
import { conflict } from '../http/errors.ts';
import { readSlipQr, type SlipReading } from './slip-qr.ts';
import * as slipRepo from './slip.repo.ts';

export { readSlipQr, type SlipReading };

/**
 * The slip rules of docs/design.md section 14, applied inside the upload's transaction while the order row
 * is locked:
 * - a reference already claimed by another order is refused (slip_reused) and the transaction rolls
 *   back, so nothing about the slip is stored;
 * - the same reference as the order's current slip is "the same slip": the caller keeps the order as is;
 * - otherwise the reference is claimed for this order and the check stored with the slip.
 */
export async function checkSlipForOrder(
  tx: DbOrTx,
  order: { id: string; slipPath: string | null },
  reading: SlipReading,
): Promise<{ sameSlip: boolean }> {
  let warning = reading.warning;
  if (reading.bank && reading.reference) {
    const current = await slipRepo.slipCheckOf(tx, order.id);
    if (order.slipPath && current?.bank === reading.bank && current.reference === reading.reference) return { sameSlip: true };
    const sentBefore = await slipRepo.orderHadReference(tx, order.id, reading.bank, reading.reference);
    const holder = await slipRepo.claimReference(tx, reading.bank, reading.reference, order.id);
    if (holder.orderId !== order.id) {
      // The other order may be another member's: its number is not told.
      throw conflict(
        'slip_reused',
        'สลิปนี้เคยถูกใช้ชำระเงินกับคำสั่งซื้ออื่นแล้ว ไม่สามารถใช้ซ้ำได้ กรุณาแนบสลิปของการโอนเงินสำหรับคำสั่งซื้อนี้',
      );
    }
    if (sentBefore && !warning) warning = 'สลิปนี้เคยถูกส่งมาสำหรับคำสั่งซื้อนี้และถูกปฏิเสธไปแล้ว';
  }
  await slipRepo.saveSlipCheck(tx, {
    orderId: order.id,
    status: warning && reading.status === 'verified' ? 'warning' : reading.status,
    bank: reading.bank,
    reference: reading.reference,
    warning,
    payload: reading.payload,
  });
  return { sameSlip: false };
}
