import { beforeAll, describe, expect, it } from 'vitest';
import { and, count, desc, eq, inArray, like } from 'drizzle-orm';
import sharp from 'sharp';
import type { APIRoute } from 'astro';
import { formData } from '../fixtures/admin';
import { TestClient } from '../fixtures/api-client';
import { createMember, newKey, placeTestOrder, productWithVariants, variantStockOf } from '../fixtures/orders';
import { getDb } from '../../src/server/db/client';
import { auditLog, categories, productImages, productPriceTiers, products, productVariants, stockMovements } from '../../src/server/db/schema';
import { findProductByCode } from '../../src/server/catalog/catalog.service';
import { changeOrderStatus } from '../../src/server/orders/order.service';
import { adjustStock } from '../../src/server/catalog-admin/stock.service';
import { adminProductQuery, listProductsForAdmin } from '../../src/server/catalog-admin/product-admin.service';
import { listBrands, listCategories } from '../../src/server/catalog-admin/taxonomy.service';
import type { AuditActor } from '../../src/server/audit/audit.service';
import * as save from '../../src/pages/api/admin/products/save';
import * as quick from '../../src/pages/api/admin/products/quick';
import * as bulk from '../../src/pages/api/admin/products/bulk';
import * as checkCode from '../../src/pages/api/admin/products/check-code';
import * as pictures from '../../src/pages/api/admin/products/pictures';
import * as stock from '../../src/pages/api/admin/products/stock';
import * as variantsRoute from '../../src/pages/api/admin/products/variants';
import * as variantOptionsRoute from '../../src/pages/api/admin/products/variant-options';
import * as variantBulkRoute from '../../src/pages/api/admin/products/variant-bulk';
import * as variantRemoveRoute from '../../src/pages/api/admin/products/variant-remove';
import * as variantTiersRoute from '../../src/pages/api/admin/products/variant-tiers';
import * as categoriesRoute from '../../src/pages/api/admin/categories';
import * as brandsRoute from '../../src/pages/api/admin/brands';
import * as importCheck from '../../src/pages/api/admin/import/check';
import * as importApply from '../../src/pages/api/admin/import/apply';
import * as template from '../../src/pages/api/admin/import/template.csv';
import * as exportCsv from '../../src/pages/api/admin/export.csv';

type Route = Partial<Record<'GET' | 'POST', APIRoute>>;
const JSON_ACCEPT = { accept: 'application/json' };

async function clientFor(role: 'anonymous' | 'member' | 'editor' | 'staff' | 'owner'): Promise<TestClient> {
  const client = new TestClient();
  if (role === 'anonymous') return client;
  const member = await createMember({ scopes: role === 'member' ? [] : [role] });
  client.bearer = member.token;
  return client;
}

async function png(width: number, height: number, colour = '#39b54a'): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer());
}

/** The price of the demo lipstick's own shade (P00354), as its variants table shows it. */
async function lipstickPrice(): Promise<number> {
  const [row] = await (await getDb()).select({ price: productVariants.priceSatang }).from(productVariants).where(eq(productVariants.code, 'P00354'));
  return row!.price;
}


let gifts: number;
beforeAll(async () => {
  const db = await getDb();
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.code, 'gifts'));
  gifts = row!.id;
});

describe('every catalog admin route, for every role', () => {
  // One harmless, valid request per route; what differs is only who sends it.
  const routes: { name: string; route: Route; method: 'GET' | 'POST'; path: string; body?: () => Promise<FormData> }[] = [
    { name: 'save', route: save, method: 'POST', path: '/api/admin/products/save', body: async () => formData({ code: `ROLE-${newKey().slice(0, 8)}`, name: 'สินค้าทดสอบสิทธิ์', category_id: String(gifts), price: '10', stock: '1' }) },
    { name: 'quick', route: quick, method: 'POST', path: '/api/admin/products/quick', body: async () => formData({ code: 'P00003', stock: '' }) },
    { name: 'bulk', route: bulk, method: 'POST', path: '/api/admin/products/bulk', body: async () => formData({ codes: ['P00004'], action: 'show' }) },
    { name: 'check-code', route: checkCode, method: 'GET', path: '/api/admin/products/check-code?code=NEW-1' },
    { name: 'pictures', route: pictures, method: 'POST', path: '/api/admin/products/pictures', body: async () => formData({ files: new File([(await png(40, 40)).slice()], 'a.png', { type: 'image/png' }) }) },
    { name: 'stock', route: stock, method: 'POST', path: '/api/admin/products/stock', body: async () => formData({ code: 'P00005', amount: '1', direction: 'add', reason: 'ตรวจนับ' }) },
    // The demo's matte lipstick in shades (docs/decisions/205); nothing changed, the save still answers.
    { name: 'variants', route: variantsRoute, method: 'POST', path: '/api/admin/products/variants', body: async () => formData({ product: 'P00354', variant: 'P00354', variant_code: 'P00354', variant_price: String((await lipstickPrice()) / 100), variant_stock: String(await variantStockOf('P00354')), variant_active: 'P00354' }) },
    // The variant editor (docs/decisions/214), each on a fresh product in two shades: the options as they
    // are (nothing changes), the first shade's stock set to what it is, and the second shade removed.
    { name: 'variant options', route: variantOptionsRoute, method: 'POST', path: '/api/admin/products/variant-options', body: async () => formData({ product: (await productWithVariants([0, 0])).product.code, option_name_0: 'สี', option_values_0: 'เฉดที่1\nเฉดที่2' }) },
    { name: 'variant bulk', route: variantBulkRoute, method: 'POST', path: '/api/admin/products/variant-bulk', body: async () => { const { product } = await productWithVariants([1, 0]); return formData({ product: product.code, op: 'stock', bulk_stock: '1', selected: `${product.code}-1` }); } },
    { name: 'variant tiers', route: variantTiersRoute, method: 'POST', path: '/api/admin/products/variant-tiers', body: async () => { const { product } = await productWithVariants([0, 0]); return formData({ product: product.code, variant: `${product.code}-2`, tiers: 'own', tier_min: '2', tier_price: '1' }); } },
    { name: 'variant remove', route: variantRemoveRoute, method: 'POST', path: '/api/admin/products/variant-remove', body: async () => { const { product } = await productWithVariants([0, 0]); return formData({ product: product.code, remove: `${product.code}-2` }); } },
    { name: 'categories', route: categoriesRoute, method: 'POST', path: '/api/admin/categories', body: async () => formData({ op: 'down', id: String(gifts) }) },
    { name: 'brands', route: brandsRoute, method: 'POST', path: '/api/admin/brands', body: async () => formData({ op: 'save', code: `b-${newKey().slice(0, 6).toLowerCase()}`, name: 'แบรนด์ทดสอบ', active: '1' }) },
    { name: 'import check', route: importCheck, method: 'POST', path: '/api/admin/import/check', body: async () => formData({ file: new File(['code,price\nP00006,\n'], 'a.csv', { type: 'text/csv' }) }) },
    { name: 'import apply', route: importApply, method: 'POST', path: '/api/admin/import/apply', body: async () => formData({ file: '0'.repeat(32) }) },
    { name: 'template', route: template, method: 'GET', path: '/api/admin/import/template.csv' },
    { name: 'export', route: exportCsv, method: 'GET', path: '/api/admin/export.csv' },
  ];

  for (const role of ['anonymous', 'member'] as const) {
    it(`${role}: every route answers 404, as if the back office did not exist`, async () => {
      const client = await clientFor(role);
      for (const entry of routes) {
        const result = await client.call(entry.route, entry.method, entry.path, { headers: JSON_ACCEPT, ...(entry.body ? { form: await entry.body() } : {}) });
        expect(result.status, entry.name).toBe(404);
      }
    });
  }

  it('editor: every route answers 403 (content, not catalog)', async () => {
    const client = await clientFor('editor');
    for (const entry of routes) {
      const result = await client.call(entry.route, entry.method, entry.path, { headers: JSON_ACCEPT, ...(entry.body ? { form: await entry.body() } : {}) });
      expect(result.status, entry.name).toBe(403);
      expect(result.body.message).toMatch(/[\u0E00-\u0E7F]/);
    }
  });

  for (const role of ['staff', 'owner'] as const) {
    it(`${role}: every route does its job`, async () => {
      const client = await clientFor(role);
      for (const entry of routes) {
        const result = await client.call(entry.route, entry.method, entry.path, { headers: JSON_ACCEPT, ...(entry.body ? { form: await entry.body() } : {}) });
        // The apply of an unknown file is the one expected refusal: a Thai 404, not a 403.
        if (entry.name === 'import apply') {
          expect(result.status).toBe(404);
          expect(result.body.code).toBe('import_file_missing');
        } else expect(result.status, `${entry.name}: ${JSON.stringify(result.body).slice(0, 200)}`).toBe(200);
      }
    });
  }
});

describe('the product form', () => {
  it('creates a product with tiers and pictures, audited in the same transaction, and shows it in the shop at once', async () => {
    const client = await clientFor('staff');
    const [first, second] = await Promise.all([png(900, 600, '#ffd000'), png(500, 500, '#408de5')]);
    const uploaded = await client.call(pictures, 'POST', '/api/admin/products/pictures', {
      headers: JSON_ACCEPT,
      form: formData({ files: new File([first.slice()], 'a.png', { type: 'image/png' }) }),
    });
    expect(uploaded.status).toBe(200);
    const stored = (uploaded.body.data as { url: string; width: number; height: number }[])[0]!;
    expect(stored).toMatchObject({ width: 900, height: 600 });
    const code = `NEW-${newKey().slice(0, 6)}`;
    const result = await client.call(save, 'POST', '/api/admin/products/save', {
      headers: JSON_ACCEPT,
      form: formData({
        code,
        name: 'แก้วมัคเซรามิกลายช้างไทย',
        category_id: String(gifts),
        price: '250',
        stock: '30',
        description: 'แก้วมัคสกรีนลายช้าง',
        active: '1',
        tier_min: ['10', '50', '100'],
        tier_price: ['230', '210', '190'],
        picture_url: [stored.url],
        picture_alt: ['แก้วมัคด้านหน้า'],
        picture_width: [String(stored.width)],
        picture_height: [String(stored.height)],
        // The second picture comes with the form itself, as it does without JavaScript.
        files: new File([second.slice()], 'b.png', { type: 'image/png' }),
      }),
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const detail = await findProductByCode(code);
    expect(detail?.priceSatang).toBe(25000);
    expect(detail?.tiers).toEqual([
      { minQuantity: 10, priceSatang: 23000 },
      { minQuantity: 50, priceSatang: 21000 },
      { minQuantity: 100, priceSatang: 19000 },
    ]);
    expect(detail?.images.map((image) => image.url)).toHaveLength(2);
    expect(detail?.images[0]).toMatchObject({ url: stored.url, alt: 'แก้วมัคด้านหน้า', width: 900, height: 600 });
    expect(detail?.images[1]?.url).toMatch(/^\/media\/products\/[a-f0-9]{24}-500\.webp$/);
    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityType, 'product'), eq(auditLog.entityId, code)));
    // Asked for JSON, so recorded as `api`, as every back-office form does (docs/decisions/169-one-back-office-form-wrapper.md).
    expect(audit).toMatchObject({ action: 'product.create', via: 'api', actorRole: 'staff' });
    const [created] = await db.select().from(stockMovements).innerJoin(products, eq(products.id, stockMovements.productId)).where(eq(products.code, code));
    expect(created?.stock_movements).toMatchObject({ kind: 'create', delta: 30, stockAfter: 30 });

    // A price change is on the product page on the next load.
    const edit = await client.call(save, 'POST', '/api/admin/products/save', {
      headers: JSON_ACCEPT,
      form: formData({ original_code: code, code, name: 'แก้วมัคเซรามิกลายช้างไทย', category_id: String(gifts), price: '260', stock: '30', stock_was: '30', active: '1', tier_min: ['10'], tier_price: ['230'], picture_url: [stored.url], picture_alt: [''] }),
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await findProductByCode(code))?.priceSatang).toBe(26000);
    const [update] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, code), eq(auditLog.action, 'product.update')));
    expect(update?.before).toMatchObject({ priceSatang: 25000 });
    expect(update?.after).toMatchObject({ priceSatang: 26000 });

    // Hidden: the shop no longer finds it.
    const hide = await client.call(bulk, 'POST', '/api/admin/products/bulk', { headers: JSON_ACCEPT, form: formData({ codes: [code], action: 'hide' }) });
    expect(hide.status).toBe(200);
    expect(await findProductByCode(code)).toBeNull();
  });

  it('refuses bad input field by field in Thai and changes nothing', async () => {
    const client = await clientFor('owner');
    const taken = await client.call(save, 'POST', '/api/admin/products/save', {
      headers: JSON_ACCEPT,
      form: formData({ code: 'P00001', name: 'ซ้ำ', category_id: String(gifts), price: '10', stock: '1' }),
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('รหัสสินค้านี้มีอยู่แล้ว');
    const bad = await client.call(save, 'POST', '/api/admin/products/save', {
      headers: JSON_ACCEPT,
      form: formData({ code: 'ok-code', name: '', category_id: String(gifts), price: 'สิบ', stock: '-1', tier_min: ['10', '5'], tier_price: ['9', '8'] }),
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields ?? {})).toEqual(expect.arrayContaining(['name', 'price', 'stock']));
    const tiers = await client.call(save, 'POST', '/api/admin/products/save', {
      headers: JSON_ACCEPT,
      form: formData({ code: 'tier-check', name: 'ก', category_id: String(gifts), price: '100', stock: '1', tier_min: ['10', '5'], tier_price: ['90', '80'] }),
    });
    expect(tiers.body.fields?.tiers).toBe('ราคาส่งแถวที่ 2: จำนวนต้องมากกว่าแถวก่อนหน้า');
    const outside = await client.call(save, 'POST', '/api/admin/products/save', {
      headers: JSON_ACCEPT,
      form: formData({ code: 'outside-pic', name: 'ก', category_id: String(gifts), price: '100', stock: '1', picture_url: ['https://evil.example/x.png'] }),
    });
    expect(outside.status).toBe(400);
    const db = await getDb();
    expect(await db.select().from(products).where(eq(products.code, 'outside-pic'))).toEqual([]);
  });

  it('a form post without JavaScript gets a 303 back with a Thai flash', async () => {
    const client = await clientFor('staff');
    const result = await client.call(quick, 'POST', '/api/admin/products/quick?back=%2Fadmin%2Fproducts%3Fpage%3D2', { form: formData({ code: 'P00007', price: 'abc' }) });
    expect(result.status).toBe(303);
    expect(result.headers.get('location')).toBe('/admin/products?page=2');
    expect(Buffer.from(result.cookies.get('admin_flash')?.value ?? '', 'base64url').toString('utf8')).toContain('กรุณากรอกราคา');
    const offsite = await client.call(quick, 'POST', '/api/admin/products/quick?back=https%3A%2F%2Fevil.example', { form: formData({ code: 'P00007', price: '99' }) });
    expect(offsite.headers.get('location')).toBe('/admin/products');
  });
});

describe('stock', () => {
  const actor: AuditActor = { id: null, email: 'stock@example.test', role: 'staff', via: 'web' };

  it('adjustments racing orders never lose a unit, and every movement explains the figure', async () => {
    const db = await getDb();
    const [product] = await db.select().from(products).where(eq(products.code, 'P00011'));
    await db.update(products).set({ stock: 100 }).where(eq(products.id, product!.id));
    await db.delete(productPriceTiers).where(eq(productPriceTiers.productId, product!.id));
    const member = await createMember();
    const placeOne = () =>
      placeTestOrder(member, [{ product_code: 'P00011', amount: 3 }]);
    const results = await Promise.all([
      placeOne(),
      adjustStock(actor, 'P00011', 10, 'รับของเข้า'),
      placeOne(),
      adjustStock(actor, 'P00011', -5, 'ของชำรุด'),
      placeOne(),
      adjustStock(actor, 'P00011', 7, 'ตรวจนับ'),
    ]);
    const placed = results.filter((result) => 'order' in result && result.created);
    expect(placed).toHaveLength(3);
    const [after] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, product!.id));
    expect(after?.stock).toBe(100 + 10 - 5 + 7 - 9);
    const moves = await db.select().from(stockMovements).where(eq(stockMovements.productId, product!.id)).orderBy(stockMovements.id);
    expect(moves.reduce((sum, move) => sum + move.delta, 100)).toBe(after?.stock);
    // Each row's stock_after is the figure right after it, in order.
    let running = 100;
    for (const move of moves) {
      running += move.delta;
      expect(move.stockAfter).toBe(running);
    }
    expect(moves.filter((move) => move.kind === 'order')).toHaveLength(3);

    // A cancel gives the units back, with its own history row.
    const orderNo = moves.find((move) => move.kind === 'order')!.orderNo!;
    await changeOrderStatus({ type: 'member', id: member.id }, orderNo, { action: 'cancel', note: 'เปลี่ยนใจ' });
    const [cancelMove] = await db.select().from(stockMovements).where(eq(stockMovements.productId, product!.id)).orderBy(desc(stockMovements.id)).limit(1);
    expect(cancelMove).toMatchObject({ kind: 'cancel', delta: 3, orderNo });

    // So does an unpaid order that runs out of time.
    const late = await placeOne();
    await changeOrderStatus({ type: 'system', id: null }, late.order.orderNo, { action: 'expire', note: 'หมดเวลาชำระเงิน' });
    const [expireMove] = await db.select().from(stockMovements).where(eq(stockMovements.productId, product!.id)).orderBy(desc(stockMovements.id)).limit(1);
    expect(expireMove).toMatchObject({ kind: 'expire', delta: 3, orderNo: late.order.orderNo });
  });

  it('refuses to take more than is left, in Thai', async () => {
    await expect(adjustStock(actor, 'P00012', -1_000_000, 'ลองลบ')).rejects.toThrow(/ปรับลดได้ไม่เกิน/);
    await expect(adjustStock(actor, 'P00012', 1, '   ')).rejects.toThrow(/เหตุผล/);
  });
});

describe('the product list', () => {
  it('filters by Thai keyword, stock state and visibility, sorts, and pages on the server', async () => {
    const db = await getDb();
    await db.update(products).set({ stock: 0 }).where(eq(products.code, 'P00031'));
    await db.update(products).set({ stock: 4, active: false }).where(eq(products.code, 'P00032'));
    const base = adminProductQuery(new URL('http://shop.test/admin/products'));
    expect(base).toMatchObject({ q: '', stock: null, active: null, sort: 'updated', page: 1, pageSize: 50 });
    const all = await listProductsForAdmin(base);
    expect(all.items).toHaveLength(50);

    const out = await listProductsForAdmin(adminProductQuery(new URL('http://shop.test/admin/products?stock=out&sort=code')));
    expect(out.items.map((item) => item.code)).toContain('P00031');
    expect(out.items.every((item) => item.stock === 0)).toBe(true);
    const low = await listProductsForAdmin(adminProductQuery(new URL('http://shop.test/admin/products?stock=low&active=0')));
    expect(low.items.map((item) => item.code)).toContain('P00032');
    expect(low.items.every((item) => item.stock > 0 && item.stock <= 10 && !item.active)).toBe(true);

    const keyword = await listProductsForAdmin(adminProductQuery(new URL(`http://shop.test/admin/products?q=${encodeURIComponent('ลิปสติก')}&sort=price_asc`)));
    expect(keyword.total).toBeGreaterThan(0);
    const texts = await db.select({ searchText: products.searchText }).from(products).where(inArray(products.code, keyword.items.map((item) => item.code)));
    expect(texts.every((row) => row.searchText.includes('ลิปสติก'))).toBe(true);
    const [everywhere] = await db.select({ n: count() }).from(products).where(like(products.searchText, '%ลิปสติก%'));
    expect(keyword.total).toBe(everywhere?.n);
    const prices = keyword.items.map((item) => item.priceSatang);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    // Nonsense in the URL falls back to defaults instead of failing.
    expect(adminProductQuery(new URL('http://shop.test/admin/products?page=-3&sort=drop&stock=x&category=abc'))).toMatchObject({ page: 1, sort: 'updated', stock: null, categoryId: null });
  });
});

describe('bulk actions', () => {
  it('move several products to a category (search finds them by the new category) and audits each', async () => {
    const client = await clientFor('staff');
    const db = await getDb();
    const [perfume] = await db.select().from(categories).where(eq(categories.code, 'perfume'));
    const codes = ['P00021', 'P00022'];
    const result = await client.call(bulk, 'POST', '/api/admin/products/bulk', { headers: JSON_ACCEPT, form: formData({ codes, action: 'move', category_id: String(perfume!.id) }) });
    expect(result.status).toBe(200);
    for (const code of codes) {
      const [row] = await db.select().from(products).where(eq(products.code, code));
      expect(row?.categoryId).toBe(perfume!.id);
      expect(row?.searchText).toContain('น้ำหอม');
      const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.action, 'product.move'), eq(auditLog.entityId, code)));
      expect(audit?.after).toEqual({ categoryId: perfume!.id });
    }
  });
});

describe('categories', () => {
  it('lists every category and brand with how many products each holds', async () => {
    const db = await getDb();
    const [categoryList, brandList] = await Promise.all([listCategories(), listBrands()]);
    const counted = await db.select({ categoryId: products.categoryId, n: count() }).from(products).groupBy(products.categoryId);
    for (const category of categoryList) expect(category.products, category.code).toBe(counted.find((row) => row.categoryId === category.id)?.n ?? 0);
    const byBrand = await db.select({ brandId: products.brandId, n: count() }).from(products).groupBy(products.brandId);
    for (const brand of brandList) expect(brand.products, brand.code).toBe(byBrand.find((row) => row.brandId === brand.id)?.n ?? 0);
    expect(categoryList.reduce((sum, category) => sum + category.products, 0)).toBeGreaterThan(300);
  });

  it('a category with products cannot be deleted until they move; renaming updates what search finds', async () => {
    const client = await clientFor('staff');
    const db = await getDb();
    const [stationery] = await db.select().from(categories).where(eq(categories.code, 'stationery'));
    const refused = await client.call(categoriesRoute, 'POST', '/api/admin/categories', { headers: JSON_ACCEPT, form: formData({ op: 'delete', id: String(stationery!.id) }) });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('กรุณาเลือกหมวดหมู่ที่จะย้ายสินค้าไปก่อนลบ');

    const renamed = await client.call(categoriesRoute, 'POST', '/api/admin/categories', {
      headers: JSON_ACCEPT,
      form: formData({ op: 'save', id: String(stationery!.id), code: 'stationery', name: 'อุปกรณ์เครื่องเขียนน่ารัก', name_en: 'Stationery', active: '1' }),
    });
    expect(renamed.status).toBe(200);
    const [one] = await db.select({ searchText: products.searchText }).from(products).where(eq(products.categoryId, stationery!.id)).limit(1);
    expect(one?.searchText).toContain('อุปกรณ์เครื่องเขียนน่ารัก');

    const [target] = await db.select().from(categories).where(eq(categories.code, 'gifts'));
    const moved = await client.call(categoriesRoute, 'POST', '/api/admin/categories', {
      headers: JSON_ACCEPT,
      form: formData({ op: 'delete', id: String(stationery!.id), move_to: String(target!.id) }),
    });
    expect(moved.status).toBe(200);
    expect(await db.select().from(products).where(eq(products.categoryId, stationery!.id))).toEqual([]);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'category.delete'));
    expect(audit?.entityId).toBe('stationery');
    expect(await db.select().from(productImages).limit(1)).toHaveLength(1);
  });
});
