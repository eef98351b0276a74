import { adminForm } from '../../../../server/admin/forms';
import { addStaffNote } from '../../../../server/orders/admin-orders.service';

/** A staff note on the order (seen only in the back office). */
export const POST = adminForm(
  'orders',
  (context) => `/admin/orders/${encodeURIComponent(context.params.no ?? '')}`,
  async ({ context, actor, form }) => {
    await addStaffNote(actor, String(context.params.no ?? ''), String(form.get('note') ?? ''));
    return { message: 'บันทึกหมายเหตุแล้ว' };
  },
);
