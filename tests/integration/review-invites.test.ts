import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { mailOutbox, members, orders } from '../../src/server/db/schema';
import { changeOrderStatus, getOrder } from '../../src/server/orders/order.service';
import { deliverLongShippedOrders } from '../../src/server/orders/order-auto-deliver';
import { queueReviewInvite, renderReviewInviteMail } from '../../src/server/reviews/review-invites';
import { getCompany } from '../../src/server/company/company.service';
import * as statusUpdateRoute from '../../src/pages/api/order-status-update';
import * as settingsRoute from '../../src/pages/admin/settings/[section]';
import { TestClient } from '../fixtures/api-client';
import { adminCallers, flashOf, form, type AdminCallers } from '../fixtures/admin';
import { createMember, placeTestOrder, productWithStock, type TestMember } from '../fixtures/orders';
import { latestMailTo, settleOutbox } from '../fixtures/outbox';

/**
 * issue 31 part 3: after delivery one mail invites the member to review (docs/decisions/226). Each path
 * to `delivered` (staff, the member's "ได้รับสินค้าแล้ว", the automatic sweep) queues exactly one, in the
 * delivery's own transaction; never a second (the order's stamp); none with the setting off, none to a
 * closed account, none for an order that never arrived. The mail as sent names the order and links to
 * My Purchase. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */

const DAY = 86_400_000;
let callers: AdminCallers;
let ownerId: string;

async function shippedOrder(member: TestMember): Promise<string> {
  const product = await productWithStock(20);
  const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 1 }]);
  const staff = { type: 'staff' as const, id: ownerId };
  await changeOrderStatus(staff, order.orderNo, { action: 'confirm_payment' });
  await changeOrderStatus(staff, order.orderNo, { action: 'ship', trackingNo: 'KEX123456789' });
  return order.orderNo;
}

async function invitesFor(orderNo: string): Promise<{ to: string }[]> {
  const db = await getDb();
  return db
    .select({ to: mailOutbox.toAddress })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, 'review_invite'), sql`${mailOutbox.payload}->>'orderNo' = ${orderNo}`));
}

async function stampOf(orderNo: string): Promise<Date | null> {
  const db = await getDb();
  const [row] = await db.select({ at: orders.reviewInviteQueuedAt }).from(orders).where(eq(orders.orderNo, orderNo));
  return row?.at ?? null;
}

async function setInvites(on: boolean): Promise<void> {
  const saved = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/reviews', { ...form(on ? { reviewInvites: 'on' } : {}), params: { section: 'reviews' } });
  expect(flashOf(saved)?.kind).toBe('success');
}

const member = (who: TestMember) => ({ type: 'member' as const, id: who.id });

beforeAll(async () => {
  callers = await adminCallers();
  ownerId = callers.members.owner.id;
});

describe('one invite per delivered order, whichever way it was delivered', () => {
  it('staff mark it delivered: one mail to the member, the order stamped', async () => {
    const buyer = await createMember();
    const no = await shippedOrder(buyer);
    expect(await invitesFor(no)).toEqual([]);
    await changeOrderStatus({ type: 'staff', id: ownerId }, no, { action: 'deliver' });
    expect(await invitesFor(no)).toEqual([{ to: buyer.email }]);
    expect(await stampOf(no)).toBeInstanceOf(Date);
  });

  it('the member presses ได้รับสินค้าแล้ว: one mail', async () => {
    const buyer = await createMember();
    const no = await shippedOrder(buyer);
    const client = new TestClient();
    client.bearer = buyer.token;
    const answer = await client.call(statusUpdateRoute, 'POST', '/api/order-status-update', { body: { no, action: 'receive' } });
    expect(answer.status).toBe(200);
    expect(await invitesFor(no)).toEqual([{ to: buyer.email }]);
  });

  it('the automatic sweep delivers it: one mail', async () => {
    const buyer = await createMember();
    const no = await shippedOrder(buyer);
    const db = await getDb();
    const now = new Date();
    await db.update(orders).set({ shippedAt: new Date(now.getTime() - 30 * DAY) }).where(eq(orders.orderNo, no));
    const round = await deliverLongShippedOrders(now);
    expect(round.delivered).toContain(no);
    expect(await invitesFor(no)).toEqual([{ to: buyer.email }]);
  });

  it('never twice: a second delivery attempt, a status moved back and forth, a direct second queueing', async () => {
    const buyer = await createMember();
    const no = await shippedOrder(buyer);
    await changeOrderStatus({ type: 'staff', id: ownerId }, no, { action: 'deliver' });
    // The member's press after staff's, and the sweep's: refused, nothing queued.
    await expect(changeOrderStatus(member(buyer), no, { action: 'receive' })).rejects.toMatchObject({ status: 409 });
    // Back to shipped by hand (an operator's repair) and delivered again: the stamp holds.
    const db = await getDb();
    await db.update(orders).set({ status: 'shipped' }).where(eq(orders.orderNo, no));
    await changeOrderStatus(member(buyer), no, { action: 'receive' });
    const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, no));
    expect(await db.transaction((tx) => queueReviewInvite(tx, row!.id, new Date()))).toBe(false);
    expect(await invitesFor(no)).toHaveLength(1);
  });

  it('two deliveries racing (staff and the sweep, as on two instances): one delivery, one mail', async () => {
    const buyer = await createMember();
    const no = await shippedOrder(buyer);
    const db = await getDb();
    const now = new Date();
    await db.update(orders).set({ shippedAt: new Date(now.getTime() - 30 * DAY) }).where(eq(orders.orderNo, no));
    const results = await Promise.allSettled([changeOrderStatus({ type: 'staff', id: ownerId }, no, { action: 'deliver', note: '' }, { expectedStatus: 'shipped' }), deliverLongShippedOrders(now), changeOrderStatus(member(buyer), no, { action: 'receive' })]);
    expect(results.some((result) => result.status === 'fulfilled')).toBe(true);
    expect(await invitesFor(no)).toHaveLength(1);
  });
});

describe('no invite', () => {
  it('with the setting off: no mail and no stamp', async () => {
    await setInvites(false);
    try {
      const buyer = await createMember();
      const no = await shippedOrder(buyer);
      await changeOrderStatus({ type: 'staff', id: ownerId }, no, { action: 'deliver' });
      expect(await invitesFor(no)).toEqual([]);
      expect(await stampOf(no)).toBeNull();
    } finally {
      await setInvites(true);
    }
  });

  it('to a closed account, or for an order cancelled before it shipped', async () => {
    const closing = await createMember();
    const no = await shippedOrder(closing);
    const db = await getDb();
    await db.update(members).set({ closedAt: new Date() }).where(eq(members.id, closing.id));
    await changeOrderStatus({ type: 'staff', id: ownerId }, no, { action: 'deliver' });
    expect(await invitesFor(no)).toEqual([]);

    const buyer = await createMember();
    const product = await productWithStock(5);
    const { order } = await placeTestOrder(buyer, [{ product_code: product.code, amount: 1 }]);
    await changeOrderStatus({ type: 'staff', id: ownerId }, order.orderNo, { action: 'confirm_payment' });
    await changeOrderStatus({ type: 'staff', id: ownerId }, order.orderNo, { action: 'cancel', note: 'ลูกค้าขอยกเลิก' });
    expect(await invitesFor(order.orderNo)).toEqual([]);
    const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, order.orderNo));
    expect(await db.transaction((tx) => queueReviewInvite(tx, row!.id, new Date()))).toBe(false);
  });
});

describe('the mail as sent', () => {
  it('names the order and its products and links to My Purchase, where the reviews are written', async () => {
    const buyer = await createMember();
    const no = await shippedOrder(buyer);
    await changeOrderStatus({ type: 'staff', id: ownerId }, no, { action: 'deliver' });
    await settleOutbox();
    const mail = latestMailTo(process.env.DATA_DIR!, buyer.email, '/user/purchase?tab=completed');
    expect(mail).not.toBeNull();
    // The subject as RFC 2047 words, folded over several lines.
    const subject = Buffer.concat([...mail!.subject.matchAll(/=\?UTF-8\?B\?([^?]*)\?=/gi)].map((word) => Buffer.from(word[1] ?? '', 'base64'))).toString('utf8');
    expect(subject).toBe(`รีวิวสินค้าจากคำสั่งซื้อ ${no}`);
    const order = await getOrder({ type: 'system', id: null }, no);
    expect(mail!.text).toContain(no);
    expect(mail!.text).toContain('/user/purchase?tab=completed');
    for (const line of order.lines) expect(mail!.text).toContain(line.productName);

    // The HTML escapes what it prints: a product name with markup stays text.
    const rendered = await renderReviewInviteMail({ ...order, lines: order.lines.map((line) => ({ ...line, productName: '<img src=x onerror=alert(1)> ลิปสติก' })) }, await getCompany());
    expect(rendered.html).not.toContain('<img src=x');
    expect(rendered.html).toContain('&lt;img src=x onerror=alert(1)&gt; ลิปสติก');
    expect(rendered.html).toContain('/user/purchase?tab=completed');
  });
});
