import { adminForm } from '../../../../server/admin/forms';
import { adjustStock } from '../../../../server/catalog-admin/stock.service';
import { badRequest } from '../../../../server/http/errors';
import { PRODUCT_CODE_PATTERN } from '../../../../lib/product-rules';

/** A stock adjustment: + or − a number of units, with a reason. */
export const POST = adminForm('catalog', () => '/admin/products', async ({ actor, form }) => {
  const code = String(form.get('code') ?? '').trim();
  const amount = String(form.get('amount') ?? '').trim();
  const direction = String(form.get('direction') ?? 'add');
  if (!/^\d{1,8}$/.test(amount)) throw badRequest('validation_failed', 'กรุณากรอกจำนวนเป็นจำนวนเต็ม', { amount: 'จำนวนไม่ถูกต้อง' });
  const delta = Number(amount) * (direction === 'remove' ? -1 : 1);
  // A product of several variants names the variant whose stock moves (docs/decisions/205).
  const variant = String(form.get('variant') ?? '').trim();
  if (variant && !PRODUCT_CODE_PATTERN.test(variant)) throw badRequest('validation_failed', 'ตัวเลือกสินค้าไม่ถูกต้อง', { variant: 'ตัวเลือกสินค้าไม่ถูกต้อง' });
  const result = await adjustStock(actor, code, delta, String(form.get('reason') ?? ''), variant || undefined);
  return {
    message: `ปรับสต็อก ${variant || code} ${delta > 0 ? '+' : ''}${delta.toLocaleString('th-TH')} แล้ว คงเหลือ ${result.stock.toLocaleString('th-TH')}`,
    redirect: `/admin/products/${encodeURIComponent(code)}/stock`,
    data: result,
  };
});
