import { adminForm } from '../../../../server/admin/forms';
import { setVariantTiers } from '../../../../server/catalog-admin/variant-tiers.service';
import { parseBaht, parseWholeNumber, type TierInput } from '../../../../lib/product-rules';
import { badRequest } from '../../../../server/http/errors';

/**
 * "ราคาส่งของตัวเลือกนี้" of a row of the variants table (issue 30): `tiers` = product (the product's
 * tiers) or own, with the rows `tier_min` / `tier_price` in order; a row left empty is skipped.
 */
export const POST = adminForm('catalog', () => '/admin/products', async ({ actor, form }) => {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const product = text('product');
  const variant = text('variant');
  const mode = text('tiers');
  if (mode !== 'product' && mode !== 'own') throw badRequest('validation_failed', 'กรุณาเลือกว่าจะใช้ราคาส่งของสินค้าหรือตั้งราคาส่งเอง');
  let own: TierInput[] | null = null;
  if (mode === 'own') {
    const all = (name: string) => form.getAll(name).map((value) => (typeof value === 'string' ? value.trim() : ''));
    const minimums = all('tier_min');
    const prices = all('tier_price');
    own = [];
    for (let index = 0; index < Math.max(minimums.length, prices.length); index += 1) {
      const minText = minimums[index] ?? '';
      const priceText = prices[index] ?? '';
      if (minText === '' && priceText === '') continue;
      const minQuantity = parseWholeNumber(minText);
      const priceSatang = parseBaht(priceText);
      if (minQuantity === null || priceSatang === null) {
        const problem = `ราคาส่งแถวที่ ${own.length + 1}: กรุณากรอกจำนวนและราคาเป็นตัวเลข`;
        throw badRequest('validation_failed', problem, { tiers: problem });
      }
      own.push({ minQuantity, priceSatang });
    }
  }
  const { changed, label } = await setVariantTiers(actor, product, variant, own);
  const message = !changed
    ? `ราคาส่งของตัวเลือก ${label} ไม่มีการเปลี่ยนแปลง`
    : own
      ? `บันทึกราคาส่งของตัวเลือก ${label} แล้ว`
      : `ตัวเลือก ${label} ใช้ราคาส่งของสินค้าแล้ว`;
  return { message, redirect: `/admin/products/${encodeURIComponent(product)}#variants-heading`, data: { changed, tiers: own ?? 'product' } };
});
