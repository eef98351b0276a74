/**
 * A variant's own wholesale tiers from the back office's variants table (issue 30): saved through the
 * form a staff member posts, refused in Thai when they do not read as a price list below the variant's
 * price, sent back to the product's tiers, audited, and used by the product page and the order pricing
 * (a variant with its own tiers sells at those; its sibling at the product's).
 */
import { describe, expect, it } from 'vitest';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { APIRoute } from 'astro';
import { formData, staffClient } from '../fixtures/admin';
import type { TestClient } from '../fixtures/api-client';
import { callGet, enc } from '../fixtures/api-context';
import { productWithVariants } from '../fixtures/orders';
import { getDb } from '../../src/server/db/client';
import { auditLog, productPriceTiers } from '../../src/server/db/schema';
import * as tiersRoute from '../../src/pages/api/admin/products/variant-tiers';
import * as bulkRoute from '../../src/pages/api/admin/products/variant-bulk';
import * as productOne from '../../src/pages/api/product/[code]';
import { quoteOrder } from '../../src/server/orders/order-pricing';
import { adminVariants } from '../../src/server/catalog-admin/variant-admin.service';

type Route = Partial<Record<'POST', APIRoute>>;
const PATH = '/api/admin/products/variant-tiers';



async function post(client: TestClient, route: Route, path: string, values: Record<string, string | string[]>, json = true) {
  return client.call(route, 'POST', path, { headers: json ? { accept: 'application/json' } : {}, form: formData(values) });
}

async function ownTiers(variantId: number) {
  const db = await getDb();
  return db
    .select({ minQuantity: productPriceTiers.minQuantity, priceSatang: productPriceTiers.priceSatang })
    .from(productPriceTiers)
    .where(eq(productPriceTiers.variantId, variantId))
    .orderBy(asc(productPriceTiers.minQuantity));
}

/** Two shades (the second 10 baht dearer) and the product's own tier: 10 pieces or more, 20 baht off the first shade's price. */
async function shadesWithProductTier() {
  const { product, variants } = await productWithVariants([50, 50]);
  const db = await getDb();
  await db.delete(productPriceTiers).where(eq(productPriceTiers.productId, product.id));
  await db.insert(productPriceTiers).values({ productId: product.id, minQuantity: 10, priceSatang: product.priceSatang - 2000 });
  return { product, first: variants[0]!, second: variants[1]! };
}

const baht = (satang: number) => (satang / 100).toFixed(2);

describe("a variant's own wholesale tiers", () => {
  it('saves them, prices 10 pieces of that variant at its own tier and its sibling at the product’s, and audits the change', async () => {
    const client = await staffClient();
    const { product, first, second } = await shadesWithProductTier();
    const own = first.priceSatang - 3000;
    const saved = await post(client, tiersRoute, PATH, {
      product: product.code,
      variant: first.code,
      tiers: 'own',
      tier_min: ['10', '', '50'],
      tier_price: [baht(own), '', baht(own - 500)],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await ownTiers(first.id)).toEqual([
      { minQuantity: 10, priceSatang: own },
      { minQuantity: 50, priceSatang: own - 500 },
    ]);
    // The product's tier is untouched and still the sibling's.
    const db = await getDb();
    const shared = await db.select().from(productPriceTiers).where(and(eq(productPriceTiers.productId, product.id), isNull(productPriceTiers.variantId)));
    expect(shared.map((tier) => [tier.minQuantity, tier.priceSatang])).toEqual([[10, product.priceSatang - 2000]]);

    const quote = await quoteOrder({ lines: [{ product_code: first.code, amount: 10 }, { product_code: second.code, amount: 10 }] });
    expect(quote.lines.map((line) => [line.productCode, line.unitPriceSatang])).toEqual([
      [first.code, own],
      [second.code, product.priceSatang - 2000],
    ]);
    // Nine pieces are retail.
    const retail = await quoteOrder({ lines: [{ product_code: first.code, amount: 9 }] });
    expect(retail.lines[0]!.unitPriceSatang).toBe(first.priceSatang);

    // The product page's picker carries each variant's tiers: the first its own, the second the product's.
    const detail = await callGet<{ data: { variants: { variant_code: string; price_tiers: { min_quantity: number; unit_price: number }[] }[] } }>(productOne, `/api/product/${enc(product.code)}`, { code: product.code });
    expect(detail.status).toBe(200);
    const tiersOf = (code: string) => detail.body.data.variants.find((variant) => variant.variant_code === code)?.price_tiers;
    expect(tiersOf(first.code)).toEqual([
      { min_quantity: 10, unit_price: own / 100 },
      { min_quantity: 50, unit_price: (own - 500) / 100 },
    ]);
    expect(tiersOf(second.code)).toEqual([{ min_quantity: 10, unit_price: (product.priceSatang - 2000) / 100 }]);

    // The back office's table shows them.
    const rows = await adminVariants(product.id);
    expect(rows.find((row) => row.code === first.code)?.tiers).toHaveLength(2);
    expect(rows.find((row) => row.code === second.code)?.tiers).toEqual([]);

    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, product.code), eq(auditLog.action, 'product.variants.tiers'))).orderBy(desc(auditLog.id));
    expect(audit?.before).toEqual({ variant: first.code, tiers: 'product' });
    expect(audit?.after).toEqual({
      variant: first.code,
      tiers: [
        { minQuantity: 10, priceSatang: own },
        { minQuantity: 50, priceSatang: own - 500 },
      ],
    });

    // The same tiers again change nothing and write no audit row.
    const again = await post(client, tiersRoute, PATH, { product: product.code, variant: first.code, tiers: 'own', tier_min: ['10', '50'], tier_price: [baht(own), baht(own - 500)] });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ changed: false });
    const audits = await db.select().from(auditLog).where(and(eq(auditLog.entityId, product.code), eq(auditLog.action, 'product.variants.tiers')));
    expect(audits).toHaveLength(1);
  });

  it('goes back to the product’s tiers, and its 10 pieces are priced by them again', async () => {
    const client = await staffClient();
    const { product, first } = await shadesWithProductTier();
    const own = first.priceSatang - 3000;
    expect((await post(client, tiersRoute, PATH, { product: product.code, variant: first.code, tiers: 'own', tier_min: '10', tier_price: baht(own) })).status).toBe(200);
    // Rows still typed are ignored once the product's tiers are chosen.
    const back = await post(client, tiersRoute, PATH, { product: product.code, variant: first.code, tiers: 'product', tier_min: '10', tier_price: baht(own) });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await ownTiers(first.id)).toEqual([]);
    const quote = await quoteOrder({ lines: [{ product_code: first.code, amount: 10 }] });
    expect(quote.lines[0]!.unitPriceSatang).toBe(product.priceSatang - 2000);
    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, product.code), eq(auditLog.action, 'product.variants.tiers'))).orderBy(desc(auditLog.id));
    expect(audit?.after).toEqual({ variant: first.code, tiers: 'product' });
  });

  it('refuses tiers that do not read as a price list below the variant’s price, in Thai with a 400, and writes nothing', async () => {
    const client = await staffClient();
    const { product, first, second } = await shadesWithProductTier();
    const base = { product: product.code, variant: second.code, tiers: 'own' };
    const cases: [Record<string, string | string[]>, RegExp][] = [
      // At the second shade's own price: not below it (the first shade's price would be, the rule is the variant's).
      [{ tier_min: '10', tier_price: baht(second.priceSatang) }, /ราคาส่งต้องต่ำกว่าราคาขายปลีก/],
      [{ tier_min: ['20', '10'], tier_price: [baht(first.priceSatang - 100), baht(first.priceSatang - 200)] }, /จำนวนต้องมากกว่าแถวก่อนหน้า/],
      [{ tier_min: ['10', '20'], tier_price: [baht(first.priceSatang - 200), baht(first.priceSatang - 100)] }, /ราคาต้องต่ำกว่าแถวก่อนหน้า/],
      [{ tier_min: '1', tier_price: '5' }, /ตั้งแต่ 2 ขึ้นไป/],
      [{ tier_min: 'สิบ', tier_price: '5' }, /กรุณากรอกจำนวนและราคาเป็นตัวเลข/],
      [{ tier_min: Array.from({ length: 11 }, (_, index) => String(index + 2)), tier_price: Array.from({ length: 11 }, (_, index) => String(90 - index)) }, /ไม่เกิน 10 ขั้น/],
      [{ tier_min: '', tier_price: '' }, /อย่างน้อยหนึ่งขั้น/],
      [{ tiers: 'mine', tier_min: '10', tier_price: '5' }, /[\u0E00-\u0E7F]/],
    ];
    for (const [values, message] of cases) {
      const refused = await post(client, tiersRoute, PATH, { ...base, ...values });
      expect(refused.status, JSON.stringify(values)).toBe(400);
      expect(refused.body.message).toMatch(message);
    }
    const unknown = await post(client, tiersRoute, PATH, { ...base, variant: 'NO-SUCH-VARIANT', tier_min: '10', tier_price: '1' });
    expect(unknown.status).toBe(404);
    expect(await ownTiers(second.id)).toEqual([]);

    // Without JavaScript the refusal goes back to the product's page with the message.
    const plain = await post(client, tiersRoute, PATH, { ...base, back: `/admin/products/${product.code}`, tier_min: '10', tier_price: baht(second.priceSatang) }, false);
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe(`/admin/products/${product.code}`);
  });

  it('refuses a new variant price at or below its own tiers, from the table’s bulk price', async () => {
    const client = await staffClient();
    const { product, first, second } = await shadesWithProductTier();
    const own = first.priceSatang - 3000;
    expect((await post(client, tiersRoute, PATH, { product: product.code, variant: first.code, tiers: 'own', tier_min: '10', tier_price: baht(own) })).status).toBe(200);
    const refused = await post(client, bulkRoute, '/api/admin/products/variant-bulk', { product: product.code, op: 'price', bulk_price: baht(own), selected: [first.code, second.code] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(`ราคาใหม่ของตัวเลือก ${first.code} ขัดกับราคาส่งของตัวเลือกนี้`);
    const allowed = await post(client, bulkRoute, '/api/admin/products/variant-bulk', { product: product.code, op: 'price', bulk_price: baht(own + 100), selected: [first.code] });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
  });
});
