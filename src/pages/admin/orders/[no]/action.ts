import { adminForm, textFields } from '../../../../server/admin/forms';
import { applyStaffAction, staffActionSchema } from '../../../../server/orders/admin-orders.service';
import { afterSlipDecision } from '../../../../server/orders/slip-review.service';
import { actionLabels, statusLabels } from '../../../../lib/orders';
import { orderJson } from '../../../../server/orders/order-json';

/**
 * One staff action on one order (confirm payment, reject slip, ship, delivered, cancel). A decision on a
 * waiting slip moves on to the next slip waiting, or back to the review tab when every slip is checked.
 */
export const POST = adminForm(
  'orders',
  (context) => `/admin/orders/${encodeURIComponent(context.params.no ?? '')}`,
  async ({ context, actor, form }) => {
    const input = staffActionSchema.parse(textFields(form));
    const orderNo = String(context.params.no ?? '');
    const order = await applyStaffAction(actor, orderNo, input);
    const done = `${actionLabels[input.action]}แล้ว · สถานะตอนนี้ "${statusLabels[order.status]}"`;
    if (input.expected_status === 'payment_review' && (input.action === 'confirm_payment' || input.action === 'reject_slip')) {
      const next = await afterSlipDecision(order.orderNo);
      const where = next.allChecked ? 'ตรวจสลิปครบทุกรายการแล้ว' : 'ต่อไปคือสลิปที่รอตรวจถัดไป';
      return { message: `${order.orderNo}: ${done} · ${where}`, redirect: next.redirect, data: orderJson(order) };
    }
    return { message: done, data: orderJson(order) };
  },
);
