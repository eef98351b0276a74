import { adminForm } from '../../../server/admin/forms';
import { bulkShip } from '../../../server/orders/admin-orders.service';
import { badRequest } from '../../../server/http/errors';

/** Marks the ticked orders shipped (those that need no tracking number); the rest are listed with the reason. */
export const POST = adminForm(
  'orders',
  () => '/admin/orders?tab=to-ship',
  async ({ actor, form }) => {
    const nos = form
      .getAll('no')
      .map((value) => String(value).trim().toUpperCase())
      .filter(Boolean);
    if (nos.length === 0) throw badRequest('no_orders', 'กรุณาเลือกคำสั่งซื้ออย่างน้อย 1 รายการ');
    if (nos.length > 200) throw badRequest('too_many_orders', 'ทำรายการได้ครั้งละไม่เกิน 200 คำสั่งซื้อ');
    const result = await bulkShip(actor, [...new Set(nos)]);
    return {
      kind: result.refused.length === 0 ? 'success' : result.done.length === 0 ? 'danger' : 'warning',
      message: `บันทึกจัดส่งแล้ว ${result.done.length} รายการ${result.refused.length > 0 ? ` · ทำไม่ได้ ${result.refused.length} รายการ` : ''}`,
      details: result.refused.map((entry) => `${entry.orderNo}: ${entry.reason}`),
      data: result,
    };
  },
);
