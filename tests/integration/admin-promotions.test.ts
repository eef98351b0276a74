import { and, desc, eq, ne } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import * as createRoute from '../../src/pages/admin/promotions/create';
import * as saveRoute from '../../src/pages/admin/promotions/[code]/save';
import * as bannerRoute from '../../src/pages/admin/promotions/[code]/banner';
import { getDb } from '../../src/server/db/client';
import { auditLog, categories, products, promotions } from '../../src/server/db/schema';
import { checkPromotion } from '../../src/server/orders/order.service';
import { activePromotions, promotionByCode } from '../../src/server/promotions/promotion-catalog.service';
import { AppError } from '../../src/server/http/errors';
import { dateToBangkokLocal } from '../../src/lib/promotion-schemas';
import { adminCallers, expectRoleMatrix, flashOf, form, upload, type AdminCallers } from '../fixtures/admin';
import { createMember, productWithStock, type TestMember, placeTestOrder } from '../fixtures/orders';

let callers: AdminCallers;
beforeAll(async () => {
  callers = await adminCallers();
});

const DAY = 86_400_000;
const promotionForm = (overrides: Record<string, string | string[]> = {}) =>
  form({
    code: 'admin10',
    name: 'สมาชิกใหม่ลด 10% (หลังร้าน)',
    description: 'ลด 10% เมื่อช้อปครบ ฿300 สูงสุด ฿200',
    discountType: 'percent',
    discountAmount: '10',
    maxDiscount: '200',
    minOrder: '300',
    usageLimit: '1000',
    startsAt: dateToBangkokLocal(new Date(Date.now() - DAY)),
    endsAt: dateToBangkokLocal(new Date(Date.now() + 30 * DAY)),
    active: 'on',
    bannerColor: '#39B54A',
    products: '',
    ...overrides,
  });

async function order(member: TestMember, lines: { product_code: string; amount: number }[], promotionCode: string) {
  return placeTestOrder(member, lines, { promotionCode });
}

describe('who may keep promotions', () => {
  it('owner and staff make and change codes; editors only the banner; no role sees nothing', async () => {
    let n = 0;
    await expectRoleMatrix(callers, createRoute, 'POST', '/admin/promotions/create', () => promotionForm({ code: `ROLE${++n}X` }), ['staff', 'owner']);
    await expectRoleMatrix(callers, saveRoute, 'POST', '/admin/promotions/ROLE4X/save', () => ({ ...promotionForm({ code: 'ROLE4X' }), params: { code: 'ROLE4X' } }), ['staff', 'owner']);
    const banner = await expectRoleMatrix(callers, bannerRoute, 'POST', '/admin/promotions/ROLE5X/banner', () => ({ ...form({ bannerColor: '#123456' }), params: { code: 'ROLE5X' } }), ['editor', 'staff', 'owner']);
    expect(banner.editor.status).toBe(303);
    const db = await getDb();
    const [row] = await db.select().from(promotions).where(eq(promotions.code, 'ROLE5X'));
    expect(row?.bannerColor).toBe('#123456');
    expect(row?.discountValue).toBe(10);
  });
});

describe('a promotion made in the back office', () => {
  it('works at checkout exactly like the seeded WELCOME10 with the same rules', async () => {
    const created = await callers.clients.staff.call(createRoute, 'POST', '/admin/promotions/create', promotionForm());
    expect(created.status).toBe(303);
    expect(created.headers.get('location')).toBe('/admin/promotions/ADMIN10');
    const member = await createMember();
    const product = await productWithStock(100);
    const amount = Math.ceil(40_000 / product.priceSatang);
    const lines = [{ product_code: product.code, amount }];

    const seeded = await checkPromotion('WELCOME10', lines);
    const made = await checkPromotion('admin10', lines);
    expect(made.discountSatang).toBe(seeded.discountSatang);
    expect(made.discountSatang).toBeGreaterThan(0);

    const { order: withSeeded } = await order(member, lines, 'WELCOME10');
    const { order: withMade } = await order(member, lines, 'admin10');
    expect(withMade.promotionCode).toBe('ADMIN10');
    expect(withMade.discountSatang).toBe(withSeeded.discountSatang);
    expect(withMade.totalSatang).toBe(withSeeded.totalSatang);
    const db = await getDb();
    const [row] = await db.select().from(promotions).where(eq(promotions.code, 'ADMIN10'));
    expect(row?.usedCount).toBe(1);

    // Below the minimum: refused the same way.
    const cheap = [{ product_code: (await productWithStock(10, { maxPriceSatang: 25_000 })).code, amount: 1 }];
    for (const code of ['WELCOME10', 'ADMIN10']) {
      await expect(checkPromotion(code, cheap)).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.code === 'promotion_min_order');
    }
    // Shoppers see it among the running promotions, with its banner colour.
    const shown = await promotionByCode('admin10');
    expect(shown).toMatchObject({ state: 'active', bannerColor: '#39b54a', minOrderSatang: 30_000, maxDiscountSatang: 20_000, usageLimit: 1000 });
    expect((await activePromotions()).map((p) => p.code)).toContain('ADMIN10');
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.action, 'promotion.create'), eq(auditLog.entityId, 'ADMIN10')));
    expect(audit?.after).toMatchObject({ code: 'ADMIN10', discountType: 'percent', discountValue: 10, categoryCodes: [], productCodes: [] });
  });

  it('a scope by category or product limits it like the seeded PARTY15', async () => {
    const db = await getDb();
    const product = await productWithStock(100);
    const [own] = await db.select({ code: categories.code }).from(categories).where(eq(categories.id, product.categoryId));
    const [other] = await db.select({ code: products.code }).from(products).where(and(eq(products.active, true), ne(products.categoryId, product.categoryId))).limit(1);
    const owner = callers.clients.owner;
    const byCategory = await owner.call(createRoute, 'POST', '/admin/promotions/create', promotionForm({ code: 'CAT50', discountType: 'fixed', discountAmount: '50', maxDiscount: '', minOrder: '', usageLimit: '', category: own!.code }));
    expect(flashOf(byCategory)?.kind).toBe('success');
    expect((await checkPromotion('CAT50', [{ product_code: product.code, amount: 1 }])).discountSatang).toBe(Math.min(5_000, product.priceSatang));
    await expect(checkPromotion('CAT50', [{ product_code: other!.code, amount: 1 }])).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.code === 'promotion_not_applicable');
    await owner.call(createRoute, 'POST', '/admin/promotions/create', promotionForm({ code: 'ONEITEM', discountType: 'fixed', discountAmount: '5', maxDiscount: '', minOrder: '', products: product.code.toLowerCase() }));
    expect((await promotionByCode('ONEITEM')).productCodes).toEqual([product.code]);
    expect((await checkPromotion('ONEITEM', [{ product_code: product.code, amount: 1 }])).discountSatang).toBe(500);
  });

  it('is edited in place: dates, turning it off, the banner picture; used-so-far stays', async () => {
    const owner = callers.clients.owner;
    const picture = await sharp({ create: { width: 1200, height: 400, channels: 3, background: '#ffd000' } }).png().toBuffer();
    const formData = Object.fromEntries(new URLSearchParams(promotionForm({ code: 'ADMIN10', active: '' }).rawBody).entries());
    const edited = await upload(owner, saveRoute, '/admin/promotions/ADMIN10/save', { ...formData, banner: new File([new Uint8Array(picture)], 'banner.png', { type: 'image/png' }) }, { code: 'ADMIN10' });
    expect(edited.status).toBe(303);
    const db = await getDb();
    const [row] = await db.select().from(promotions).where(eq(promotions.code, 'ADMIN10'));
    expect(row?.active).toBe(false);
    expect(row?.usedCount).toBe(1);
    expect(row?.bannerImage).toMatch(/^\/media\/banners\/[a-f0-9]{24}-1200\.webp$/);
    await expect(checkPromotion('ADMIN10', [{ product_code: (await productWithStock(10)).code, amount: 10 }])).rejects.toBeInstanceOf(AppError);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.action, 'promotion.update'), eq(auditLog.entityId, 'ADMIN10'))).orderBy(desc(auditLog.id));
    expect((audit?.before as { active: boolean }).active).toBe(true);
    expect((audit?.after as { active: boolean }).active).toBe(false);
  });

  it('refuses mistakes with a Thai message and writes nothing', async () => {
    const owner = callers.clients.owner;
    const cases: Array<[Record<string, string>, string]> = [
      [{ code: 'BAD1', endsAt: dateToBangkokLocal(new Date(Date.now() - 2 * DAY)) }, 'วันสิ้นสุดต้องหลังวันเริ่ม'],
      [{ code: 'BAD2', discountAmount: '150' }, 'ส่วนลดเปอร์เซ็นต์ต้องเป็นจำนวนเต็ม 1–100'],
      [{ code: 'BAD3', discountType: 'fixed', discountAmount: '0' }, 'ส่วนลดเป็นบาทต้องมากกว่า 0'],
      [{ code: 'BAD4', category: 'no-such-category' }, 'ไม่พบหมวดหมู่ no-such-category'],
      [{ code: 'BAD5', products: 'NOPE-000' }, 'ไม่พบสินค้ารหัส NOPE-000'],
      [{ code: 'welcome10' }, 'มีโค้ดนี้อยู่แล้ว'],
      [{ code: 'x' }, 'โค้ดใช้ตัวอักษรภาษาอังกฤษ'],
      [{ code: 'BAD6', usageLimit: '0' }, 'จำนวนสิทธิ์ต้องเป็นจำนวนเต็ม'],
      [{ code: 'BAD7', startsAt: 'เมื่อวาน' }, 'กรุณาเลือกวันเริ่ม'],
      [{ code: 'BAD8', bannerColor: 'red' }, 'สีแบนเนอร์'],
    ];
    for (const [overrides, message] of cases) {
      const result = await owner.call(createRoute, 'POST', '/admin/promotions/create', promotionForm(overrides));
      expect(result.status, message).toBe(303);
      expect(flashOf(result)?.kind).toBe('danger');
      expect(flashOf(result)?.text).toContain(message);
    }
    const db = await getDb();
    expect(await db.select().from(promotions).where(eq(promotions.code, 'BAD1'))).toHaveLength(0);
    const missing = await owner.call(saveRoute, 'POST', '/admin/promotions/NOPE/save', { ...promotionForm({ code: 'NOPE' }), params: { code: 'NOPE' } });
    expect(missing.status).toBe(404);
  });
});

describe('an empty or half-filled form', () => {
  it('answers in Thai, never with a library message or a 500', async () => {
    const owner = callers.clients.owner;
    const bodies: Array<Record<string, string>> = [{}, { code: 'HALF1' }, { code: 'HALF2', name: 'ครึ่งเดียว', discountType: 'percent' }];
    for (const body of bodies) {
      const result = await owner.call(createRoute, 'POST', '/admin/promotions/create', form(body));
      expect(result.status).toBe(303);
      expect(flashOf(result)?.kind).toBe('danger');
      expect(flashOf(result)?.text).toMatch(/[\u0E00-\u0E7F]/);
      expect(flashOf(result)?.text).not.toMatch(/Invalid|expected/);
    }
  });
});
