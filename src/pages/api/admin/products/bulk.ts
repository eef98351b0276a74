import { adminForm } from '../../../../server/admin/forms';
import { bulkProducts, type BulkAction } from '../../../../server/catalog-admin/product-admin.service';
import { badRequest } from '../../../../server/http/errors';
import { parseWholeNumber } from '../../../../lib/product-rules';

/** Several selected products at once: hide, show, or move to a category. */
export const POST = adminForm('catalog', () => '/admin/products', async ({ actor, form }) => {
  const codes = form.getAll('codes').filter((code): code is string => typeof code === 'string');
  const kind = form.get('action');
  let action: BulkAction;
  if (kind === 'hide' || kind === 'show') action = { kind };
  else if (kind === 'move') {
    const categoryId = parseWholeNumber(String(form.get('category_id') ?? ''));
    if (!categoryId) throw badRequest('validation_failed', 'กรุณาเลือกหมวดหมู่ที่จะย้ายไป');
    action = { kind, categoryId };
  } else throw badRequest('validation_failed', 'กรุณาเลือกสิ่งที่จะทำกับสินค้าที่เลือก');
  const changed = await bulkProducts(actor, codes, action);
  const verb = action.kind === 'hide' ? 'ซ่อน' : action.kind === 'show' ? 'แสดง' : 'ย้ายหมวดหมู่';
  return { message: `${verb}สินค้า ${changed.toLocaleString('th-TH')} รายการแล้ว`, data: { changed } };
});
