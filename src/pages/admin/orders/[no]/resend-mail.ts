import { adminForm } from '../../../../server/admin/forms';
import { mailLabels, resendOrderMail } from '../../../../server/orders/admin-orders.service';

/** Sends the order's latest mail to the member again. */
export const POST = adminForm(
  'orders',
  (context) => `/admin/orders/${encodeURIComponent(context.params.no ?? '')}`,
  async ({ context, actor }) => {
    const kind = await resendOrderMail(actor, String(context.params.no ?? ''));
    return { message: `ส่ง${mailLabels[kind]}ให้สมาชิกอีกครั้งแล้ว`, data: { mail: kind } };
  },
);
