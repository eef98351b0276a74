import { adminForm } from '../../../server/admin/forms';
import { deleteBrand, saveBrand } from '../../../server/catalog-admin/taxonomy.service';
import { badRequest } from '../../../server/http/errors';
import { parseWholeNumber } from '../../../lib/product-rules';

/** Brands: add or edit (`op=save`, with an optional logo), delete one no product carries. */
export const POST = adminForm('catalog', () => '/admin/brands', async ({ actor, form }) => {
  const id = parseWholeNumber(String(form.get('id') ?? ''));
  if (form.get('op') === 'save') {
    await saveBrand(actor, id, form);
    return { message: id ? 'บันทึกแบรนด์แล้ว' : 'เพิ่มแบรนด์แล้ว' };
  }
  if (form.get('op') === 'delete' && id) {
    await deleteBrand(actor, id);
    return { message: 'ลบแบรนด์แล้ว' };
  }
  throw badRequest('validation_failed', 'คำสั่งไม่ถูกต้อง');
});
