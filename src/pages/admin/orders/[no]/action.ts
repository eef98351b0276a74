import { adminForm, textFields } from '../../../../server/admin/forms';
import { applyStaffAction, staffActionSchema } from '../../../../server/orders/admin-orders.service';
import { actionLabels, statusLabels } from '../../../../lib/orders';
import { orderJson } from '../../../../server/orders/order-json';

/** One staff action on one order (confirm payment, reject slip, ship, delivered, cancel). */
export const POST = adminForm(
  'orders',
  (context) => `/admin/orders/${encodeURIComponent(context.params.no ?? '')}`,
  async ({ context, actor, form }) => {
    const input = staffActionSchema.parse(textFields(form));
    const order = await applyStaffAction(actor, String(context.params.no ?? ''), input);
    return { message: `${actionLabels[input.action]}แล้ว · สถานะตอนนี้ "${statusLabels[order.status]}"`, data: orderJson(order) };
  },
);
