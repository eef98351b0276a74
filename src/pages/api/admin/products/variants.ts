import { adminForm } from '../../../../server/admin/forms';
import { saveVariants } from '../../../../server/catalog-admin/variant-admin.service';
import { parseBaht, parseWholeNumber } from '../../../../lib/product-rules';

/** The variants table of a product's page: each variant's code, price, stock, on-sale flag, picture, swatch and barcode, saved together. */
export const POST = adminForm('catalog', () => '/admin/products', async ({ actor, form }) => {
  const all = (name: string) => form.getAll(name).map((value) => (typeof value === 'string' ? value.trim() : ''));
  const product = all('product')[0] ?? '';
  const codes = all('variant');
  const newCodes = all('variant_code');
  const prices = all('variant_price');
  const stocks = all('variant_stock');
  const stocksWere = all('variant_stock_was');
  const active = new Set(all('variant_active'));
  // Picture, swatch and barcode came with the variant editor (issue 30); a form without them leaves them.
  const optional = (name: string) => (form.has(name) ? all(name) : null);
  const images = optional('variant_image');
  const swatches = optional('variant_swatch');
  const barcodes = optional('variant_barcode');
  const given = (list: string[] | null, index: number) => (list ? list[index] || null : undefined);
  const rows = codes.map((code, index) => ({
    code,
    newCode: newCodes[index] ?? code,
    priceSatang: parseBaht(prices[index] ?? ''),
    stock: parseWholeNumber(stocks[index] ?? ''),
    stockWas: stocksWere[index] ? parseWholeNumber(stocksWere[index]) : null,
    active: active.has(code),
    image: given(images, index),
    swatch: given(swatches, index),
    barcode: given(barcodes, index),
  }));
  const { changed } = await saveVariants(actor, product, rows);
  return {
    message: changed > 0 ? `บันทึกตัวเลือกสินค้า ${product} แล้ว ${changed.toLocaleString('th-TH')} รายการ` : `ตัวเลือกสินค้า ${product} ไม่มีการเปลี่ยนแปลง`,
    redirect: `/admin/products/${encodeURIComponent(product)}`,
    data: { changed },
  };
});
