import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as actionRoute from '../../src/pages/admin/orders/[no]/action';
import * as bulkConfirmRoute from '../../src/pages/admin/orders/bulk-confirm';
import { getDb } from '../../src/server/db/client';
import { auditLog, orders } from '../../src/server/db/schema';
import { uploadSlip, type OrderMember } from '../../src/server/orders/order.service';
import { nextSlipAfter, noteSlipLookedAt, NOT_LOOKED_AT } from '../../src/server/orders/slip-review.service';
import { qrAmountSatang } from '../../src/lib/slip-check';
import { TestClient, type CallOptions } from '../fixtures/api-client';
import { createMember, placeTestOrder, productWithStock, type TestMember } from '../fixtures/orders';
import { smallSlip } from '../fixtures/slips';

/**
 * Issue 32, slip review (docs/decisions/175-slip-review-before-money.md): after a decision on a slip the
 * back office moves to the next slip waiting, oldest first; confirming several at once takes only the
 * orders whose current slip the person has opened, each audited as one at a time.
 */

const PNG = await smallSlip();
type RoleName = 'anonymous' | 'member' | 'editor' | 'staff' | 'owner';
const people = {} as Record<Exclude<RoleName, 'anonymous'>, TestMember>;
let shopper: TestMember;

function client(who: RoleName): TestClient {
  const c = new TestClient();
  if (who !== 'anonymous') c.bearer = people[who].token;
  return c;
}

function form(fields: Record<string, string | string[]>, json = true): CallOptions {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) for (const one of [value].flat()) params.append(key, one);
  return { rawBody: params.toString(), contentType: 'application/x-www-form-urlencoded', ...(json ? { headers: { accept: 'application/json' } } : {}) };
}

function flashText(cookie: { value: string } | undefined): string {
  return cookie ? (JSON.parse(Buffer.from(cookie.value, 'base64url').toString('utf8')) as { text: string }).text : '';
}

async function statusOf(orderNo: string) {
  const db = await getDb();
  const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.orderNo, orderNo));
  return row?.status;
}

let minute = 0;
/** An order with a slip waiting for review, placed a minute after the previous one (the queue is oldest first). */
async function waitingOrder(): Promise<string> {
  const product = await productWithStock(50);
  const { order } = await placeTestOrder(shopper, [{ product_code: product.code, amount: 1 }]);
  await uploadSlip(shopper as OrderMember, order.orderNo, PNG);
  minute += 1;
  const db = await getDb();
  await db.update(orders).set({ createdAt: new Date(Date.UTC(2026, 0, 1, 0, minute)) }).where(eq(orders.orderNo, order.orderNo));
  return order.orderNo;
}

beforeAll(async () => {
  people.member = await createMember();
  people.editor = await createMember({ scopes: ['editor'] });
  people.staff = await createMember({ scopes: ['staff'] });
  people.owner = await createMember({ scopes: ['owner'] });
  shopper = await createMember();
});

beforeEach(async () => {
  // Each test owns the queue: slips the demo shop or an earlier test left waiting are settled first.
  const db = await getDb();
  await db.update(orders).set({ status: 'paid' }).where(eq(orders.status, 'payment_review'));
});

describe('the next slip waiting', () => {
  it('goes oldest first after a confirm and a reject, and back to the review tab with a Thai message when none is left', async () => {
    const [first, second, third] = [await waitingOrder(), await waitingOrder(), await waitingOrder()];
    expect(await nextSlipAfter(null)).toBe(first);
    expect(await nextSlipAfter(second)).toBe(third);
    // The last one wraps to the oldest still waiting.
    expect(await nextSlipAfter(third)).toBe(first);

    const staff = client('staff');
    const confirmed = await staff.call(actionRoute, 'POST', `/admin/orders/${first}/action`, {
      ...form({ action: 'confirm_payment', expected_status: 'payment_review' }, false),
      params: { no: first },
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`/admin/orders/${second}`);
    expect(flashText(confirmed.cookies.get('admin_flash'))).toContain(`${first}: ยืนยันการชำระเงินแล้ว`);

    const rejected = await staff.call(actionRoute, 'POST', `/admin/orders/${second}/action`, {
      ...form({ action: 'reject_slip', expected_status: 'payment_review', reason: 'ยอดไม่ตรง' }, false),
      params: { no: second },
    });
    expect(rejected.headers.get('location')).toBe(`/admin/orders/${third}`);
    expect(await statusOf(second)).toBe('pending_payment');

    const last = await staff.call(actionRoute, 'POST', `/admin/orders/${third}/action`, {
      ...form({ action: 'confirm_payment', expected_status: 'payment_review' }, false),
      params: { no: third },
    });
    expect(last.headers.get('location')).toBe('/admin/orders?tab=review');
    expect(flashText(last.cookies.get('admin_flash'))).toContain('ตรวจสลิปครบทุกรายการแล้ว');
    expect(await nextSlipAfter(null)).toBeNull();
  });
});

describe('confirming several from the review tab', () => {
  it('confirms only the slips this person opened, refuses the rest with a Thai message, and audits each confirmation', async () => {
    const [looked, notLooked] = [await waitingOrder(), await waitingOrder()];
    await noteSlipLookedAt(people.staff.id, looked);
    // Someone else's look does not count for this person.
    await noteSlipLookedAt(people.owner.id, notLooked);

    const response = await client('staff').call(bulkConfirmRoute, 'POST', '/admin/orders/bulk-confirm', form({ no: [looked, notLooked] }));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual({ done: [looked], refused: [{ orderNo: notLooked, reason: NOT_LOOKED_AT }] });
    expect(await statusOf(looked)).toBe('paid');
    expect(await statusOf(notLooked)).toBe('payment_review');

    const db = await getDb();
    const trail = await db.select().from(auditLog).where(inArray(auditLog.entityId, [looked, notLooked])).orderBy(auditLog.id);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ action: 'order.confirm_payment', entityId: looked, actorId: people.staff.id, actorRole: 'staff', before: { status: 'payment_review' }, after: { status: 'paid' } });
  });

  it('a look at a slip that was rejected and sent again does not count for the new slip', async () => {
    const orderNo = await waitingOrder();
    await noteSlipLookedAt(people.staff.id, orderNo);
    const staff = client('staff');
    await staff.call(actionRoute, 'POST', `/admin/orders/${orderNo}/action`, { ...form({ action: 'reject_slip', expected_status: 'payment_review', reason: 'รูปไม่ชัด' }), params: { no: orderNo } });
    await uploadSlip(shopper as OrderMember, orderNo, await smallSlip('#ddeeff'));
    expect(await statusOf(orderNo)).toBe('payment_review');

    const refused = await staff.call(bulkConfirmRoute, 'POST', '/admin/orders/bulk-confirm', form({ no: orderNo }));
    expect(refused.body.data).toEqual({ done: [], refused: [{ orderNo, reason: NOT_LOOKED_AT }] });
    expect(await statusOf(orderNo)).toBe('payment_review');
  });

  it('a plain form post goes back to the review tab with the refusals listed in Thai', async () => {
    const orderNo = await waitingOrder();
    const response = await client('owner').call(bulkConfirmRoute, 'POST', '/admin/orders/bulk-confirm', form({ no: orderNo }, false));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin/orders?tab=review');
    const flash = JSON.parse(Buffer.from(response.cookies.get('admin_flash')!.value, 'base64url').toString('utf8')) as { kind: string; text: string; details: string[] };
    expect(flash).toMatchObject({ kind: 'danger', text: 'ยืนยันการชำระเงินแล้ว 0 รายการ · ทำไม่ได้ 1 รายการ', details: [`${orderNo}: ${NOT_LOOKED_AT}`] });
  });

  it('nothing ticked, or a number that is not an order number, is a Thai 400', async () => {
    const empty = await client('staff').call(bulkConfirmRoute, 'POST', '/admin/orders/bulk-confirm', form({}));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('กรุณาเลือกคำสั่งซื้ออย่างน้อย 1 รายการ');
    const bad = await client('staff').call(bulkConfirmRoute, 'POST', '/admin/orders/bulk-confirm', form({ no: '<script>' }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/ไม่ถูกต้อง/);
  });

  for (const [role, expected] of [['anonymous', 404], ['member', 404], ['editor', 403]] as const) {
    it(`${role} gets ${expected} and nothing is confirmed or audited`, async () => {
      const orderNo = await waitingOrder();
      if (role !== 'anonymous') await noteSlipLookedAt(people[role].id, orderNo);
      const response = await client(role).call(bulkConfirmRoute, 'POST', '/admin/orders/bulk-confirm', form({ no: orderNo }));
      expect(response.status).toBe(expected);
      expect(await statusOf(orderNo)).toBe('payment_review');
      const db = await getDb();
      const trail = await db.select().from(auditLog).where(and(eq(auditLog.entityId, orderNo), eq(auditLog.action, 'order.confirm_payment')));
      expect(trail).toHaveLength(0);
    });
  }

  for (const role of ['staff', 'owner'] as const) {
    it(`${role} confirms an opened slip`, async () => {
      const orderNo = await waitingOrder();
      await noteSlipLookedAt(people[role].id, orderNo);
      const response = await client(role).call(bulkConfirmRoute, 'POST', '/admin/orders/bulk-confirm', form({ no: orderNo }));
      expect(response.status).toBe(200);
      expect(await statusOf(orderNo)).toBe('paid');
    });
  }
});

describe('the amount a QR carries', () => {
  it('reads tag 54 of a PromptPay payment QR, and nothing from a slip-verify QR', () => {
    expect(qrAmountSatang('00020101021229370016A000000677010111011300668123456785802TH53037645406123.455802TH6304ABCD')).toBe(12345);
    expect(qrAmountSatang('004100060000010103014022520260101abcdef5102TH91049C30')).toBeNull();
    expect(qrAmountSatang('not a qr')).toBeNull();
    expect(qrAmountSatang(null)).toBeNull();
  });
});
