import { adminForm } from '../../../../server/admin/forms';
import { quickEditProduct } from '../../../../server/catalog-admin/product-admin.service';
import { badRequest } from '../../../../server/http/errors';
import { parseBaht, parseWholeNumber } from '../../../../lib/product-rules';

/** Quick price and stock edits from a row of the product list. */
export const POST = adminForm('catalog', () => '/admin/products', async ({ actor, form }) => {
  const value = (name: string) => (typeof form.get(name) === 'string' ? (form.get(name) as string).trim() : '');
  const code = value('code');
  const priceSatang = value('price') === '' ? null : parseBaht(value('price'));
  if (value('price') !== '' && priceSatang === null) throw badRequest('validation_failed', 'กรุณากรอกราคาเป็นตัวเลข เช่น 199 หรือ 199.50');
  const stock = value('stock') === '' ? null : parseWholeNumber(value('stock'));
  if (value('stock') !== '' && stock === null) throw badRequest('validation_failed', 'กรุณากรอกจำนวนคงเหลือเป็นจำนวนเต็มตั้งแต่ 0 ขึ้นไป');
  const stockWas = value('stock_was') === '' ? null : parseWholeNumber(value('stock_was'));
  const after = await quickEditProduct(actor, code, { priceSatang, stock, stockWas });
  return { message: `บันทึก ${after.code} แล้ว`, data: { code: after.code, priceSatang: after.priceSatang, stock: after.stock } };
});
