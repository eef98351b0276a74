import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { members, memberWishlist, products } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/auth/password';
import { MAX_WISHLIST, WISHLIST_FULL_MESSAGE, type WishlistItem } from '../../src/lib/wishlist';
import { wishCountOfProduct } from '../../src/server/wishlist/wishlist.service';
import * as listRoute from '../../src/pages/api/user/wishlist/index';
import * as itemRoute from '../../src/pages/api/user/wishlist/[code]';
import * as dataRoute from '../../src/pages/api/user/data';
import * as closeRoute from '../../src/pages/api/user/close';
import { TestClient } from '../fixtures/api-client';
import { createMember, type TestMember } from '../fixtures/orders';

/**
 * issue 31 §2, docs/decisions/209: a member's wishlist through its endpoints, as the member, another member
 * and a visitor; the cap; products the shop stopped selling; the back office's count per product.
 */

function as(member: TestMember | null): TestClient {
  const client = new TestClient();
  if (member) client.bearer = member.token;
  return client;
}

const list = (member: TestMember | null, query = '') => as(member).call<{ total?: number }>(listRoute, 'GET', `/api/user/wishlist${query}`);
const add = (member: TestMember | null, body: unknown) => as(member).call(listRoute, 'POST', '/api/user/wishlist', { body });
const remove = (member: TestMember | null, code: string) =>
  as(member).call(itemRoute, 'DELETE', `/api/user/wishlist/${encodeURIComponent(code)}`, { params: { code } });

let demo: { id: number; code: string; name: string; priceSatang: number; stock: number }[];

beforeAll(async () => {
  const db = await getDb();
  demo = await db
    .select({ id: products.id, code: products.code, name: products.name, priceSatang: products.priceSatang, stock: products.stock })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(asc(products.id))
    .limit(5);
});

describe('the wishlist endpoints', () => {
  it('adds, lists newest first with price and stock, and removes, for the member only', async () => {
    const member = await createMember();
    const other = await createMember();
    const [first, second] = demo;
    expect((await add(member, { code: first!.code })).body.data).toEqual({ code: first!.code, wished: true, count: 1 });
    expect((await add(member, { code: second!.code })).body.data).toEqual({ code: second!.code, wished: true, count: 2 });
    // Twice is once.
    expect((await add(member, { code: second!.code })).body.data).toEqual({ code: second!.code, wished: true, count: 2 });

    const answer = await list(member);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(answer.body.total).toBe(2);
    const items = answer.body.data as WishlistItem[];
    expect(items.map((item) => item.code).sort()).toEqual([first!.code, second!.code].sort());
    const shown = items.find((item) => item.code === first!.code)!;
    expect(shown).toMatchObject({ name: first!.name, price_satang: first!.priceSatang, price: first!.priceSatang / 100, stock: first!.stock, available: true });
    expect(Date.parse(shown.added_at)).not.toBeNaN();
    expect((await list(member, '?fields=code')).body.data).toEqual(items.map((item) => ({ code: item.code })));

    // Another member sees their own, empty list, and cannot take this member's wish away.
    expect((await list(other)).body).toMatchObject({ data: [], total: 0 });
    expect((await remove(other, first!.code)).body.data).toEqual({ code: first!.code, wished: false, count: 0 });
    expect((await list(member)).body.total).toBe(2);

    expect((await remove(member, first!.code)).body.data).toEqual({ code: first!.code, wished: false, count: 1 });
    expect((await remove(member, first!.code)).body.data).toEqual({ code: first!.code, wished: false, count: 1 });
    expect(((await list(member)).body.data as WishlistItem[]).map((item) => item.code)).toEqual([second!.code]);
  });

  it('answers a visitor 401 with a Thai message, on every method', async () => {
    for (const answer of [await list(null), await add(null, { code: demo[0]!.code }), await remove(null, demo[0]!.code)]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ code: 'unauthorized', message: 'กรุณาเข้าสู่ระบบก่อนดำเนินการ' });
    }
  });

  it('refuses unknown, malformed and withdrawn products with a Thai 4xx', async () => {
    const member = await createMember();
    for (const code of ['NOPE-404', '../etc', 'x'.repeat(65), '<b>']) {
      const answer = await add(member, { code });
      expect(answer.status, code).toBeGreaterThanOrEqual(400);
      expect(answer.status, code).toBeLessThan(500);
      expect(answer.body.message).toMatch(/[\u0E00-\u0E7F]/);
    }
    for (const body of [{}, { code: 12 }, null, []]) {
      const answer = await add(member, body);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/[\u0E00-\u0E7F]/);
    }
    expect((await remove(member, 'NOPE-404')).body).toMatchObject({ code: 'product_not_found', message: 'ไม่พบสินค้านี้' });

    // A product the shop stops selling stays on the list, marked, and can still be taken off; a new wish for it is refused.
    const db = await getDb();
    const product = demo[2]!;
    await add(member, { code: product.code });
    await db.update(products).set({ active: false }).where(eq(products.id, product.id));
    try {
      const items = (await list(member)).body.data as WishlistItem[];
      expect(items.find((item) => item.code === product.code)?.available).toBe(false);
      const other = await createMember();
      expect((await add(other, { code: product.code })).status).toBe(404);
      expect((await remove(member, product.code)).body.data).toMatchObject({ wished: false });
    } finally {
      await db.update(products).set({ active: true }).where(eq(products.id, product.id));
    }
  });

  it(`keeps at most ${MAX_WISHLIST} products and says so in Thai`, async () => {
    const db = await getDb();
    const member = await createMember();
    // Enough products to fill the list and one more: the demo catalog and, if short, hidden copies of one.
    const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(products)) as [{ n: number }];
    const missing = MAX_WISHLIST + 1 - n;
    if (missing > 0) {
      await db.execute(sql`
        insert into products (code, name, category_id, price_satang, stock, active)
        select 'WL' || g, 'สินค้าทดสอบรายการโปรด ' || g, p.category_id, 10000, 5, false
        from generate_series(1, ${missing}) g, (select category_id from products order by id limit 1) p`);
    }
    const spare = demo[3]!;
    await db.execute(sql`
      insert into member_wishlist (member_id, product_id)
      select ${member.id}::uuid, id from products where id <> ${spare.id} order by id limit ${MAX_WISHLIST}`);
    const full = await add(member, { code: spare.code });
    expect(full.status).toBe(409);
    expect(full.body).toEqual({ code: 'wishlist_full', message: WISHLIST_FULL_MESSAGE });
    // What is there already is no new wish; taking one off makes room.
    const [kept] = await db.select({ code: products.code }).from(memberWishlist).innerJoin(products, eq(products.id, memberWishlist.productId)).where(and(eq(memberWishlist.memberId, member.id), eq(products.active, true))).limit(1);
    expect((await add(member, { code: kept!.code })).body.data).toMatchObject({ wished: true, count: MAX_WISHLIST });
    await remove(member, kept!.code);
    expect((await add(member, { code: spare.code })).body.data).toMatchObject({ wished: true, count: MAX_WISHLIST });
    // Two adds racing at the cap do not both get in.
    await remove(member, spare.code);
    const answers = await Promise.all([add(member, { code: spare.code }), add(member, { code: kept!.code })]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(1);
    expect((await list(member, '?fields=code')).body.total).toBe(MAX_WISHLIST);
  });
});

describe('the wishlist elsewhere', () => {
  it('counts the members keeping a product, for the back office', async () => {
    const product = demo[4]!;
    const before = await wishCountOfProduct(product.id);
    const [a, b] = await Promise.all([createMember(), createMember()]);
    await add(a, { code: product.code });
    await add(b, { code: product.code });
    expect(await wishCountOfProduct(product.id)).toBe(before + 2);
    await remove(a, product.code);
    expect(await wishCountOfProduct(product.id)).toBe(before + 1);
  });

  it('is in the member’s data download', async () => {
    const member = await createMember();
    await add(member, { code: demo[0]!.code });
    const answer = await as(member).call<{ wishlist: { code: string; name: string }[] }>(dataRoute, 'GET', '/api/user/data');
    expect(answer.body.wishlist).toEqual([expect.objectContaining({ code: demo[0]!.code, name: demo[0]!.name })]);
  });

  it('goes with a closed account', async () => {
    const db = await getDb();
    const member = await createMember();
    const password = 'รหัสผ่านปิดบัญชี-2569';
    await db.update(members).set({ passwordHash: await hashPassword(password) }).where(eq(members.id, member.id));
    await add(member, { code: demo[1]!.code });
    const closed = await as(member).call(closeRoute, 'POST', '/api/user/close', { body: { password, confirm: true } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(await db.select().from(memberWishlist).where(eq(memberWishlist.memberId, member.id))).toEqual([]);
  });
});
