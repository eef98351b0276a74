import { and, desc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { addresses, auditLog, backInStockRequests, members, orders, quotations, sessions, taxInvoices } from '../../src/server/db/schema';
import { requestByEmail, subscribeMember } from '../../src/server/back-in-stock/back-in-stock.service';
import { hashPassword } from '../../src/server/auth/password';
import { changeOrderStatus } from '../../src/server/orders/order.service';
import { requestTaxInvoice } from '../../src/server/documents/receipt.service';
import { createQuotation } from '../../src/server/quotations/quotation.service';
import { publishedPage } from '../../src/server/content/pages.service';
import { getCompany } from '../../src/server/company/company.service';
import { taxInvoiceRequestSchema } from '../../src/lib/documents';
import * as dataRoute from '../../src/pages/api/user/data';
import * as closeRoute from '../../src/pages/api/user/close';
import * as loginRoute from '../../src/pages/api/auth/login';
import * as meRoute from '../../src/pages/api/auth/me';
import * as settingsRoute from '../../src/pages/admin/settings/[section]';
import * as ordersRoute from '../../src/pages/api/orders';
import { TestClient } from '../fixtures/api-client';
import { adminCallers, CALLERS, expectRoleMatrix, flashOf, form, type AdminCallers } from '../fixtures/admin';
import { createMember, newKey, placeTestOrder, productWithStock, productWithVariants, type TestMember } from '../fixtures/orders';

/**
 * issue 29, items 10 and 16: the member's data as JSON (their own only), closing the account (orders and
 * tax documents kept with the person's details removed, audited, sessions ended, no sign-in again), the
 * privacy and terms pages, the store pickup setting and a pickup order without an address.
 */

const PASSWORD = 'รหัสผ่านสมาชิก-ทดสอบ-2569';
let callers: AdminCallers;
let owner: TestMember;

function as(member: TestMember | null): TestClient {
  const client = new TestClient();
  if (member) client.bearer = member.token;
  return client;
}

async function withPassword(member: TestMember): Promise<TestMember> {
  const db = await getDb();
  await db.update(members).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(members.id, member.id));
  return member;
}

async function finishedOrder(member: TestMember): Promise<string> {
  const product = await productWithStock(20);
  const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 2 }], { deliveryCode: 'pickup', paymentMethod: 'promptpay' });
  const staff = { type: 'staff' as const, id: owner.id };
  await changeOrderStatus(staff, order.orderNo, { action: 'confirm_payment' });
  await changeOrderStatus(staff, order.orderNo, { action: 'ship' });
  await changeOrderStatus(staff, order.orderNo, { action: 'deliver' });
  return order.orderNo;
}

const close = (member: TestMember | null, body: unknown) => as(member).call(closeRoute, 'POST', '/api/user/close', { body });

beforeAll(async () => {
  callers = await adminCallers();
  owner = callers.members.owner;
});

describe('the member’s data as JSON', () => {
  it('holds the caller’s own profile, addresses and orders, and nobody else’s', async () => {
    const member = await createMember();
    const other = await createMember();
    const mine = await finishedOrder(member);
    const theirs = await finishedOrder(other);
    const answer = await as(member).call<Record<string, unknown>>(dataRoute, 'GET', '/api/user/data');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="my-data-\d{8}\.json"$/);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const data = answer.body as unknown as {
      profile: { email: string; phone: string };
      addresses: { recipientName: string }[];
      orders: { orderNo: string; lines: unknown[]; history: unknown[] }[];
      signIns: { sessions: unknown[] };
    };
    expect(data.profile).toMatchObject({ email: member.email, phone: member.phone });
    expect(data.addresses).toHaveLength(1);
    expect(data.orders.map((order) => order.orderNo)).toEqual([mine]);
    expect(JSON.stringify(data)).not.toContain(theirs);
    expect(JSON.stringify(data)).not.toContain(other.email);
    expect(JSON.stringify(data)).not.toContain('password');
    expect(data.orders[0]!.lines).toHaveLength(1);
    expect(data.orders[0]!.history.length).toBeGreaterThan(0);
    expect(data.signIns.sessions.length).toBeGreaterThan(0);
  });

  it('every role downloads only their own; a visitor gets 401', async () => {
    for (const caller of CALLERS) {
      const answer = await callers.clients[caller].call<{ profile?: { email: string } }>(dataRoute, 'GET', '/api/user/data');
      if (caller === 'anonymous') {
        expect(answer.status).toBe(401);
        expect(answer.body.message).toMatch(/[ก-๙]/);
      } else {
        expect(answer.status, caller).toBe(200);
        expect(answer.body.profile?.email).toBe(callers.members[caller].email);
      }
    }
  });
});

describe('closing the account', () => {
  it('keeps orders and tax documents with the person’s details removed, ends sessions, is audited, and the member cannot sign in again', async () => {
    const member = await withPassword(await createMember());
    const second = new TestClient();
    const signedIn = await second.call<{ token: string }>(loginRoute, 'POST', '/api/auth/login', { body: { login: member.email, password: PASSWORD } });
    expect(signedIn.status).toBe(200);
    const no = await finishedOrder(member);
    await requestTaxInvoice(
      member.id,
      no,
      taxInvoiceRequestSchema.parse({ name: 'บริษัท ตัวอย่างการค้า จำกัด', address: '99/9 ถนนสีลม แขวงสีลม เขตบางรัก กรุงเทพมหานคร 10500', tax_id: '0105558000006', branch_type: 'head_office' }),
    );
    const product = await productWithStock(5);
    await createQuotation(member.id, { lines: [{ product_code: product.code, amount: 1 }], delivery_code: 'pickup', buyer_name: 'คุณสมหญิง', buyer_company: 'ร้านสมหญิง', buyer_address: 'ที่อยู่ส่วนตัว', buyer_tax_id: '', buyer_phone: '0812345678' }, new Date());

    // Waiting for a sold-out shade, as a member and with the same address as a visitor (docs/decisions/220).
    const { variants } = await productWithVariants([0, 0]);
    await subscribeMember(member.id, variants[0]!.code);
    await requestByEmail(member.email, variants[1]!.code, '198.51.100.220');
    const download = await as(member).call<{ backInStock: { code: string }[] }>(dataRoute, 'GET', '/api/user/data');
    expect(download.body.backInStock.map((entry) => entry.code)).toEqual([variants[0]!.code]);

    const closed = await close(member, { password: PASSWORD, confirm: true });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ ordersKept: 1 });
    expect(closed.cookies.get('shop_session')?.deleted).toBe(true);

    const db = await getDb();
    const [row] = await db.select().from(members).where(eq(members.id, member.id));
    expect(row!.closedAt).not.toBeNull();
    expect(row).toMatchObject({ firstName: 'ผู้ใช้ที่ปิดบัญชีแล้ว', lastName: '', birthday: null, scopes: [] });
    expect(row!.email).not.toContain(member.email.split('@')[0]);
    expect(row!.phone).not.toContain(member.phone);
    expect(await db.select().from(addresses).where(eq(addresses.memberId, member.id))).toEqual([]);
    expect(await db.select().from(sessions).where(eq(sessions.memberId, member.id))).toEqual([]);
    expect(await db.select().from(backInStockRequests).where(inArray(backInStockRequests.variantId, variants.map((variant) => variant.id)))).toEqual([]);

    // The order stays for the books, without the person.
    const [order] = await db.select().from(orders).where(eq(orders.orderNo, no));
    expect(order!.status).toBe('delivered');
    expect(order!.address).toMatchObject({ recipientName: 'ผู้ใช้ที่ปิดบัญชีแล้ว', phone: '', line1: '', postcode: '' });
    expect(JSON.stringify(order)).not.toContain(member.phone);
    // The full tax invoice is a tax document the law keeps as issued.
    const [invoice] = await db.select().from(taxInvoices).where(eq(taxInvoices.orderId, order!.id));
    expect(invoice).toMatchObject({ buyerName: 'บริษัท ตัวอย่างการค้า จำกัด', buyerTaxId: '0105558000006' });
    const [quotation] = await db.select().from(quotations).where(eq(quotations.memberId, member.id));
    expect(quotation).toMatchObject({ buyerName: 'ผู้ใช้ที่ปิดบัญชีแล้ว', buyerAddress: '', buyerPhone: '' });

    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.action, 'member.close_account'), eq(auditLog.entityId, member.id))).orderBy(desc(auditLog.id));
    expect(audit).toMatchObject({ actorId: member.id, actorRole: 'member', entityType: 'member' });
    expect(audit!.actorEmail).not.toBe(member.email);
    expect(audit!.after).toMatchObject({ ordersKept: 1 });

    // Every session ended, the other device's too; the old email and password sign in nobody.
    expect((await as(member).call(meRoute, 'GET', '/api/auth/me')).status).toBe(401);
    const other = new TestClient();
    other.bearer = signedIn.body.token;
    expect((await other.call(meRoute, 'GET', '/api/auth/me')).status).toBe(401);
    const again = await new TestClient().call(loginRoute, 'POST', '/api/auth/login', { body: { login: member.email, password: PASSWORD } });
    expect(again.status).toBe(401);
    const byPhone = await new TestClient().call(loginRoute, 'POST', '/api/auth/login', { body: { login: member.phone, password: PASSWORD } });
    expect(byPhone.status).toBe(401);
  });

  it('asks for the right password and a ticked confirmation, with Thai messages', async () => {
    const member = await withPassword(await createMember());
    const wrong = await close(member, { password: 'ไม่ใช่รหัสนี้', confirm: true });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'wrong_password', fields: { password: 'รหัสผ่านไม่ถูกต้อง' } });
    const unticked = await close(member, { password: PASSWORD, confirm: false });
    expect(unticked.status).toBe(400);
    expect(unticked.body.message).toMatch(/[ก-๙]/);
    expect((await close(member, 'not an object')).status).toBe(400);
    const db = await getDb();
    const [row] = await db.select({ closedAt: members.closedAt }).from(members).where(eq(members.id, member.id));
    expect(row!.closedAt).toBeNull();
  });

  it('waits while an order is still on its way', async () => {
    const member = await withPassword(await createMember());
    const product = await productWithStock(5);
    const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 1 }]);
    const refused = await close(member, { password: PASSWORD, confirm: true });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('orders_open');
    expect(refused.body.message).toContain(order.orderNo);
    expect((await as(member).call(meRoute, 'GET', '/api/auth/me')).status).toBe(200);
  });

  it('every role: team members are refused (the owner removes the role first), a visitor 401, a member may', async () => {
    for (const caller of CALLERS) {
      if (caller === 'anonymous') {
        expect((await close(null, { password: PASSWORD, confirm: true })).status).toBe(401);
        continue;
      }
      if (caller === 'member') continue; // closed above; this member stays for the other tests
      const person = await withPassword(callers.members[caller]);
      const refused = await close(person, { password: PASSWORD, confirm: true });
      expect(refused.status, caller).toBe(409);
      expect(refused.body.code).toBe('account_has_role');
    }
  });
});

describe('privacy and terms', () => {
  it('are built-in content pages, seeded with the PDPA headings and the shop’s contact', async () => {
    const privacy = await publishedPage('privacy');
    const terms = await publishedPage('terms');
    expect(privacy?.title).toBe('นโยบายความเป็นส่วนตัว');
    expect(terms?.title).toBe('ข้อกำหนดและเงื่อนไข');
    for (const heading of ['ข้อมูลที่ร้านเก็บ', 'ร้านใช้ข้อมูลเพื่ออะไร', 'ร้านส่งข้อมูลให้ใครบ้าง', 'ร้านเก็บข้อมูลนานเท่าใด', 'สิทธิของคุณ', 'ติดต่อร้านเรื่องข้อมูลส่วนบุคคล']) {
      expect(privacy?.html).toContain(heading);
    }
    // Company values are filled in: the shop's phone, and the auto-receive days in the terms.
    expect(privacy?.html).toContain('081-234-5678');
    expect(terms?.html).toContain('ครบ 7 วันหลังจัดส่ง');
    expect(privacy?.inFooter).toBe(false);
  });
});

describe('store pickup', () => {
  it('the owner alone keeps the pickup place, hours and the auto-receive days; audited; bad input in Thai', async () => {
    const pickupForm = () => ({ ...form({ pickupAddress: 'หน้าร้าน ชั้น 1', pickupHours: 'ทุกวัน 10:00–18:00 น.', autoDeliverDays: '5' }), params: { section: 'pickup' } });
    const results = await expectRoleMatrix(callers, settingsRoute, 'POST', '/admin/settings/pickup', pickupForm, ['owner']);
    expect(results.owner.status).toBe(303);
    expect(flashOf(results.owner)).toMatchObject({ kind: 'success' });
    const company = await getCompany();
    expect(company).toMatchObject({ pickupAddress: 'หน้าร้าน ชั้น 1', pickupHours: 'ทุกวัน 10:00–18:00 น.', autoDeliverDays: 5 });
    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'settings.update_pickup')).orderBy(desc(auditLog.id));
    expect(audit?.after).toMatchObject({ autoDeliverDays: 5 });

    const bad = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/pickup', { ...form({ pickupAddress: '', pickupHours: '', autoDeliverDays: '0' }), params: { section: 'pickup' } });
    expect(bad.status).toBe(303);
    expect(flashOf(bad)).toMatchObject({ kind: 'danger' });
    expect(flashOf(bad)!.text).toContain('1 วัน');
    expect((await getCompany()).autoDeliverDays).toBe(5);
    // Back to the default for the rest of the run.
    await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/pickup', { ...form({ pickupAddress: '', pickupHours: '', autoDeliverDays: '7' }), params: { section: 'pickup' } });
  });

  it('an order picked up at the shop needs no address; any other delivery still does', async () => {
    const member = await createMember();
    const product = await productWithStock(10);
    const place = (delivery: string) =>
      as(member).call<{ data: { order_no: string } }>(ordersRoute, 'POST', '/api/orders', {
        body: { lines: [{ product_code: product.code, amount: 1 }], delivery_code: delivery, payment_method: 'promptpay' },
        headers: { 'Idempotency-Key': newKey() },
      });
    const refused = await place('kerry');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('กรุณาเลือกที่อยู่จัดส่ง');
    const placed = await place('pickup');
    expect(placed.status).toBe(201);
    const db = await getDb();
    const [order] = await db.select().from(orders).where(eq(orders.orderNo, placed.body.data.order_no));
    expect(order!.address).toMatchObject({ recipientName: `${member.firstName} ${member.lastName}`, phone: member.phone, line1: 'รับเองที่หน้าร้าน' });
  });
});
