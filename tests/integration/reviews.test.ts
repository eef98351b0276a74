import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { auditLog, company, members, orderLines, orders, productReviews, products } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/auth/password';
import { storage } from '../../src/server/storage/storage';
import { productReviews as readProductReviews, type PublicReview, type ReviewSummary } from '../../src/server/reviews/review-read.service';
import { cleanReviewBody } from '../../src/server/reviews/review-write.service';
import * as myReviewsRoute from '../../src/pages/api/user/reviews/index';
import * as reviewableRoute from '../../src/pages/api/user/reviews/reviewable';
import * as productReviewsRoute from '../../src/pages/api/product/[code]/reviews';
import * as dataRoute from '../../src/pages/api/user/data';
import * as closeRoute from '../../src/pages/api/user/close';
import { TestClient } from '../fixtures/api-client';
import { createMember, placeTestOrder, productWithStock, productWithVariants, type TestMember } from '../fixtures/orders';
import { hugePng, slipPhotoWithGps } from '../fixtures/slips';

/**
 * issue 31 part 3, docs/decisions/224: reviews from real buyers, the shopper's side, through the real
 * endpoints, database (its trigger counting published reviews on the product) and picture pipeline.
 */

function as(member: TestMember | null): TestClient {
  const client = new TestClient();
  if (member) client.bearer = member.token;
  return client;
}

interface Written {
  id: number;
  productCode: string;
  status: string;
}

function reviewForm(fields: { line: number | string; rating?: string; body?: string; photos?: Uint8Array[] }): FormData {
  const form = new FormData();
  form.set('line', String(fields.line));
  if (fields.rating !== undefined) form.set('rating', fields.rating);
  if (fields.body !== undefined) form.set('body', fields.body);
  (fields.photos ?? []).forEach((bytes, index) => form.append('photos', new File([new Uint8Array(bytes)], `photo-${index}.jpg`, { type: 'image/jpeg' })));
  return form;
}

const write = (member: TestMember | null, fields: Parameters<typeof reviewForm>[0]) =>
  as(member).call<{ data: Written }>(myReviewsRoute, 'POST', '/api/user/reviews', { form: reviewForm(fields) });
const myReviews = (member: TestMember) => as(member).call<{ data: { id: number; status: string; hidden_reason: string | null }[] }>(myReviewsRoute, 'GET', '/api/user/reviews');
const publicReviews = (code: string, page = '1') =>
  as(null).call<{ data: PublicReview[]; summary: ReviewSummary; total: number; page: number; pageSize: number; pages: number }>(productReviewsRoute, 'GET', `/api/product/${encodeURIComponent(code)}/reviews?page=${page}`, { params: { code } });

/** The member orders the product (or variant) and the order is delivered; answers the line's id. */
async function deliveredLine(member: TestMember, code: string, status: 'delivered' | 'shipped' = 'delivered'): Promise<number> {
  const { order } = await placeTestOrder(member, [{ product_code: code, amount: 1 }]);
  const db = await getDb();
  await db.update(orders).set({ status, ...(status === 'delivered' ? { deliveredAt: new Date() } : { shippedAt: new Date() }) }).where(eq(orders.orderNo, order.orderNo));
  const [line] = await db
    .select({ id: orderLines.id })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(eq(orders.orderNo, order.orderNo));
  return line!.id;
}

async function countsOf(productId: number) {
  const db = await getDb();
  const [row] = await db.select({ count: products.reviewCount, sum: products.reviewRatingSum }).from(products).where(eq(products.id, productId));
  return row!;
}

const photo = (background = '#39b54a') => sharp({ create: { width: 900, height: 600, channels: 3, background } }).jpeg().toBuffer().then((bytes) => new Uint8Array(bytes));

afterEach(async () => {
  const db = await getDb();
  await db.update(company).set({ reviewsNeedApproval: false });
});

describe('who may review', () => {
  it('takes a delivered line of the member once, with the variant bought, and refuses the rest in Thai', async () => {
    const member = await createMember();
    const other = await createMember();
    const { product, variants } = await productWithVariants([20, 20]);
    const line = await deliveredLine(member, variants[1]!.code);
    const undelivered = await deliveredLine(member, variants[0]!.code, 'shipped');
    const before = await countsOf(product.id);

    // Another member's line: refused, nothing said about it.
    const foreign = await write(other, { line, rating: '5' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: 'forbidden', message: 'รีวิวได้เฉพาะสินค้าที่คุณสั่งซื้อเท่านั้น' });
    const notYet = await write(member, { line: undelivered, rating: '5' });
    expect(notYet.status).toBe(409);
    expect(notYet.body).toMatchObject({ code: 'review_not_delivered', message: 'รีวิวได้หลังจากได้รับสินค้าแล้วเท่านั้น' });
    for (const unknown of ['999999999', 'abc', '-1', '']) {
      const answer = await write(member, { line: unknown, rating: '5' });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'review_line_not_found', message: 'ไม่พบรายการสินค้าที่จะรีวิว' });
    }
    const visitor = await write(null, { line, rating: '5' });
    expect(visitor.status).toBe(401);

    // The product page's question: which lines of this product wait for a review.
    const waiting = await as(member).call<{ data: { line: number }[] }>(reviewableRoute, 'GET', `/api/user/reviews/reviewable?product=${product.code}`);
    expect(waiting.body.data.map((entry) => entry.line)).toEqual([line]);
    expect((await as(other).call<{ data: unknown[] }>(reviewableRoute, 'GET', `/api/user/reviews/reviewable?product=${product.code}`)).body.data).toEqual([]);

    const written = await write(member, { line, rating: '4', body: 'สีสวย ติดทน' });
    expect(written.status).toBe(201);
    expect(written.body.data).toMatchObject({ productCode: product.code, status: 'published' });
    expect(await countsOf(product.id)).toEqual({ count: before.count + 1, sum: before.sum + 4 });
    const twice = await write(member, { line, rating: '5' });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'review_exists', message: 'คุณรีวิวสินค้ารายการนี้แล้ว' });
    expect((await as(member).call<{ data: unknown[] }>(reviewableRoute, 'GET', `/api/user/reviews/reviewable?product=${product.code}`)).body.data).toEqual([]);

    const shown = await publicReviews(product.code);
    expect(shown.status).toBe(200);
    const review = shown.body.data.find((entry) => entry.id === written.body.data.id)!;
    // The first name only, and the shade bought.
    expect(review).toMatchObject({ author: member.firstName, variant: 'สีเฉดที่2', rating: 4, body: 'สีสวย ติดทน', photos: [] });
    expect(JSON.stringify(shown.body)).not.toContain(member.lastName);

    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.action, 'review.write'), eq(auditLog.entityId, String(written.body.data.id))));
    expect(audit).toMatchObject({ actorId: member.id, entityType: 'product_review' });
  });

  it('takes 1 to 5 whole stars only, text up to 2,000 characters kept as text', async () => {
    const member = await createMember();
    const product = await productWithStock(30);
    const line = await deliveredLine(member, product.code);
    for (const rating of ['0', '6', '2.5', '-1', 'five', '', ' ']) {
      const answer = await write(member, { line, rating });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'review_rating_invalid', message: 'กรุณาให้คะแนน 1 ถึง 5 ดาว' });
    }
    const missing = await write(member, { line });
    expect(missing.status).toBe(400);
    const long = await write(member, { line, rating: '5', body: 'ก'.repeat(2001) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'review_body_too_long', message: 'ข้อความรีวิวยาวเกิน 2,000 ตัวอักษร' });
    // The refusals wrote nothing.
    const db = await getDb();
    expect(await db.select().from(productReviews).where(eq(productReviews.orderLineId, line))).toEqual([]);

    // A control character is refused at the edge, for every form (docs/decisions/141).
    const bell = await write(member, { line, rating: '5', body: 'ดี\u0007' });
    expect(bell.status).toBe(400);
    expect(bell.body).toMatchObject({ code: 'invalid_characters' });
    const html = '<script>alert(1)</script><img src=x onerror=alert(2)> ดีมาก\u202e';
    const written = await write(member, { line, rating: '5', body: html });
    expect(written.status).toBe(201);
    const [row] = await db.select().from(productReviews).where(eq(productReviews.orderLineId, line));
    // Stored as the member wrote it (the override taken out), never turned into markup.
    expect(row!.body).toBe('<script>alert(1)</script><img src=x onerror=alert(2)> ดีมาก');
    const shown = await publicReviews(product.code);
    expect(shown.body.data.find((entry) => entry.id === row!.id)?.body).toBe(row!.body);
  });

  it('cleans text: line ends, blank runs, invisible controls', () => {
    expect(cleanReviewBody('  ดี\r\n\r\n\r\n\r\nมาก\u0000\u200b  ')).toBe('ดี\n\nมาก\u200b');
    expect(cleanReviewBody('\u2066ซ่อน\u2069 \ud800 แล้ว')).toBe('ซ่อน  แล้ว');
  });
});

describe('photos', () => {
  it('stores a phone photo as WebP without its EXIF or GPS position', async () => {
    const member = await createMember();
    const product = await productWithStock(30);
    const line = await deliveredLine(member, product.code);
    const camera = await slipPhotoWithGps(Buffer.from(await photo('#e8a07a')));
    expect((await sharp(camera).metadata()).exif?.includes(Buffer.from('FixturePhone'))).toBe(true);
    const written = await write(member, { line, rating: '5', photos: [new Uint8Array(camera), await photo('#123456')] });
    expect(written.status).toBe(201);
    const db = await getDb();
    const [row] = await db.select().from(productReviews).where(eq(productReviews.id, written.body.data.id));
    expect(row!.photos).toHaveLength(2);
    for (const stored of row!.photos) {
      expect(stored.key).toMatch(/^reviews\/[a-f0-9]{24}-900\.webp$/);
      expect(stored).toMatchObject({ width: 900, height: 600 });
      const object = await storage().get('public', stored.key);
      const metadata = await sharp(object!.bytes).metadata();
      expect(metadata).toMatchObject({ format: 'webp', width: 900, height: 600 });
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(Buffer.from(object!.bytes).includes(Buffer.from('FixturePhone'))).toBe(false);
    }
    const shown = (await publicReviews(product.code)).body.data[0]!;
    expect(shown.photos.map((entry) => entry.url)).toEqual(row!.photos.map((entry) => `/media/${entry.key}`));
  });

  it('refuses a file that is not a picture, a pixel bomb and a fourth photo, storing no review', async () => {
    const member = await createMember();
    const product = await productWithStock(30);
    const line = await deliveredLine(member, product.code);
    const notPicture = await write(member, { line, rating: '5', photos: [await photo(), new TextEncoder().encode('<?php system($_GET[1]); ?>')] });
    expect(notPicture.status).toBe(400);
    expect(notPicture.body).toMatchObject({ code: 'picture_invalid_type' });
    const bomb = await write(member, { line, rating: '5', photos: [hugePng(30_000, 30_000)] });
    expect(bomb.status).toBe(400);
    expect(bomb.body).toMatchObject({ code: 'picture_too_many_pixels' });
    const four = await write(member, { line, rating: '5', photos: [await photo(), await photo(), await photo(), await photo()] });
    expect(four.status).toBe(400);
    expect(four.body).toMatchObject({ code: 'review_too_many_photos', message: 'แนบรูปได้ไม่เกิน 3 รูป' });
    const db = await getDb();
    expect(await db.select().from(productReviews).where(eq(productReviews.orderLineId, line))).toEqual([]);
  });
});

describe('what shoppers read', () => {
  it('pages published reviews with photos first, then newest first, with the average and distribution', async () => {
    const member = await createMember();
    const product = await productWithStock(40);
    const db = await getDb();
    const ratings = [5, 4, 5, 3, 5, 2, 5, 4, 1, 5, 4, 5];
    const ids: number[] = [];
    for (const [index, rating] of ratings.entries()) {
      const line = await deliveredLine(member, product.code);
      const written = await write(member, { line, rating: String(rating), body: `รีวิวที่ ${index + 1}`, photos: index === 2 || index === 5 ? [await photo()] : [] });
      expect(written.status).toBe(201);
      ids.push(written.body.data.id);
      // Written a minute apart, the later ones newer.
      await db.update(productReviews).set({ createdAt: sql`now() - make_interval(mins => ${100 - index})` }).where(eq(productReviews.id, written.body.data.id));
    }
    expect(await countsOf(product.id)).toEqual({ count: 12, sum: ratings.reduce((a, b) => a + b, 0) });
    const first = await publicReviews(product.code, '1');
    expect(first.body).toMatchObject({ total: 12, page: 1, pageSize: 10, pages: 2 });
    const summary = first.body.summary;
    expect(summary.average).toBe(4);
    expect(summary.distribution).toEqual([
      { stars: 5, count: 6 },
      { stars: 4, count: 3 },
      { stars: 3, count: 1 },
      { stars: 2, count: 1 },
      { stars: 1, count: 1 },
    ]);
    const order = [ids[5], ids[2], ...ids.filter((_, index) => index !== 2 && index !== 5).reverse()];
    expect(first.body.data.map((entry) => entry.id)).toEqual(order.slice(0, 10));
    expect((await publicReviews(product.code, '2')).body.data.map((entry) => entry.id)).toEqual(order.slice(10));
    expect((await publicReviews(product.code, '0')).status).toBe(400);
    expect((await publicReviews(product.code, 'x')).status).toBe(400);
    expect((await publicReviews('NO-SUCH-PRODUCT')).status).toBe(404);
  });

  it('waits for the shop when it checks reviews first, and a hidden review shows only to its writer, with the reason', async () => {
    const member = await createMember();
    const product = await productWithStock(30);
    const db = await getDb();
    await db.update(company).set({ reviewsNeedApproval: true });
    const before = await countsOf(product.id);
    const pending = await write(member, { line: await deliveredLine(member, product.code), rating: '2', body: 'รอตรวจ' });
    expect(pending.status).toBe(201);
    expect(pending.body.data.status).toBe('pending');
    expect(await countsOf(product.id)).toEqual(before);
    await db.update(company).set({ reviewsNeedApproval: false });
    const shown = await write(member, { line: await deliveredLine(member, product.code), rating: '5', body: 'แสดงแล้ว' });
    expect(await countsOf(product.id)).toEqual({ count: before.count + 1, sum: before.sum + 5 });

    // Staff hide it (the back office's side, done here in the database): the trigger takes it off the count.
    await db.update(productReviews).set({ status: 'hidden', hiddenReason: 'มีข้อมูลติดต่อส่วนตัว' }).where(eq(productReviews.id, shown.body.data.id));
    expect(await countsOf(product.id)).toEqual(before);
    const publicIds = (await readProductReviews(product.id)).reviews.map((review) => review.id);
    expect(publicIds).not.toContain(shown.body.data.id);
    expect(publicIds).not.toContain(pending.body.data.id);

    const own = (await myReviews(member)).body.data;
    expect(own.find((review) => review.id === shown.body.data.id)).toMatchObject({ status: 'hidden', hidden_reason: 'มีข้อมูลติดต่อส่วนตัว' });
    expect(own.find((review) => review.id === pending.body.data.id)).toMatchObject({ status: 'pending', hidden_reason: null });
    expect((await myReviews(await createMember())).body.data).toEqual([]);
  });
});

describe('the member’s data', () => {
  it('has the reviews in the download, and closing the account takes them, their counts and photos away', async () => {
    const member = await createMember();
    const product = await productWithStock(30);
    const written = await write(member, { line: await deliveredLine(member, product.code), rating: '3', body: 'ข้อมูลของฉัน', photos: [await photo('#abcdef')] });
    expect(written.status).toBe(201);
    // The download is the data itself, not the API's envelope.
    const data = await as(member).call(dataRoute, 'GET', '/api/user/data');
    const exported = (data.body as unknown as { reviews: { productCode: string; rating: number; body: string; status: string; photos: string[] }[] }).reviews;
    expect(exported).toEqual([expect.objectContaining({ productCode: product.code, rating: 3, body: 'ข้อมูลของฉัน', status: 'published' })]);
    expect(exported[0]!.photos).toHaveLength(1);

    const db = await getDb();
    const [row] = await db.select().from(productReviews).where(eq(productReviews.id, written.body.data.id));
    const key = row!.photos[0]!.key;
    expect(await storage().exists('public', key)).toBe(true);
    const before = await countsOf(product.id);
    await db.update(members).set({ passwordHash: await hashPassword('ปิดบัญชี-1234') }).where(eq(members.id, member.id));
    const closed = await as(member).call(closeRoute, 'POST', '/api/user/close', { body: { password: 'ปิดบัญชี-1234', confirm: true } });
    expect(closed.status).toBe(200);
    expect(await db.select().from(productReviews).where(eq(productReviews.memberId, member.id))).toEqual([]);
    expect(await countsOf(product.id)).toEqual({ count: before.count - 1, sum: before.sum - 3 });
    expect(await storage().exists('public', key)).toBe(false);
  });
});
