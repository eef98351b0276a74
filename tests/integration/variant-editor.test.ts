/**
 * The back office's variant editor (issue 30, docs/decisions/214): options and their combinations, bulk
 * price and stock, removing variants, through the routes a staff member's forms post to. The product's
 * aggregates (lowest active price, stock sum) are the triggers' (docs/decisions/205): checked after each step.
 */
import { describe, expect, it } from 'vitest';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { APIRoute } from 'astro';
import { formData, staffClient } from '../fixtures/admin';
import type { TestClient } from '../fixtures/api-client';
import { productWithStock, productWithVariants } from '../fixtures/orders';
import { getDb } from '../../src/server/db/client';
import { auditLog, products, productVariants, stockMovements } from '../../src/server/db/schema';
import * as optionsRoute from '../../src/pages/api/admin/products/variant-options';
import * as bulkRoute from '../../src/pages/api/admin/products/variant-bulk';
import * as removeRoute from '../../src/pages/api/admin/products/variant-remove';
import * as variantsRoute from '../../src/pages/api/admin/products/variants';
import { variantEditorOptions } from '../../src/server/catalog-admin/variant-editor.service';

type Route = Partial<Record<'POST', APIRoute>>;
const JSON_ACCEPT = { accept: 'application/json' };



async function post(client: TestClient, route: Route, path: string, values: Record<string, string | string[]>) {
  return client.call(route, 'POST', path, { headers: JSON_ACCEPT, form: formData(values) });
}

async function variantsOf(productId: number) {
  const db = await getDb();
  return db.select().from(productVariants).where(eq(productVariants.productId, productId)).orderBy(asc(productVariants.sortOrder), asc(productVariants.id));
}

async function productRow(productId: number) {
  const [row] = await (await getDb()).select().from(products).where(eq(products.id, productId));
  return row!;
}

/** The product's aggregates are the triggers' figures from its variants. */
async function expectAggregates(productId: number) {
  const variants = await variantsOf(productId);
  const active = variants.filter((variant) => variant.active);
  const product = await productRow(productId);
  expect(product.stock).toBe(active.reduce((sum, variant) => sum + variant.stock, 0));
  expect(product.priceSatang).toBe(Math.min(...active.map((variant) => variant.priceSatang)));
}

describe('the variant editor', () => {
  it("turns a one-variant product into every combination: its variant keeps code, price and stock; adding a value adds only the new ones", async () => {
    const client = await staffClient();
    const base = await productWithStock(7);
    const generated = await post(client, optionsRoute, '/api/admin/products/variant-options', {
      product: base.code,
      option_name_0: 'สี',
      option_values_0: 'แดง #C62828\nดำ',
      option_name_1: 'ขนาด',
      option_values_1: 'S, M',
      option_name_2: '',
      option_values_2: '',
    });
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    let variants = await variantsOf(base.id);
    expect(variants.map((variant) => [variant.code, variant.option1, variant.option2, variant.swatch, variant.priceSatang, variant.stock])).toEqual([
      [base.code, 'แดง', 'S', '#c62828', base.priceSatang, 7],
      [`${base.code}-1`, 'แดง', 'M', '#c62828', base.priceSatang, 0],
      [`${base.code}-2`, 'ดำ', 'S', null, base.priceSatang, 0],
      [`${base.code}-3`, 'ดำ', 'M', null, base.priceSatang, 0],
    ]);
    expect((await productRow(base.id)).optionNames).toEqual(['สี', 'ขนาด']);
    await expectAggregates(base.id);
    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, base.code), eq(auditLog.action, 'product.variants.generate'))).orderBy(desc(auditLog.id));
    expect(audit?.actorRole).toBe('staff');
    expect((audit?.after as { variants: unknown[] }).variants).toHaveLength(4);
    expect((audit?.before as { variants: unknown[] }).variants).toHaveLength(1);

    const ids = new Map(variants.map((variant) => [variant.code, variant.id]));
    const more = await post(client, optionsRoute, '/api/admin/products/variant-options', {
      product: base.code,
      option_name_0: 'สี',
      option_values_0: 'แดง #c62828, ดำ, ชมพู #f4a3c0',
      option_name_1: 'ขนาด',
      option_values_1: 'S\nM',
    });
    expect(more.status).toBe(200);
    expect((more.body.data as { added: string[] }).added).toEqual([`${base.code}-4`, `${base.code}-5`]);
    variants = await variantsOf(base.id);
    expect(variants).toHaveLength(6);
    for (const [code, id] of ids) expect(variants.find((variant) => variant.code === code)?.id).toBe(id);
    expect(variants.slice(4).map((variant) => [variant.option1, variant.option2, variant.swatch, variant.stock])).toEqual([
      ['ชมพู', 'S', '#f4a3c0', 0],
      ['ชมพู', 'M', '#f4a3c0', 0],
    ]);

    // Search finds the product by a new variant's code and by a new value.
    const searchText = (await productRow(base.id)).searchText;
    expect(searchText).toContain(`${base.code}-5`.toLowerCase());
    expect(searchText).toContain('สีชมพู');

    // A value taken out of the list: its variants are listed, not deleted.
    const fewer = await post(client, optionsRoute, '/api/admin/products/variant-options', {
      product: base.code,
      option_name_0: 'สี',
      option_values_0: 'แดง\nชมพู',
      option_name_1: 'ขนาด',
      option_values_1: 'S\nM',
    });
    expect(fewer.status).toBe(200);
    expect((fewer.body.data as { left: { code: string }[] }).left.map((entry) => entry.code)).toEqual([`${base.code}-2`, `${base.code}-3`]);
    expect(await variantsOf(base.id)).toHaveLength(6);
    // The form shown right after offers the lists as typed, not the values of what was left out.
    const shown = await variantEditorOptions(base.id, [`${base.code}-2`, `${base.code}-3`]);
    expect(shown.names).toEqual(['สี', 'ขนาด']);
    expect(shown.values.map((values) => values.map((entry) => entry.value))).toEqual([['แดง', 'ชมพู'], ['S', 'M']]);
    // Typed without their colours this time: the swatches are taken off as typed.
    expect(shown.values[0]?.map((entry) => entry.swatch)).toEqual([null, null]);
    // Reloaded later, the form offers every value the variants still have (the left ones last).
    expect((await variantEditorOptions(base.id)).values[0]?.map((entry) => entry.value)).toEqual(['แดง', 'ชมพู', 'ดำ']);
  });

  it('picks codes no product or variant has, and refuses a code another product holds, in Thai', async () => {
    const client = await staffClient();
    const base = await productWithStock(3);
    const other = await productWithStock(2);
    const db = await getDb();
    // Another product already holds `{code}-1` (its one variant follows the product's code).
    await db.update(products).set({ code: `${base.code}-1` }).where(eq(products.id, other.id));
    const generated = await post(client, optionsRoute, '/api/admin/products/variant-options', { product: base.code, option_name_0: 'กลิ่น', option_values_0: 'ลาเวนเดอร์\nมะลิ\nกุหลาบ' });
    expect(generated.status).toBe(200);
    expect((await variantsOf(base.id)).map((variant) => variant.code)).toEqual([base.code, `${base.code}-2`, `${base.code}-3`]);

    const taken = await post(client, variantsRoute, '/api/admin/products/variants', {
      product: base.code,
      variant: `${base.code}-2`,
      variant_code: `${base.code}-1`,
      variant_price: String(base.priceSatang / 100),
      variant_stock: '0',
      variant_active: `${base.code}-2`,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('product_code_taken');
    expect(taken.body.message).toMatch(/[\u0E00-\u0E7F]/);

    const tooMany = await post(client, optionsRoute, '/api/admin/products/variant-options', {
      product: base.code,
      option_name_0: 'สี',
      option_values_0: Array.from({ length: 15 }, (_, index) => `สี${index}`).join('\n'),
      option_name_1: 'ขนาด',
      option_values_1: Array.from({ length: 15 }, (_, index) => `ไซซ์${index}`).join('\n'),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain('225');
  });

  it('sets one price or one stock on the ticked rows; the product follows with its lowest price and stock sum', async () => {
    const client = await staffClient();
    const { product, variants } = await productWithVariants([4, 0, 2]);
    const [first, second, third] = variants.map((variant) => variant.code) as [string, string, string];
    const priced = await post(client, bulkRoute, '/api/admin/products/variant-bulk', { product: product.code, op: 'price', bulk_price: '55.50', selected: [second, third] });
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    let rows = await variantsOf(product.id);
    expect(rows.map((variant) => variant.priceSatang)).toEqual([product.priceSatang, 5550, 5550]);
    await expectAggregates(product.id);

    const stocked = await post(client, bulkRoute, '/api/admin/products/variant-bulk', { product: product.code, op: 'stock', bulk_stock: '3', selected: [first, second] });
    expect(stocked.status).toBe(200);
    rows = await variantsOf(product.id);
    expect(rows.map((variant) => variant.stock)).toEqual([3, 3, 2]);
    expect((await productRow(product.id)).stock).toBe(8);
    await expectAggregates(product.id);
    const db = await getDb();
    const movements = await db.select().from(stockMovements).where(eq(stockMovements.productId, product.id)).orderBy(asc(stockMovements.id));
    expect(movements.map((movement) => [movement.variantId, movement.delta, movement.stockAfter, movement.kind])).toEqual([
      [variants[0]!.id, -1, 3, 'adjust'],
      [variants[1]!.id, 3, 3, 'adjust'],
    ]);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, product.code), eq(auditLog.action, 'product.variants.bulk'))).orderBy(desc(auditLog.id));
    expect(audit).toBeDefined();

    const nothingTicked = await post(client, bulkRoute, '/api/admin/products/variant-bulk', { product: product.code, op: 'price', bulk_price: '10' });
    expect(nothingTicked.status).toBe(400);
    expect(nothingTicked.body.message).toMatch(/[\u0E00-\u0E7F]/);
    const badPrice = await post(client, bulkRoute, '/api/admin/products/variant-bulk', { product: product.code, op: 'price', bulk_price: 'สิบบาท', selected: [first] });
    expect(badPrice.status).toBe(400);
  });

  it('removes a variant, asking first when it holds stock, and never the last one or the one with the product code', async () => {
    const client = await staffClient();
    const { product, variants } = await productWithVariants([0, 5, 1]);
    const [first, second] = variants.map((variant) => variant.code) as [string, string];
    const db = await getDb();
    await post(client, bulkRoute, '/api/admin/products/variant-bulk', { product: product.code, op: 'stock', bulk_stock: '6', selected: [second] });

    const stocked = await post(client, removeRoute, '/api/admin/products/variant-remove', { product: product.code, remove: second });
    expect(stocked.status).toBe(409);
    expect(stocked.body.code).toBe('variant_has_stock');
    expect(stocked.body.message).toContain('6 ชิ้น');
    expect(await variantsOf(product.id)).toHaveLength(3);

    const confirmed = await post(client, removeRoute, '/api/admin/products/variant-remove', { product: product.code, remove: second, confirm_stock: '1' });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect((await variantsOf(product.id)).map((variant) => variant.code)).toEqual([first, variants[2]!.code]);
    expect((await productRow(product.id)).stock).toBe(1);
    await expectAggregates(product.id);
    // Its stock history stays the product's.
    const kept = await db.select().from(stockMovements).where(eq(stockMovements.productId, product.id));
    expect(kept.map((movement) => [movement.variantId, movement.delta])).toEqual([[null, 1]]);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, product.code), eq(auditLog.action, 'product.variants.remove'))).orderBy(desc(auditLog.id));
    expect((audit?.after as { variants: unknown[] }).variants).toHaveLength(2);

    const both = await post(client, removeRoute, '/api/admin/products/variant-remove', { product: product.code, remove: [first, variants[2]!.code] });
    expect(both.status).toBe(409);
    expect(both.body.code).toBe('last_variant');
    expect(both.body.message).toContain('อย่างน้อยหนึ่ง');

    const single = await productWithStock(0);
    const last = await post(client, removeRoute, '/api/admin/products/variant-remove', { product: single.code, remove: single.code });
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('last_variant');

    // A demo product in shades keeps its own code's variant: the listing's add-to-cart names it.
    await post(client, optionsRoute, '/api/admin/products/variant-options', { product: single.code, option_name_0: 'สี', option_values_0: 'แดง\nดำ' });
    const own = await post(client, removeRoute, '/api/admin/products/variant-remove', { product: single.code, remove: single.code });
    expect(own.status).toBe(409);
    expect(own.body.code).toBe('variant_is_product');
  });

  it("saves each row's picture, swatch and barcode with the table, refusing a picture not the product's", async () => {
    const client = await staffClient();
    const { product, variants } = await productWithVariants([1, 1]);
    const picture = (await productRow(product.id)).image ?? '';
    const rows = (image: string) => ({
      product: product.code,
      variant: variants.map((variant) => variant.code),
      variant_code: variants.map((variant) => variant.code),
      variant_price: variants.map((variant) => String(variant.priceSatang / 100)),
      variant_stock: ['1', '1'],
      variant_stock_was: ['1', '1'],
      variant_active: variants.map((variant) => variant.code),
      variant_image: [image, ''],
      variant_swatch: ['#A2412F', ''],
      variant_barcode: ['8850000000011', ''],
    });
    const saved = await post(client, variantsRoute, '/api/admin/products/variants', rows(picture));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const [first, second] = await variantsOf(product.id);
    expect([first?.image, first?.swatch, first?.barcode]).toEqual([picture || null, '#a2412f', '8850000000011']);
    expect([second?.image, second?.swatch, second?.barcode]).toEqual([null, null, null]);
    const strange = await post(client, variantsRoute, '/api/admin/products/variants', rows('https://example.com/elsewhere.jpg'));
    expect(strange.status).toBe(400);
    expect(strange.body.message).toMatch(/[\u0E00-\u0E7F]/);
  });
});
