/**
 * Variants through the shop (issue 30, docs/decisions/205): the product API's answers, a cart priced by a
 * variant's code, an order of two shades and the documents that name them. The migration and the stock
 * under concurrent checkouts are in variants-migration.test.ts and orders-concurrency.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { getDb } from '../../src/server/db/client';
import { auditLog, productPriceTiers, products, productVariants } from '../../src/server/db/schema';
import { callGet, enc } from '../fixtures/api-context';
import * as productOne from '../../src/pages/api/product/[code]';
import * as productList from '../../src/pages/api/product';
import { quoteCart } from '../../src/server/cart/cart.service';
import { changeOrderStatus } from '../../src/server/orders/order.service';
import { createMember, placeTestOrder, productWithStock, productWithVariants, stockOf, variantStockOf } from '../fixtures/orders';
import { pdfPages } from '../fixtures/pdf-text';

type Variant = { variant_code: string; options: { name: string; value: string }[]; price: number; stock: number; in_stock: boolean; image: string | null; active: boolean; price_tiers: { min_quantity: number; unit_price: number }[] };
type Detail = { product_code: string; product_name: string; product_price: number; stock: number; option_names: string[]; variants: Variant[]; variant_code: string | null };

describe('variants', () => {
  it('answers a one-variant product as before, with its one variant', async () => {
    const product = await productWithStock(7);
    const { status, body } = await callGet<{ data: Detail }>(productOne, `/api/product/${enc(product.code)}`, { code: product.code });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ product_code: product.code, stock: 7, option_names: [], variant_code: null });
    expect(body.data.variants).toEqual([
      expect.objectContaining({ variant_code: product.code, options: [], price: product.priceSatang / 100, stock: 7, in_stock: true, active: true }),
    ]);
  });

  it("answers a product's variants, and a variant's code with its product and that variant named", async () => {
    const { product, variants } = await productWithVariants([5, 0, 2]);
    const db = await getDb();
    // The second shade has tiers of its own.
    await db.insert(productPriceTiers).values({ productId: product.id, variantId: variants[1]!.id, minQuantity: 6, priceSatang: 5000 });
    const byProduct = await callGet<{ data: Detail }>(productOne, `/api/product/${enc(product.code)}`, { code: product.code });
    expect(byProduct.status).toBe(200);
    const detail = byProduct.body.data;
    expect(detail.option_names).toEqual(['สี']);
    expect(detail.product_price).toBe(product.priceSatang / 100);
    expect(detail.stock).toBe(7);
    expect(detail.variant_code).toBeNull();
    expect(detail.variants.map((variant) => [variant.variant_code, variant.options, variant.stock, variant.in_stock])).toEqual([
      [`${product.code}-1`, [{ name: 'สี', value: 'เฉดที่1' }], 5, true],
      [`${product.code}-2`, [{ name: 'สี', value: 'เฉดที่2' }], 0, false],
      [`${product.code}-3`, [{ name: 'สี', value: 'เฉดที่3' }], 2, true],
    ]);
    expect(detail.variants[1]!.price_tiers).toEqual([{ min_quantity: 6, unit_price: 50 }]);
    const byVariant = await callGet<{ data: Detail }>(productOne, `/api/product/${enc(`${product.code}-3`)}`, { code: `${product.code}-3` });
    expect(byVariant.status).toBe(200);
    expect(byVariant.body.data).toMatchObject({ product_code: product.code, variant_code: `${product.code}-3` });
    const unknown = await callGet(productOne, '/api/product/NOPE-404', { code: 'NOPE-404' });
    expect(unknown.status).toBe(404);
    // The listing keeps its fields and shows the product once, with its aggregates.
    const listed = await callGet<{ data: { product_code: string; stock: number }[] }>(productList, `/api/product?q=${enc(product.code)}`, {});
    expect(listed.status).toBe(200);
    expect(listed.body.data.filter((row) => row.product_code.startsWith(product.code))).toEqual([expect.objectContaining({ product_code: product.code, stock: 7 })]);
  });

  it('prices a cart line by its variant, and orders two shades as two lines named by their shade', async () => {
    const { product, variants } = await productWithVariants([4, 3]);
    const [one, two] = variants as [(typeof variants)[number], (typeof variants)[number]];
    const quote = await quoteCart({ items: [{ product_code: one.code, amount: 1 }, { product_code: two.code, amount: 2 }] });
    expect(quote.lines.map((line) => [line.product_code, line.product_name, line.unit_price_satang, line.stock])).toEqual([
      [one.code, `${product.name} — สีเฉดที่1`, one.priceSatang, 4],
      [two.code, `${product.name} — สีเฉดที่2`, two.priceSatang, 3],
    ]);
    // A cart saved before variants names the product's code: a one-variant product's variant has it.
    const single = await productWithStock(3);
    const old = await quoteCart({ items: [{ product_code: single.code, amount: 1 }] });
    expect(old.lines[0]).toMatchObject({ product_code: single.code, product_name: single.name, unavailable: false });

    const member = await createMember();
    const staff = await createMember({ scopes: ['admin'] });
    const { order } = await placeTestOrder(member, [
      { product_code: one.code, amount: 1 },
      { product_code: two.code, amount: 2 },
    ]);
    expect(order.lines.map((line) => [line.productCode, line.productName, line.amount])).toEqual([
      [one.code, `${product.name} — สีเฉดที่1`, 1],
      [two.code, `${product.name} — สีเฉดที่2`, 2],
    ]);
    expect(await variantStockOf(one.code)).toBe(3);
    expect(await variantStockOf(two.code)).toBe(1);
    expect(await stockOf(product.code)).toBe(4);

    // Cancelled, each shade gets its own stock back.
    await changeOrderStatus({ type: 'staff', id: staff.id }, order.orderNo, { action: 'cancel', note: 'ทดสอบ' });
    expect(await variantStockOf(one.code)).toBe(4);
    expect(await variantStockOf(two.code)).toBe(3);
    expect(await stockOf(product.code)).toBe(7);

    // Paid, the receipt and the packing slip name each shade.
    const again = await placeTestOrder(member, [
      { product_code: one.code, amount: 1 },
      { product_code: two.code, amount: 1 },
    ]);
    await changeOrderStatus({ type: 'staff', id: staff.id }, again.order.orderNo, { action: 'confirm_payment' });
    const { orderDocumentPdf } = await import('../../src/server/documents/receipt.service');
    const { packingSlipsPdf } = await import('../../src/server/documents/packing-documents');
    const { ordersForDocuments } = await import('../../src/server/orders/admin-orders.service');
    const { getCompany } = await import('../../src/server/company/company.service');
    const squash = (text: string) => text.replace(/\s+/g, '');
    const receipt = squash((await pdfPages(new Uint8Array((await orderDocumentPdf(null, again.order.orderNo, 'receipt')).bytes))).join('\n'));
    expect(receipt).toContain(squash(`${product.name} — สีเฉดที่1`));
    expect(receipt).toContain(squash(`${product.name} — สีเฉดที่2`));
    const slips = squash((await pdfPages(await packingSlipsPdf(await ordersForDocuments([again.order.orderNo]), await getCompany()))).join('\n'));
    expect(slips).toContain(one.code);
    expect(slips).toContain(squash(`${product.name} — สีเฉดที่2`));
    const db = await getDb();
    const [row] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, product.id));
    const sum = (await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.productId, product.id))).reduce((total, variant) => total + variant.stock, 0);
    expect(row?.stock).toBe(sum);
  });

  it("adjusts one variant's stock, and refuses a whole-product price or stock change of a product with variants, in Thai", async () => {
    const { adjustStock, productStockHistory } = await import('../../src/server/catalog-admin/stock.service');
    const { quickEditProduct } = await import('../../src/server/catalog-admin/product-admin.service');
    const actor = { id: null, email: 'variants@example.test', role: 'staff' as const, via: 'web' as const };
    const { product, variants } = await productWithVariants([5, 2]);
    const second = variants[1]!;
    expect(await adjustStock(actor, product.code, 10, 'รับของเข้า', second.code)).toEqual({ stock: 17 });
    expect(await variantStockOf(second.code)).toBe(12);
    await expect(adjustStock(actor, product.code, -13, 'ของชำรุด', second.code)).rejects.toThrow(/ปรับลดได้ไม่เกิน/);
    await expect(adjustStock(actor, product.code, 1, 'ตรวจนับ', 'NOPE-1')).rejects.toMatchObject({ status: 404 });
    await expect(adjustStock(actor, product.code, 1, 'ตรวจนับ')).rejects.toMatchObject({ status: 409, code: 'product_has_variants' });
    await expect(quickEditProduct(actor, product.code, { priceSatang: 12_300, stock: null, stockWas: null })).rejects.toMatchObject({ status: 409 });
    const [moved] = await productStockHistory(product.id, 1);
    expect(moved).toMatchObject({ delta: 10, stockAfter: 12, variantCode: second.code });
    // The trail names the product (its link opens the product's stock page) and the variant in the note.
    const [audited] = await (await getDb()).select().from(auditLog).where(and(eq(auditLog.action, 'product.stock_adjust'), eq(auditLog.entityId, product.code))).orderBy(desc(auditLog.id)).limit(1);
    expect(audited?.note).toBe(`รับของเข้า (${second.code})`);
    // A one-variant product's quick edit is written on its variant.
    const single = await productWithStock(4);
    await quickEditProduct(actor, single.code, { priceSatang: 12_300, stock: 9, stockWas: 4 });
    expect(await variantStockOf(single.code)).toBe(9);
    const db = await getDb();
    const [variant] = await db.select({ price: productVariants.priceSatang }).from(productVariants).where(eq(productVariants.code, single.code));
    expect(variant?.price).toBe(12_300);
  });

  it("saves a product's variants table: codes, prices, stock as a difference and on sale; refuses a taken code in Thai", async () => {
    const { saveVariants } = await import('../../src/server/catalog-admin/variant-admin.service');
    const actor = { id: null, email: 'variants@example.test', role: 'staff' as const, via: 'web' as const };
    const { product, variants } = await productWithVariants([5, 2]);
    const [one, two] = variants as [(typeof variants)[number], (typeof variants)[number]];
    const rows = [
      { code: one.code, newCode: one.code, priceSatang: 9_900, stock: 8, stockWas: 5, active: true },
      { code: two.code, newCode: `${product.code}-PK`, priceSatang: 12_900, stock: 2, stockWas: 2, active: false },
    ];
    expect(await saveVariants(actor, product.code, rows)).toEqual({ changed: 2 });
    expect(await variantStockOf(one.code)).toBe(8);
    expect(await variantStockOf(`${product.code}-PK`)).toBe(2);
    const db = await getDb();
    const [aggregate] = await db.select({ price: products.priceSatang, stock: products.stock }).from(products).where(eq(products.id, product.id));
    // The inactive shade counts neither in the price nor in the stock.
    expect(aggregate).toEqual({ price: 9_900, stock: 8 });
    const other = await productWithStock(3);
    await expect(saveVariants(actor, product.code, [{ ...rows[0]!, stockWas: 8, newCode: other.code }])).rejects.toMatchObject({ status: 409, code: 'product_code_taken' });
    await expect(saveVariants(actor, product.code, [{ ...rows[0]!, stockWas: 8, priceSatang: null }])).rejects.toMatchObject({ status: 400 });
  });
});
