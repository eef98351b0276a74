import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database, getDb } from '../../src/server/db/client';
import { auditLog, orderEvents, orders } from '../../src/server/db/schema';
import { changeOrderStatus } from '../../src/server/orders/order.service';
import { AUTO_DELIVER_LOCK_KEY, deliverLongShippedOrders } from '../../src/server/orders/order-auto-deliver';
import { adminOrderDetail } from '../../src/server/orders/admin-orders.service';
import * as statusUpdateRoute from '../../src/pages/api/order-status-update';
import { TestClient } from '../fixtures/api-client';
import { createMember, placeTestOrder, productWithStock, type TestMember } from '../fixtures/orders';

/**
 * issue 29, item 9: a shipped order offers ได้รับสินค้าแล้ว to its member (→ delivered, audited, staff see
 * who confirmed), and orders shipped more than N days ago become delivered on their own, one instance at
 * a time. The clock is an explicit `now`; nothing sleeps.
 */

const DAY = 86_400_000;
let owner: TestMember;
let shopper: TestMember;
let stranger: TestMember;

function as(member: TestMember | null): TestClient {
  const client = new TestClient();
  if (member) client.bearer = member.token;
  return client;
}

async function shippedOrder(member: TestMember, options: { shippedDaysAgo?: number; now?: Date } = {}): Promise<string> {
  const product = await productWithStock(20);
  const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 1 }], { deliveryCode: 'kerry', paymentMethod: 'promptpay' });
  const staff = { type: 'staff' as const, id: owner.id };
  await changeOrderStatus(staff, order.orderNo, { action: 'confirm_payment' });
  await changeOrderStatus(staff, order.orderNo, { action: 'ship', trackingNo: 'KEX123456789' });
  if (options.shippedDaysAgo !== undefined) {
    const db = await getDb();
    const now = options.now ?? new Date();
    await db.update(orders).set({ shippedAt: new Date(now.getTime() - options.shippedDaysAgo * DAY) }).where(eq(orders.orderNo, order.orderNo));
  }
  return order.orderNo;
}

async function statusOf(orderNo: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.orderNo, orderNo));
  return row?.status;
}

async function deliveredEvents(orderNo: string) {
  const db = await getDb();
  return db
    .select({ actorType: orderEvents.actorType, actorId: orderEvents.actorId, note: orderEvents.note })
    .from(orderEvents)
    .innerJoin(orders, eq(orders.id, orderEvents.orderId))
    .where(and(eq(orders.orderNo, orderNo), eq(orderEvents.toStatus, 'delivered')));
}

async function auditOf(action: string, orderNo: string) {
  const db = await getDb();
  return db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.entityId, orderNo))).orderBy(desc(auditLog.id));
}

const receive = (who: TestMember | null, no: string) => as(who).call(statusUpdateRoute, 'POST', '/api/order-status-update', { body: { no, action: 'receive' } });

beforeAll(async () => {
  owner = await createMember({ scopes: ['owner'] });
  shopper = await createMember();
  stranger = await createMember();
});

describe('ได้รับสินค้าแล้ว: the member confirms their shipped order', () => {
  it('moves the order to delivered, records the member in its history and the audit trail, and staff see who', async () => {
    const no = await shippedOrder(shopper);
    const answer = await receive(shopper, no);
    expect(answer.status).toBe(200);
    expect(await statusOf(no)).toBe('delivered');

    const events = await deliveredEvents(no);
    expect(events).toEqual([{ actorType: 'member', actorId: shopper.id, note: 'ลูกค้ายืนยันว่าได้รับสินค้าแล้ว' }]);
    const [audit] = await auditOf('order.receive', no);
    expect(audit).toMatchObject({ actorId: shopper.id, actorEmail: shopper.email, actorRole: 'member', entityType: 'order' });
    expect(audit!.before).toMatchObject({ status: 'shipped' });
    expect(audit!.after).toMatchObject({ status: 'delivered' });

    const detail = await adminOrderDetail(no);
    expect(detail.order.events.at(-1)).toMatchObject({ toStatus: 'delivered', actorType: 'member', note: 'ลูกค้ายืนยันว่าได้รับสินค้าแล้ว' });
    expect(detail.member?.name).toBe(`${shopper.firstName} ${shopper.lastName}`);
    expect(detail.order.deliveredAt).not.toBeNull();

    // A second press changes nothing and says why.
    const again = await receive(shopper, no);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('กำลังจัดส่ง');
    expect(await deliveredEvents(no)).toHaveLength(1);
  });

  it('only the order’s own member: another member and staff get 404, a visitor 401, nothing changes', async () => {
    const no = await shippedOrder(shopper);
    expect((await receive(stranger, no)).status).toBe(404);
    expect((await receive(owner, no)).status).toBe(404);
    expect((await receive(null, no)).status).toBe(401);
    expect(await statusOf(no)).toBe('shipped');
    expect(await auditOf('order.receive', no)).toEqual([]);
  });

  it('only once shipped: an unpaid or paid order is refused with a Thai reason', async () => {
    const product = await productWithStock(5);
    const { order } = await placeTestOrder(shopper, [{ product_code: product.code, amount: 1 }]);
    const unpaid = await receive(shopper, order.orderNo);
    expect(unpaid.status).toBe(409);
    expect(unpaid.body).toMatchObject({ code: 'invalid_transition' });
    expect(unpaid.body.message).toMatch(/^ยืนยันได้รับสินค้าได้เมื่อ/);
    await changeOrderStatus({ type: 'staff', id: owner.id }, order.orderNo, { action: 'confirm_payment' });
    expect((await receive(shopper, order.orderNo)).status).toBe(409);
    expect(await statusOf(order.orderNo)).toBe('paid');
  });

  it('a bad request is a 400 with a Thai message', async () => {
    const bad = await as(shopper).call(statusUpdateRoute, 'POST', '/api/order-status-update', { body: { no: '../../etc', action: 'receive' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/[ก-๙]/);
  });
});

describe('shipped long ago: delivered on its own', () => {
  it('delivers orders shipped more than the setting’s days ago (7), leaves newer ones, audited as the system', async () => {
    const now = new Date(Date.now() + 365 * DAY); // far enough ahead that every older test order is due too
    const old = await shippedOrder(shopper, { shippedDaysAgo: 8, now });
    const recent = await shippedOrder(shopper, { shippedDaysAgo: 3, now });
    const result = await deliverLongShippedOrders(now);
    expect(result.ran).toBe(true);
    expect(result.delivered).toContain(old);
    expect(result.delivered).not.toContain(recent);
    expect(await statusOf(old)).toBe('delivered');
    expect(await statusOf(recent)).toBe('shipped');
    expect(await deliveredEvents(old)).toEqual([{ actorType: 'system', actorId: null, note: 'ยืนยันรับสินค้าอัตโนมัติ (จัดส่งแล้วเกิน 7 วัน)' }]);
    const [audit] = await auditOf('order.deliver', old);
    expect(audit).toMatchObject({ actorRole: 'system', via: 'system' });

    // Four days later the recent one is due as well.
    const later = await deliverLongShippedOrders(new Date(now.getTime() + 4 * DAY + 60_000));
    expect(later.delivered).toContain(recent);
  });

  it('two rounds at once deliver each order once', async () => {
    const now = new Date(Date.now() + 400 * DAY);
    const due = await Promise.all([1, 2, 3].map(() => shippedOrder(shopper, { shippedDaysAgo: 10, now })));
    const [a, b] = await Promise.all([deliverLongShippedOrders(now), deliverLongShippedOrders(now)]);
    const all = [...a.delivered, ...b.delivered].filter((no) => due.includes(no));
    expect(all.sort()).toEqual([...due].sort());
    for (const no of due) expect(await deliveredEvents(no)).toHaveLength(1);
  });

  it('a round while another instance holds the job’s lock does nothing (PostgreSQL: one instance at a time)', async (context) => {
    const opened = await database();
    // PGlite admits one process, so there is no other instance to hold the lock.
    if (opened.kind === 'pglite') context.skip();
    const now = new Date(Date.now() + 500 * DAY);
    const no = await shippedOrder(shopper, { shippedDaysAgo: 9, now });
    const db = await getDb();
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${AUTO_DELIVER_LOCK_KEY})`);
      const blocked = await deliverLongShippedOrders(now);
      expect(blocked).toEqual({ ran: false, delivered: [] });
    });
    expect(await statusOf(no)).toBe('shipped');
    expect((await deliverLongShippedOrders(now)).delivered).toContain(no);
  });

  it('an order its member confirms first is left alone by the round', async () => {
    const now = new Date(Date.now() + 600 * DAY);
    const no = await shippedOrder(shopper, { shippedDaysAgo: 12, now });
    expect((await receive(shopper, no)).status).toBe(200);
    const result = await deliverLongShippedOrders(now);
    expect(result.delivered).not.toContain(no);
    expect(await deliveredEvents(no)).toEqual([{ actorType: 'member', actorId: shopper.id, note: 'ลูกค้ายืนยันว่าได้รับสินค้าแล้ว' }]);
  });
});
