import { adminAction } from '../../../../server/catalog-admin/admin-action';
import { adjustStock } from '../../../../server/catalog-admin/stock.service';
import { readForm } from '../../../../server/http/body-limit';
import { badRequest } from '../../../../server/http/errors';

/** A stock adjustment: + or − a number of units, with a reason. */
export const POST = adminAction('catalog', '/admin/products', async ({ context, actor }) => {
  const form = await readForm(context.request);
  const code = String(form.get('code') ?? '').trim();
  const amount = String(form.get('amount') ?? '').trim();
  const direction = String(form.get('direction') ?? 'add');
  if (!/^\d{1,8}$/.test(amount)) throw badRequest('validation_failed', 'กรุณากรอกจำนวนเป็นจำนวนเต็ม', { amount: 'จำนวนไม่ถูกต้อง' });
  const delta = Number(amount) * (direction === 'remove' ? -1 : 1);
  const result = await adjustStock(actor, code, delta, String(form.get('reason') ?? ''));
  return {
    message: `ปรับสต็อก ${code} ${delta > 0 ? '+' : ''}${delta.toLocaleString('th-TH')} แล้ว คงเหลือ ${result.stock.toLocaleString('th-TH')}`,
    location: `/admin/products/${encodeURIComponent(code)}/stock`,
    data: result,
  };
});
