import { adminForm } from '../../../../server/admin/forms';
import { applyTrackingImport, csvFromForm } from '../../../../server/orders/tracking-import.service';

/** Ships the orders of an import-tracking CSV that the preview accepted. */
export const POST = adminForm(
  'orders',
  () => '/admin/orders/import-tracking',
  async ({ actor, form }) => {
    const result = await applyTrackingImport(actor, await csvFromForm(form));
    return {
      kind: result.refused.length === 0 ? 'success' : result.shipped.length === 0 ? 'danger' : 'warning',
      message: `บันทึกจัดส่งแล้ว ${result.shipped.length} คำสั่งซื้อ${result.refused.length > 0 ? ` · ไม่ได้นำเข้า ${result.refused.length} แถว` : ''}`,
      details: result.refused.map((row) => `แถว ${row.line} ${row.orderNo || '(ว่าง)'}: ${row.reason}`),
      redirect: result.shipped.length > 0 ? '/admin/orders?tab=shipping' : '/admin/orders/import-tracking',
      data: result,
    };
  },
);
