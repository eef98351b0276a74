import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as createRoute from '../../src/pages/admin/promotions/create';
import * as saveRoute from '../../src/pages/admin/promotions/[code]/save';
import { POST as orderQuoteRoute } from '../../src/pages/api/order-quote';
import { POST as checkPromotionRoute } from '../../src/pages/api/check-promotion';
import { POST as statusRoute } from '../../src/pages/api/order-status-update';
import { getDb } from '../../src/server/db/client';
import { auditLog, promotions } from '../../src/server/db/schema';
import { AppError } from '../../src/server/http/errors';
import { promotionForAdmin } from '../../src/server/promotions/promotion-admin.service';
import { dateToBangkokLocal } from '../../src/lib/promotion-schemas';
import { adminCallers, expectRoleMatrix, flashOf, form, type AdminCallers } from '../fixtures/admin';
import { call, createMember, placeTestOrder, productWithStock, stockOf, type TestMember } from '../fixtures/orders';

/**
 * Issue 29: a promotion may be limited per member (ใช้ได้คนละ N ครั้ง) and to a member's first order;
 * the demo's WELCOME10 is both. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const DAY = 86_400_000;
const ONCE_EACH = 'โค้ดส่วนลดนี้ใช้ได้คนละ 1 ครั้ง และคุณใช้ครบแล้ว';
const FIRST_ORDER = 'โค้ดส่วนลดนี้ใช้ได้เฉพาะคำสั่งซื้อแรกของสมาชิก และคุณเคยสั่งซื้อแล้ว';

/** A running ฿10-off code for the whole shop with no total limit and these member rules. */
async function promotionWith(code: string, rules: { perMemberLimit?: number; firstOrderOnly?: boolean }): Promise<string> {
  const db = await getDb();
  await db.insert(promotions).values({
    code,
    name: `ทดสอบ ${code}`,
    discountType: 'fixed',
    discountValue: 1_000,
    startsAt: new Date(Date.now() - DAY),
    endsAt: new Date(Date.now() + 30 * DAY),
    ...rules,
  });
  return code;
}

/** One line of a product no other order in this file has touched, enough for WELCOME10's ฿300 minimum. */
async function freshLine(): Promise<{ product_code: string; amount: number }> {
  const product = await productWithStock(100);
  return { product_code: product.code, amount: Math.ceil(40_000 / product.priceSatang) };
}

function refusedWith(code: string) {
  return (error: unknown) => error instanceof AppError && error.status === 400 && error.code === code;
}

async function cancel(member: TestMember, orderNo: string): Promise<void> {
  const answer = await call(statusRoute, { token: member.token, json: { no: orderNo, action: 'cancel' } });
  expect((answer.body.data as { status: string }).status).toBe('cancelled');
}

describe('a limit per member', () => {
  it('refuses a member’s second order with the code, names the reason, and leaves other members be', async () => {
    const code = await promotionWith('ONCEEACH', { perMemberLimit: 1 });
    const [a, b] = [await createMember(), await createMember()];
    const { order: first } = await placeTestOrder(a, [await freshLine()], { promotionCode: code });
    expect(first.promotionCode).toBe(code);
    expect(first.discountSatang).toBe(1_000);

    const second = await freshLine();
    await expect(placeTestOrder(a, [second], { promotionCode: 'onceeach' })).rejects.toSatisfy(refusedWith('promotion_member_limit'));
    await expect(placeTestOrder(a, [second], { promotionCode: code })).rejects.toThrow(ONCE_EACH);
    expect(await stockOf(second.product_code)).toBe(100);
    // Without the code the same member orders as ever.
    await placeTestOrder(a, [second]);

    const { order: other } = await placeTestOrder(b, [await freshLine()], { promotionCode: code });
    expect(other.discountSatang).toBe(1_000);

    // A cancelled order does not count: the member may use the code again.
    await cancel(a, first.orderNo);
    const { order: again } = await placeTestOrder(a, [await freshLine()], { promotionCode: code });
    expect(again.promotionCode).toBe(code);
  });

  it('counts to the limit set, and the message names it', async () => {
    const code = await promotionWith('TWICEEACH', { perMemberLimit: 2 });
    const member = await createMember();
    await placeTestOrder(member, [await freshLine()], { promotionCode: code });
    await placeTestOrder(member, [await freshLine()], { promotionCode: code });
    await expect(placeTestOrder(member, [await freshLine()], { promotionCode: code })).rejects.toThrow(
      'โค้ดส่วนลดนี้ใช้ได้คนละ 2 ครั้ง และคุณใช้ครบแล้ว',
    );
  });
});

describe('first order only', () => {
  it('refuses a member with an earlier paid order, and lets one whose only order was cancelled use it', async () => {
    const code = await promotionWith('FIRSTONLY', { firstOrderOnly: true });
    const paidBefore = await createMember();
    const { order: paid } = await placeTestOrder(paidBefore, [await freshLine()], { paymentMethod: 'cod' });
    expect(paid.status).toBe('paid');
    const line = await freshLine();
    await expect(placeTestOrder(paidBefore, [line], { promotionCode: code })).rejects.toSatisfy(refusedWith('promotion_first_order_only'));
    await expect(placeTestOrder(paidBefore, [line], { promotionCode: code })).rejects.toThrow(FIRST_ORDER);
    expect(await stockOf(line.product_code)).toBe(100);

    const cancelledBefore = await createMember();
    const { order: cancelled } = await placeTestOrder(cancelledBefore, [await freshLine()]);
    await cancel(cancelledBefore, cancelled.orderNo);
    const { order: first } = await placeTestOrder(cancelledBefore, [await freshLine()], { promotionCode: code });
    expect(first.promotionCode).toBe(code);

    // The order that used it is an order: the next one is no longer the first.
    await expect(placeTestOrder(cancelledBefore, [await freshLine()], { promotionCode: code })).rejects.toThrow(FIRST_ORDER);
  });
});

describe('the demo’s WELCOME10', () => {
  it('is once per member and for the first order only', async () => {
    const db = await getDb();
    const [row] = await db.select().from(promotions).where(eq(promotions.code, 'WELCOME10'));
    expect(row).toMatchObject({ perMemberLimit: 1, firstOrderOnly: true });
    const member = await createMember();
    await placeTestOrder(member, [await freshLine()], { promotionCode: 'WELCOME10' });
    await expect(placeTestOrder(member, [await freshLine()], { promotionCode: 'WELCOME10' })).rejects.toThrow(ONCE_EACH);
    const ordered = await createMember();
    await placeTestOrder(ordered, [await freshLine()]);
    await expect(placeTestOrder(ordered, [await freshLine()], { promotionCode: 'WELCOME10' })).rejects.toThrow(FIRST_ORDER);
  });
});

describe('two tabs at the same moment', () => {
  // Different products in each tab: no product row is shared, so only the member's own lock can make
  // one order see the other.
  it('gives a once-per-member code to exactly one of two orders placed together', async () => {
    const code = await promotionWith('RACEONCE', { perMemberLimit: 1 });
    for (let round = 0; round < 3; round += 1) {
      const member = await createMember();
      const lines = [await freshLine(), await freshLine()];
      const results = await Promise.allSettled(lines.map((line) => placeTestOrder(member, [line], { promotionCode: code })));
      expect(results.filter((result) => result.status === 'fulfilled'), `round ${round}`).toHaveLength(1);
      const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
      expect(refusedWith('promotion_member_limit')(refused.reason)).toBe(true);
      // The refused tab took no stock.
      const refusedLine = lines[results.indexOf(refused)]!;
      expect(await stockOf(refusedLine.product_code)).toBe(100);
    }
  });

  it('gives WELCOME10 to exactly one of two first orders placed together', async () => {
    for (let round = 0; round < 3; round += 1) {
      const member = await createMember();
      const results = await Promise.allSettled([
        placeTestOrder(member, [await freshLine()], { promotionCode: 'WELCOME10' }),
        placeTestOrder(member, [await freshLine()], { promotionCode: 'WELCOME10' }),
      ]);
      expect(results.filter((result) => result.status === 'fulfilled'), `round ${round}`).toHaveLength(1);
    }
  });
});

describe('the reason before the order is placed', () => {
  it('the checkout quote and the code check give the member the Thai reason; a visitor is not told', async () => {
    const member = await createMember();
    const line = await freshLine();
    await placeTestOrder(member, [await freshLine()], { promotionCode: 'WELCOME10' });

    const quote = await call(orderQuoteRoute, { token: member.token, json: { lines: [line], delivery_code: 'kerry', promotion_code: 'WELCOME10' } });
    expect(quote.status).toBe(200);
    const data = quote.body.data as { promotion: unknown; promotion_error: { code: string; message: string } | null; discount_price: number };
    expect(data.promotion_error).toEqual({ code: 'promotion_member_limit', message: ONCE_EACH });
    expect(data.promotion).toBeNull();
    expect(data.discount_price).toBe(0);

    const checked = await call(checkPromotionRoute, { token: member.token, json: { code: 'welcome10', lines: [line] } });
    expect(checked.status).toBe(400);
    expect(checked.body).toMatchObject({ code: 'promotion_member_limit', message: ONCE_EACH });

    const newcomer = await createMember();
    const fresh = await call(orderQuoteRoute, { token: newcomer.token, json: { lines: [line], delivery_code: 'kerry', promotion_code: 'WELCOME10' } });
    expect((fresh.body.data as { promotion_error: unknown; discount_price: number }).promotion_error).toBeNull();
    expect((fresh.body.data as { discount_price: number }).discount_price).toBeGreaterThan(0);
    const visitor = await call(checkPromotionRoute, { json: { code: 'WELCOME10', lines: [line] } });
    expect(visitor.status).toBe(200);
  });
});

describe('the promotion form', () => {
  let callers: AdminCallers;
  beforeAll(async () => {
    callers = await adminCallers();
  });

  const promotionForm = (overrides: Record<string, string> = {}) =>
    form({
      code: 'FORMLIMIT',
      name: 'ลูกค้าใหม่ลด ฿50',
      discountType: 'fixed',
      discountAmount: '50',
      startsAt: dateToBangkokLocal(new Date(Date.now() - DAY)),
      endsAt: dateToBangkokLocal(new Date(Date.now() + 30 * DAY)),
      active: 'on',
      bannerColor: '#ffd000',
      perMemberLimit: '2',
      firstOrderOnly: 'on',
      ...overrides,
    });

  it('saves both rules for whoever keeps promotion codes (owner, staff); editors 403, no role 404', async () => {
    let n = 0;
    await expectRoleMatrix(callers, createRoute, 'POST', '/admin/promotions/create', () => promotionForm({ code: `LIMITROLE${++n}` }), ['staff', 'owner']);
    const db = await getDb();
    const made = await db.select().from(promotions).where(eq(promotions.code, 'LIMITROLE4'));
    expect(made).toMatchObject([{ perMemberLimit: 2, firstOrderOnly: true }]);
    expect(await db.select().from(promotions).where(eq(promotions.code, 'LIMITROLE3'))).toHaveLength(0);

    const created = await callers.clients.staff.call(createRoute, 'POST', '/admin/promotions/create', promotionForm());
    expect(flashOf(created)?.kind).toBe('success');
    // What the form page shows again.
    expect(await promotionForAdmin('formlimit')).toMatchObject({ perMemberLimit: 2, firstOrderOnly: true });

    const cleared = await callers.clients.owner.call(saveRoute, 'POST', '/admin/promotions/FORMLIMIT/save', {
      ...form({ ...Object.fromEntries(new URLSearchParams(promotionForm().rawBody)), perMemberLimit: '', firstOrderOnly: '' }),
      params: { code: 'FORMLIMIT' },
    });
    expect(flashOf(cleared)?.kind).toBe('success');
    expect(await promotionForAdmin('FORMLIMIT')).toMatchObject({ perMemberLimit: null, firstOrderOnly: false });
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.action, 'promotion.update'), eq(auditLog.entityId, 'FORMLIMIT'))).orderBy(desc(auditLog.id));
    expect(audit?.before).toMatchObject({ perMemberLimit: 2, firstOrderOnly: true });
    expect(audit?.after).toMatchObject({ perMemberLimit: null, firstOrderOnly: false });
  });

  it('refuses a limit that is not a whole number of at least 1 with a Thai message', async () => {
    for (const perMemberLimit of ['0', '1.5', 'หนึ่ง']) {
      const result = await callers.clients.owner.call(createRoute, 'POST', '/admin/promotions/create', promotionForm({ code: 'BADLIMIT', perMemberLimit }));
      expect(result.status).toBe(303);
      expect(flashOf(result)).toMatchObject({ kind: 'danger' });
      expect(flashOf(result)?.text).toContain('จำนวนครั้งต่อคนต้องเป็นจำนวนเต็มตั้งแต่ 1 ขึ้นไป');
    }
    const db = await getDb();
    expect(await db.select().from(promotions).where(eq(promotions.code, 'BADLIMIT'))).toHaveLength(0);
  });
});
