import { adminForm } from '../../../../server/admin/forms';
import { bulkSetVariants } from '../../../../server/catalog-admin/variant-editor.service';
import { parseBaht, parseWholeNumber } from '../../../../lib/product-rules';
import { badRequest } from '../../../../server/http/errors';

/**
 * "ตั้งราคา" / "ตั้งจำนวนคงเหลือ" of the variants table (issue 30): one price or one stock figure for the
 * rows ticked (`selected`), sent by the table's own form with `op` = price | stock.
 */
export const POST = adminForm('catalog', () => '/admin/products', async ({ actor, form }) => {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const product = text('product');
  const op = text('op');
  const selected = form.getAll('selected').map((value) => (typeof value === 'string' ? value.trim() : ''));
  if (op !== 'price' && op !== 'stock') throw badRequest('validation_failed', 'ไม่รู้จักคำสั่งนี้ กรุณาโหลดหน้าใหม่');
  const change = op === 'price' ? { priceSatang: parseBaht(text('bulk_price')) } : { stock: parseWholeNumber(text('bulk_stock')) };
  const { changed } = await bulkSetVariants(actor, product, selected, change);
  const what = op === 'price' ? 'ราคา' : 'จำนวนคงเหลือ';
  return {
    message: changed > 0 ? `ตั้ง${what}ของตัวเลือกที่เลือกแล้ว ${changed.toLocaleString('th-TH')} รายการ` : `${what}ของตัวเลือกที่เลือกเป็นค่านี้อยู่แล้ว`,
    redirect: `/admin/products/${encodeURIComponent(product)}#variants-heading`,
    data: { changed },
  };
});
