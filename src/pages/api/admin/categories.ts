import { adminForm } from '../../../server/admin/forms';
import { deleteCategory, moveCategory, saveCategory } from '../../../server/catalog-admin/taxonomy.service';
import { badRequest } from '../../../server/http/errors';
import { parseWholeNumber } from '../../../lib/product-rules';

/** Categories: add or edit (`op=save`, with an optional picture), move up/down, delete (moving products first). */
export const POST = adminForm('catalog', () => '/admin/categories', async ({ actor, form }) => {
  const id = parseWholeNumber(String(form.get('id') ?? ''));
  switch (form.get('op')) {
    case 'save':
      await saveCategory(actor, id, form);
      return { message: id ? 'บันทึกหมวดหมู่แล้ว' : 'เพิ่มหมวดหมู่แล้ว' };
    case 'up':
    case 'down':
      if (!id) break;
      await moveCategory(actor, id, form.get('op') as 'up' | 'down');
      return { message: 'จัดลำดับหมวดหมู่แล้ว' };
    case 'delete': {
      if (!id) break;
      const moveTo = parseWholeNumber(String(form.get('move_to') ?? ''));
      await deleteCategory(actor, id, moveTo || null);
      return { message: 'ลบหมวดหมู่แล้ว' };
    }
  }
  throw badRequest('validation_failed', 'คำสั่งไม่ถูกต้อง');
});
