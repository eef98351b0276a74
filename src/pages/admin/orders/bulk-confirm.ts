import { adminForm } from '../../../server/admin/forms';
import { bulkConfirmPayments, REVIEW_TAB_URL } from '../../../server/orders/slip-review.service';

/** Confirms the payment of the ticked orders whose slip this staff member has opened; the rest say why not. */
export const POST = adminForm(
  'orders',
  () => REVIEW_TAB_URL,
  async ({ actor, form }) => {
    const result = await bulkConfirmPayments(actor, form.getAll('no').map(String));
    return {
      kind: result.refused.length === 0 ? 'success' : result.done.length === 0 ? 'danger' : 'warning',
      message: `ยืนยันการชำระเงินแล้ว ${result.done.length} รายการ${result.refused.length > 0 ? ` · ทำไม่ได้ ${result.refused.length} รายการ` : ''}`,
      details: result.refused.map((entry) => `${entry.orderNo}: ${entry.reason}`),
      data: result,
    };
  },
);
