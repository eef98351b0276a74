import { adminForm } from '../../../../server/admin/forms';
import { removeVariants } from '../../../../server/catalog-admin/variant-editor.service';

/**
 * Removes variants of a product (issue 30, docs/decisions/214): the row's "ลบ" button (`remove`, one code)
 * or the list of variants no longer in the options (several). Stock left needs `confirm_stock`.
 */
export const POST = adminForm('catalog', () => '/admin/products', async ({ actor, form }) => {
  const product = String(form.get('product') ?? '').trim();
  const codes = form.getAll('remove').map((value) => (typeof value === 'string' ? value.trim() : ''));
  const { removed } = await removeVariants(actor, product, codes, form.get('confirm_stock') === '1');
  return {
    message: `ลบตัวเลือก ${removed.join(', ')} ของสินค้า ${product} แล้ว`,
    redirect: `/admin/products/${encodeURIComponent(product)}#variants-heading`,
    data: { removed },
  };
});
