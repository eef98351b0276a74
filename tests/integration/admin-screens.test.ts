import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as bannerRoute from '../../src/pages/admin/promotions/[code]/banner';
import * as settingsRoute from '../../src/pages/admin/settings/[section]';
import { getDb } from '../../src/server/db/client';
import { auditLog, orders, products, promotions } from '../../src/server/db/schema';
import { dashboard } from '../../src/server/admin/dashboard.service';
import { adminProductQuery, listProductsForAdmin } from '../../src/server/catalog-admin/product-admin.service';
import { auditNames, auditPeople, auditQuerySchema, listAudit } from '../../src/server/audit/audit.repo';
import { describeAudit } from '../../src/server/audit/audit-words';
import { getCompany } from '../../src/server/company/company.service';
import { homeData } from '../../src/server/catalog/home.service';
import { recordAudit } from '../../src/server/audit/audit.service';
import { bangkokDate, bangkokDayStart } from '../../src/lib/admin-orders';
import { knownCarrier, REMOVE_DELIVERY } from '../../src/lib/carriers';
import { adminCallers, flashOf, form, type AdminCallers } from '../fixtures/admin';
import { createMember, placeTestOrder, productWithStock, type TestMember } from '../fixtures/orders';

/** Issue 32, screens 3, 5, 6 and 8: the dashboard's to-do list, the audit trail in Thai, banners, carriers. */
let callers: AdminCallers;
let shopper: TestMember;
beforeAll(async () => {
  callers = await adminCallers();
  shopper = await createMember();
});

describe('the dashboard as a to-do list', () => {
  it('counts sold-out and running-low products apart, the same products the list filter "ดูทั้งหมด" opens', async () => {
    const db = await getDb();
    const [out, low] = await Promise.all([productWithStock(20), productWithStock(20)]);
    await db.update(products).set({ stock: 0 }).where(eq(products.code, out.code));
    await db.update(products).set({ stock: 3 }).where(eq(products.code, low.code));
    const data = await dashboard();
    const listed = async (stock: 'out' | 'low') => listProductsForAdmin(adminProductQuery(new URL(`https://shop.test/admin/products?stock=${stock}&active=1&sort=stock_asc`)));
    const [outList, lowList] = await Promise.all([listed('out'), listed('low')]);
    expect(data.soldOut.total).toBe(outList.total);
    expect(data.runningLow.total).toBe(lowList.total);
    expect(data.soldOut.total).toBeGreaterThan(0);
    expect(data.soldOut.rows.every((row) => row.stock <= 0)).toBe(true);
    expect(data.runningLow.rows.every((row) => row.stock > 0)).toBe(true);
    expect(data.soldOut.rows.length).toBeLessThanOrEqual(5);
    // The lowest first: the product at 3 is listed unless five others are lower still.
    const lowest = data.runningLow.rows.map((row) => row.stock);
    expect(lowest).toEqual([...lowest].sort((a, b) => a - b));
    if (data.runningLow.rows.length < 5 || lowest.at(-1)! > 3) expect(data.runningLow.rows.map((row) => row.code)).toContain(low.code);
  });

  it('lists the unpaid orders whose time to pay ends today, soonest first, and not those ending tomorrow or already past', async () => {
    const db = await getDb();
    const product = await productWithStock(50);
    const place = async () => (await placeTestOrder(shopper, [{ product_code: product.code, amount: 1 }])).order.orderNo;
    const [soon, later, tomorrow, past] = [await place(), await place(), await place(), await place()];
    // A fixed "now" at 10:00 in Bangkok today: no dependence on the clock the test runs at.
    const now = new Date(bangkokDayStart(bangkokDate(new Date())).getTime() + 10 * 3_600_000);
    const at = (hours: number) => new Date(now.getTime() + hours * 3_600_000);
    await db.update(orders).set({ expiresAt: at(1) }).where(eq(orders.orderNo, soon));
    await db.update(orders).set({ expiresAt: at(13.5) }).where(eq(orders.orderNo, later));
    await db.update(orders).set({ expiresAt: at(14.5) }).where(eq(orders.orderNo, tomorrow));
    await db.update(orders).set({ expiresAt: at(-1) }).where(eq(orders.orderNo, past));
    const data = await dashboard(now);
    const numbers = data.expiringToday.rows.map((row) => row.orderNo);
    expect(numbers).toContain(soon);
    expect(numbers).not.toContain(tomorrow);
    expect(numbers).not.toContain(past);
    if (numbers.includes(later)) expect(numbers.indexOf(soon)).toBeLessThan(numbers.indexOf(later));
    expect(data.expiringToday.total).toBeGreaterThanOrEqual(2);
    const row = data.expiringToday.rows.find((entry) => entry.orderNo === soon)!;
    expect(row.recipient).not.toBe('');
    expect(data.dates.today).toBe(bangkokDate(now));
  });
});

describe('the audit trail in Thai', () => {
  it('names the person, the product and the change, and filters by person id', async () => {
    const db = await getDb();
    const product = await productWithStock(10);
    const staff = callers.members.staff;
    await db.transaction((tx) =>
      recordAudit(tx, { id: staff.id, email: staff.email, role: 'staff', via: 'web' }, {
        action: 'product.quick_edit',
        entityType: 'product',
        entityId: product.code,
        before: { priceSatang: 27_000, stock: 10 },
        after: { priceSatang: 29_000, stock: 10 },
      }),
    );
    const { rows } = await listAudit(db, auditQuerySchema.parse({ actor: staff.id, entity: 'product' }));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.actorId === staff.id && row.entityType === 'product')).toBe(true);
    const names = await auditNames(db, rows);
    const said = describeAudit(rows[0]!, names);
    const [saved] = await db.select({ name: products.name }).from(products).where(eq(products.code, product.code));
    expect(`${said.who} ${said.verb} ${said.target?.label}${said.tail}`).toBe(`${staff.firstName} เปลี่ยนราคา ${saved!.name} จาก ฿270 เป็น ฿290`);
    expect(said.target?.href).toBe(`/admin/products/${product.code}`);
    const people = await auditPeople(db);
    expect(people.find((person) => person.id === staff.id)).toMatchObject({ email: staff.email, name: `${staff.firstName} ${staff.lastName}` });
    // A typed address (links made before the person filter) still filters by email.
    const byEmail = await listAudit(db, auditQuerySchema.parse({ actor: staff.email }));
    expect(byEmail.rows.map((row) => row.id)).toContain(rows[0]!.id);
  });
});

describe('promotion banners: text over the picture or the picture alone', () => {
  it('an editor chooses "picture only"; the home page and the audit trail follow; a made-up choice is refused in Thai', async () => {
    const db = await getDb();
    const [promotion] = await db.select().from(promotions).where(eq(promotions.code, 'WELCOME10'));
    expect(promotion?.bannerTextOver).toBe(true);
    const editor = callers.clients.editor;
    const saved = await editor.call(bannerRoute, 'POST', '/admin/promotions/WELCOME10/banner', { ...form({ bannerColor: '#ffd000', bannerText: 'none' }), params: { code: 'WELCOME10' } });
    expect(saved.status).toBe(303);
    expect(flashOf(saved)?.kind).toBe('success');
    const [after] = await db.select().from(promotions).where(eq(promotions.code, 'WELCOME10'));
    expect(after?.bannerTextOver).toBe(false);
    const home = await homeData();
    expect(home.banners.find((banner) => banner.code === 'WELCOME10')?.bannerTextOver).toBe(false);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.action, 'promotion.banner'), eq(auditLog.entityId, 'WELCOME10')));
    expect(audit?.after).toMatchObject({ bannerTextOver: false });
    const bad = await editor.call(bannerRoute, 'POST', '/admin/promotions/WELCOME10/banner', { ...form({ bannerColor: '#ffd000', bannerText: 'sideways' }), params: { code: 'WELCOME10' } });
    expect(flashOf(bad)).toMatchObject({ kind: 'danger', text: 'กรุณาเลือกว่าจะแสดงข้อความบนแบนเนอร์หรือไม่' });
    const [unchanged] = await db.select().from(promotions).where(eq(promotions.code, 'WELCOME10'));
    expect(unchanged?.bannerTextOver).toBe(false);
    const back = await editor.call(bannerRoute, 'POST', '/admin/promotions/WELCOME10/banner', { ...form({ bannerColor: '#ffd000', bannerText: 'over' }), params: { code: 'WELCOME10' } });
    expect(flashOf(back)?.kind).toBe('success');
  });
});

describe('delivery options from known carriers', () => {
  const at = { params: { section: 'delivery' } };
  it('a chosen carrier fills in its name and tracking link; "ลบ" drops a row; a made-up code is refused', async () => {
    const owner = callers.clients.owner;
    const saved = await owner.call(settingsRoute, 'POST', '/admin/settings/delivery', {
      ...form({ code: ['kerry', 'ems', 'pickup', ''], name: ['', 'EMS ด่วน', '', ''], fee: ['45', '50', '0', ''], days: ['', '', '', ''], trackingUrl: ['', '', '', ''], freeShipping: '' }),
      ...at,
    });
    expect(flashOf(saved)?.kind).toBe('success');
    let shop = await getCompany();
    expect(shop.deliveryOptions.map((option) => option.code)).toEqual(['kerry', 'ems', 'pickup']);
    expect(shop.deliveryOptions[0]).toMatchObject({ name: 'Kerry Express', trackingUrl: knownCarrier('kerry')!.trackingUrl });
    expect(shop.deliveryOptions[1]).toMatchObject({ name: 'EMS ด่วน', feeSatang: 5000 });
    expect(shop.deliveryOptions[2]).toMatchObject({ name: 'รับเองที่หน้าร้าน', trackingUrl: null });
    const removed = await owner.call(settingsRoute, 'POST', '/admin/settings/delivery', {
      ...form({ code: ['kerry', REMOVE_DELIVERY, 'pickup'], name: ['Kerry Express', 'EMS ด่วน', 'รับเองที่หน้าร้าน'], fee: ['45', '50', '0'], days: ['', '', ''], trackingUrl: ['', '', ''], freeShipping: '' }),
      ...at,
    });
    expect(flashOf(removed)?.kind).toBe('success');
    shop = await getCompany();
    expect(shop.deliveryOptions.map((option) => option.code)).toEqual(['kerry', 'pickup']);
    const forged = await owner.call(settingsRoute, 'POST', '/admin/settings/delivery', { ...form({ code: ['kerry', 'dhl-made-up'], name: ['a', 'b'], fee: ['1', '2'], freeShipping: '' }), ...at });
    expect(forged.status).toBe(303);
    expect(flashOf(forged)).toMatchObject({ kind: 'danger' });
    expect(flashOf(forged)?.text).toContain('กรุณาเลือกขนส่งจากรายการ');
    const unchosen = await owner.call(settingsRoute, 'POST', '/admin/settings/delivery', { ...form({ code: ['kerry', ''], name: ['a', 'ส่งเอง'], fee: ['1', '2'], freeShipping: '' }), ...at });
    expect(flashOf(unchosen)?.text).toBe('กรุณาเลือกขนส่งจากรายการ');
    shop = await getCompany();
    expect(shop.deliveryOptions.map((option) => option.code)).toEqual(['kerry', 'pickup']);
  });
});
