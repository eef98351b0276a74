import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { memberCartLines, members, productVariants } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/auth/password';
import { MAX_CART_LINES, MAX_LINE_AMOUNT } from '../../src/lib/cart-limits';
import { MAX_CART_CHANGES, MEMBER_CART_BAD_QUANTITY, MEMBER_CART_FULL_MESSAGE, MEMBER_CART_TOO_MANY_CHANGES, type MemberCart, type MemberCartMerge } from '../../src/lib/member-cart';
import { applyCartChanges, savedCartForStaff } from '../../src/server/member-cart/member-cart.service';
import * as cartRoute from '../../src/pages/api/user/cart/index';
import * as mergeRoute from '../../src/pages/api/user/cart/merge';
import * as closeRoute from '../../src/pages/api/user/close';
import * as dataRoute from '../../src/pages/api/user/data';
import { TestClient } from '../fixtures/api-client';
import { createMember, productWithStock, productWithVariants, type TestMember } from '../fixtures/orders';

/**
 * issue 31 part 1, docs/decisions/218: a member's saved cart through its endpoints. The merge at login
 * (same variant, the larger amount), last write wins per line, removals kept as tombstones, the limits
 * and bad input answered 4xx in Thai, withdrawn variants dropped with a note, a closed account's lines gone.
 */

function as(member: TestMember | null): TestClient {
  const client = new TestClient();
  if (member) client.bearer = member.token;
  return client;
}

const get = (member: TestMember | null) => as(member).call<{ data?: MemberCart }>(cartRoute, 'GET', '/api/user/cart');
const patch = (member: TestMember | null, body: unknown) => as(member).call<{ data?: MemberCart & { applied: number; ignored: number } }>(cartRoute, 'PATCH', '/api/user/cart', { body });
const merge = (member: TestMember | null, body: unknown) => as(member).call<{ data?: MemberCartMerge }>(mergeRoute, 'POST', '/api/user/cart/merge', { body });

const at = (iso: string) => new Date(iso).toISOString();
const quantities = (cart: MemberCart | undefined) => Object.fromEntries((cart?.lines ?? []).map((line) => [line.code, line.quantity]));

async function shades(count: number) {
  const { variants } = await productWithVariants(Array.from({ length: count }, () => 50));
  return variants.map((variant) => variant.code);
}

describe('the saved cart endpoints', () => {
  it('keeps lines by variant code, answers them priced with names, for the member only', async () => {
    const member = await createMember();
    const other = await createMember();
    const [peach, rose] = await shades(2);
    const saved = await patch(member, {
      changes: [
        { code: peach, quantity: 2, updated_at: at('2026-01-01T10:00:00Z') },
        { code: rose, quantity: 1, updated_at: at('2026-01-01T10:00:01Z') },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.headers.get('cache-control')).toBe('private, no-store');
    expect(saved.body.data).toMatchObject({ applied: 2, ignored: 0, dropped: [], note: null });
    const answer = await get(member);
    expect(quantities(answer.body.data)).toEqual({ [peach!]: 2, [rose!]: 1 });
    const line = answer.body.data!.lines.find((entry) => entry.code === peach)!;
    expect(line.name).toContain('เฉดที่1');
    expect(line).toMatchObject({ stock: 50, updated_at: '2026-01-01T10:00:00.000Z' });
    expect(line.unit_price).toBeGreaterThan(0);
    // Another member's cart is their own.
    expect((await get(other)).body.data).toEqual({ lines: [], dropped: [], note: null });
  });

  it('answers a visitor 401 in Thai on every method', async () => {
    for (const answer of [await get(null), await patch(null, { changes: [] }), await merge(null, { items: [] })]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ code: 'unauthorized', message: 'กรุณาเข้าสู่ระบบก่อนดำเนินการ' });
    }
  });

  it('merges a device cart at login: same variant, the larger amount; and says what moved', async () => {
    const member = await createMember();
    const [a, b, c] = await shades(3);
    await patch(member, {
      changes: [
        { code: a, quantity: 5, updated_at: at('2026-02-01T00:00:00Z') },
        { code: b, quantity: 1, updated_at: at('2026-02-01T00:00:00Z') },
      ],
    });
    // The device holds 2 of a (fewer than saved), 3 of b (more) and c (new).
    const merged = await merge(member, { items: [{ code: a, quantity: 2 }, { code: b, quantity: 3 }, { code: c, quantity: 1 }] });
    expect(merged.status).toBe(200);
    expect(quantities(merged.body.data)).toEqual({ [a!]: 5, [b!]: 3, [c!]: 1 });
    expect(merged.body.data).toMatchObject({
      from_account: 1,
      from_device: 2,
      merge_note: 'รวมตะกร้าจากบัญชีของคุณแล้ว: เพิ่ม 1 รายการ · บันทึกสินค้าในตะกร้าของเครื่องนี้ไว้กับบัญชีของคุณ 2 รายการ',
    });
    // A second device with nothing: everything comes from the account.
    const second = await merge(member, { items: [] });
    expect(second.body.data).toMatchObject({ from_account: 3, from_device: 0, merge_note: 'รวมตะกร้าจากบัญชีของคุณแล้ว: เพิ่ม 3 รายการ' });
    // The same cart again: nothing moved, nothing to say.
    const again = await merge(member, { items: [{ code: a, quantity: 5 }, { code: b, quantity: 3 }, { code: c, quantity: 1 }] });
    expect(again.body.data).toMatchObject({ from_account: 0, from_device: 0, merge_note: null });
  });

  it('last write wins per line: an older change is ignored, a newer one applied, line by line', async () => {
    const member = await createMember();
    const [a, b] = await shades(2);
    await patch(member, {
      changes: [
        { code: a, quantity: 4, updated_at: at('2026-03-01T12:00:00Z') },
        { code: b, quantity: 4, updated_at: at('2026-03-01T12:00:00Z') },
      ],
    });
    // Device B was offline: its change of a is older, its change of b newer.
    const late = await patch(member, {
      changes: [
        { code: a, quantity: 9, updated_at: at('2026-03-01T11:00:00Z') },
        { code: b, quantity: 7, updated_at: at('2026-03-01T13:00:00Z') },
      ],
    });
    expect(late.body.data).toMatchObject({ applied: 1, ignored: 1 });
    expect(quantities(late.body.data)).toEqual({ [a!]: 4, [b!]: 7 });
    // Two changes of one line in one request: the later counts, whatever their order.
    await patch(member, {
      changes: [
        { code: a, quantity: 8, updated_at: at('2026-03-02T00:00:02Z') },
        { code: a, quantity: 6, updated_at: at('2026-03-02T00:00:01Z') },
      ],
    });
    expect(quantities((await get(member)).body.data)[a!]).toBe(8);
  });

  it('a removal is a tombstone: an older add sent late does not bring the line back; a newer one does', async () => {
    const member = await createMember();
    const [a] = await shades(1);
    // Times of today: removals older than 30 days are forgotten, so these are hours before now.
    const hour = (n: number) => new Date(Date.now() - (10 - n) * 3_600_000).toISOString();
    await patch(member, { changes: [{ code: a, quantity: 2, updated_at: hour(0) }] });
    const removed = await patch(member, { changes: [{ code: a, quantity: 0, updated_at: hour(1) }] });
    expect(removed.body.data!.lines).toEqual([]);
    const db = await getDb();
    const [row] = await db.select().from(memberCartLines).where(and(eq(memberCartLines.memberId, member.id), eq(memberCartLines.variantCode, a!)));
    expect(row).toMatchObject({ quantity: 0 });

    const stale = await patch(member, { changes: [{ code: a, quantity: 3, updated_at: hour(0.5) }] });
    expect(stale.body.data).toMatchObject({ applied: 0, ignored: 1, lines: [] });
    const fresh = await patch(member, { changes: [{ code: a, quantity: 1, updated_at: hour(2) }] });
    expect(quantities(fresh.body.data)).toEqual({ [a!]: 1 });
    // A removal of a code never saved nor sold keeps nothing.
    await patch(member, { changes: [{ code: 'NO-SUCH-VARIANT', quantity: 0, updated_at: hour(2) }] });
    expect(await db.select().from(memberCartLines).where(and(eq(memberCartLines.memberId, member.id), eq(memberCartLines.variantCode, 'NO-SUCH-VARIANT')))).toEqual([]);
  });

  it('a time from a device clock ahead of the server counts as now, so it cannot pin a line', async () => {
    const member = await createMember();
    const [a] = await shades(1);
    const now = new Date('2026-05-01T00:00:00Z');
    await applyCartChanges(member.id, [{ code: a!, quantity: 3, updated_at: '2030-01-01T00:00:00.000Z' }], now);
    const cart = await applyCartChanges(member.id, [{ code: a!, quantity: 1, updated_at: '2026-05-01T00:00:01.000Z' }], new Date('2026-05-01T00:00:05Z'));
    expect(cart.lines[0]).toMatchObject({ quantity: 1, updated_at: '2026-05-01T00:00:01.000Z' });
  });

  it('forgets removals after 30 days', async () => {
    const member = await createMember();
    const [a, b] = await shades(2);
    await applyCartChanges(member.id, [{ code: a!, quantity: 0, updated_at: '2026-01-01T00:00:00.000Z' }], new Date('2026-01-01T00:00:00Z'));
    const db = await getDb();
    expect(await db.select().from(memberCartLines).where(eq(memberCartLines.memberId, member.id))).toHaveLength(1);
    await applyCartChanges(member.id, [{ code: b!, quantity: 1, updated_at: '2026-02-15T00:00:00.000Z' }], new Date('2026-02-15T00:00:00Z'));
    const rows = await db.select({ code: memberCartLines.variantCode }).from(memberCartLines).where(eq(memberCartLines.memberId, member.id));
    expect(rows).toEqual([{ code: b }]);
  });

  it('drops unknown and withdrawn variants with a Thai note, never a 500', async () => {
    const member = await createMember();
    const [a, b] = await shades(2);
    const db = await getDb();
    await db.update(productVariants).set({ active: false }).where(eq(productVariants.code, b!));
    const answer = await patch(member, {
      changes: [
        { code: a, quantity: 1, updated_at: at('2026-06-01T00:00:00Z') },
        { code: b, quantity: 1, updated_at: at('2026-06-01T00:00:00Z') },
        { code: 'NO-SUCH-VARIANT', quantity: 1, updated_at: at('2026-06-01T00:00:00Z') },
      ],
    });
    expect(answer.status).toBe(200);
    expect(quantities(answer.body.data)).toEqual({ [a!]: 1 });
    expect(answer.body.data!.dropped).toEqual([
      { code: b, reason: 'unavailable' },
      { code: 'NO-SUCH-VARIANT', reason: 'unavailable' },
    ]);
    expect(answer.body.data!.note).toBe(`สินค้าที่ไม่มีจำหน่ายแล้วไม่ได้บันทึกในตะกร้าของบัญชี: ${b}, NO-SUCH-VARIANT`);
    const merged = await merge(member, { items: [{ code: 'NO-SUCH-VARIANT', quantity: 2 }] });
    expect(merged.status).toBe(200);
    expect(merged.body.data!.dropped).toEqual([{ code: 'NO-SUCH-VARIANT', reason: 'unavailable' }]);

    // A saved line whose variant is withdrawn later is left out of the answer with the note; staff still see it.
    await db.update(productVariants).set({ active: false }).where(eq(productVariants.code, a!));
    const later = await get(member);
    expect(later.body.data).toMatchObject({ lines: [], dropped: [{ code: a, reason: 'unavailable' }] });
    expect(await savedCartForStaff(member.id)).toEqual([expect.objectContaining({ code: a, quantity: 1, available: false })]);
  });

  it('bounds the cart: lines, amounts and changes per request, refused 4xx in Thai', async () => {
    const member = await createMember();
    const [a] = await shades(1);
    const bad = async (body: unknown, message: string, status = 400) => {
      const answer = await patch(member, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.message).toBe(message);
    };
    await bad({ changes: [{ code: a, quantity: MAX_LINE_AMOUNT + 1, updated_at: at('2026-07-01T00:00:00Z') }] }, MEMBER_CART_BAD_QUANTITY);
    await bad({ changes: [{ code: a, quantity: -1, updated_at: at('2026-07-01T00:00:00Z') }] }, MEMBER_CART_BAD_QUANTITY);
    await bad({ changes: [{ code: a, quantity: 1.5, updated_at: at('2026-07-01T00:00:00Z') }] }, MEMBER_CART_BAD_QUANTITY);
    await bad({ changes: [{ code: a, quantity: '2', updated_at: at('2026-07-01T00:00:00Z') }] }, MEMBER_CART_BAD_QUANTITY);
    await bad({ changes: [{ code: a, quantity: 1, updated_at: 'เมื่อวาน' }] }, 'เวลาที่แก้ไขตะกร้าไม่ถูกต้อง');
    await bad({ changes: [{ code: '<script>', quantity: 1, updated_at: at('2026-07-01T00:00:00Z') }] }, 'รหัสสินค้าไม่ถูกต้อง');
    await bad({ changes: 'ทั้งหมด' }, 'ข้อมูลตะกร้าสินค้าไม่ถูกต้อง');
    await bad(
      { changes: Array.from({ length: MAX_CART_CHANGES + 1 }, () => ({ code: a, quantity: 1, updated_at: at('2026-07-01T00:00:00Z') })) },
      MEMBER_CART_TOO_MANY_CHANGES,
    );
    const merged = await merge(member, { items: [{ code: a, quantity: 0 }] });
    expect(merged.status).toBe(400);
    expect(merged.body.message).toBe(MEMBER_CART_BAD_QUANTITY);
    const notJson = await as(member).call(cartRoute, 'PATCH', '/api/user/cart', { rawBody: '{', contentType: 'application/json' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBe('ข้อมูลที่ส่งมาไม่ถูกต้อง');

    // More than MAX_CART_LINES lines: the PATCH is refused whole (409), the merge keeps what fits.
    const db = await getDb();
    const many = await db.select({ code: productVariants.code }).from(productVariants).where(eq(productVariants.active, true)).limit(MAX_CART_LINES + 1);
    expect(many.length).toBe(MAX_CART_LINES + 1);
    const changes = many.map((row) => ({ code: row.code, quantity: 1, updated_at: at('2026-07-02T00:00:00Z') }));
    await bad({ changes }, MEMBER_CART_FULL_MESSAGE, 409);
    expect(await db.select().from(memberCartLines).where(eq(memberCartLines.memberId, member.id))).toEqual([]);
    expect((await patch(member, { changes: changes.slice(0, MAX_CART_LINES) })).status).toBe(200);
    const full = await merge(member, { items: [{ code: many.at(-1)!.code, quantity: 1 }] });
    expect(full.status).toBe(200);
    expect(full.body.data!.lines).toHaveLength(MAX_CART_LINES);
    expect(full.body.data!.dropped).toEqual([{ code: many.at(-1)!.code, reason: 'full' }]);
    expect(full.body.data!.note).toContain(MEMBER_CART_FULL_MESSAGE);
  });

  it('refuses a cross-origin change from a cookie session (403)', async () => {
    const member = await createMember();
    const client = new TestClient();
    client.jar.set('shop_session', member.token);
    const answer = await client.call(cartRoute, 'PATCH', '/api/user/cart', { body: { changes: [] }, origin: 'https://evil.example' });
    expect(answer.status).toBe(403);
  });

  it('is in the data download, and a closed account has no saved cart left', async () => {
    const member = await createMember();
    const password = 'รหัสผ่านสมาชิก-ทดสอบ-2569';
    const db = await getDb();
    await db.update(members).set({ passwordHash: await hashPassword(password) }).where(eq(members.id, member.id));
    const product = await productWithStock(10);
    await patch(member, { changes: [{ code: product.code, quantity: 2, updated_at: new Date().toISOString() }] });
    const data = await as(member).call<Record<string, unknown>>(dataRoute, 'GET', '/api/user/data');
    expect(JSON.stringify(data.body)).toContain(`"savedCart":[{"code":"${product.code}"`);

    const closed = await as(member).call(closeRoute, 'POST', '/api/user/close', { body: { password, confirm: true } });
    expect(closed.status).toBe(200);
    expect(await db.select().from(memberCartLines).where(eq(memberCartLines.memberId, member.id))).toEqual([]);
  });

  it('deleting a member deletes their lines', async () => {
    const member = await createMember();
    const [a] = await shades(1);
    await patch(member, { changes: [{ code: a, quantity: 1, updated_at: new Date().toISOString() }] });
    const db = await getDb();
    await db.delete(members).where(eq(members.id, member.id));
    expect(await db.select().from(memberCartLines).where(eq(memberCartLines.memberId, member.id))).toEqual([]);
  });
});
