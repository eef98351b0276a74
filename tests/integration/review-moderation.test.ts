import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, asc, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { database, getDb } from '../../src/server/db/client';
import { auditLog, company } from '../../src/server/db/schema';
import { INVALIDATION_CHANNEL } from '../../src/server/cache/invalidation-bus';
import { requireStaffPage, type AdminPageContext } from '../../src/server/admin/guard';
import { productReviewLine, reviewQueue } from '../../src/server/reviews/review-moderation.service';
import { productReviews, reviewsOfMember } from '../../src/server/reviews/review-read.service';
import { dashboard } from '../../src/server/admin/dashboard.service';
import { ADMIN_NAV, can, type Permission } from '../../src/lib/roles';
import { ANSWER_MAX, HIDE_REASON_MAX } from '../../src/lib/review-moderation';
import * as approveRoute from '../../src/pages/admin/reviews/[id]/approve';
import * as hideRoute from '../../src/pages/admin/reviews/[id]/hide';
import * as showRoute from '../../src/pages/admin/reviews/[id]/show';
import * as answerRoute from '../../src/pages/admin/reviews/[id]/answer';
import * as removePhotoRoute from '../../src/pages/admin/reviews/[id]/remove-photo';
import * as settingsRoute from '../../src/pages/admin/settings/[section]';
import { BASE } from '../fixtures/api-client';
import { adminCallers, CALLERS, expectRoleMatrix, flashOf, form, type AdminCallers, type Caller, type RouteModule } from '../fixtures/admin';
import { productReviewTotals, reviewRow, writeReview, type TestReview } from '../fixtures/reviews';
import { storePicture } from '../../src/server/storage/images';
import { storage } from '../../src/server/storage/storage';
import { storedWidths } from '../../src/lib/pictures';
import type { ReviewPhoto } from '../../src/server/db/schema';

/**
 * issue 31 part 3, the back office's side (docs/decisions/226): the queue at /admin/reviews, approving,
 * hiding with a reason (required, in Thai), showing again and the shop's answer (limits, HTML kept as
 * text); the product's published count and star sum following by the trigger; an audit row for every
 * move; the product's cached pages dropped on every instance; every role against every route; the
 * owner's review settings. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */

let callers: AdminCallers;
const PAGES = join(import.meta.dirname, '../../src/pages');

const at = (id: number | string, action: string) => ({ params: { id: String(id) }, path: `/admin/reviews/${id}/${action}` });

async function post(caller: Caller, route: RouteModule, id: number | string, action: string, fields: Record<string, string> = {}) {
  const target = at(id, action);
  return callers.clients[caller].call(route, 'POST', target.path, { ...form(fields), params: target.params });
}

async function auditsOf(id: number) {
  const db = await getDb();
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'product_review'), eq(auditLog.entityId, String(id))))
    .orderBy(desc(auditLog.id));
}

/** The tags the next moves publish on the invalidation bus, as another instance would hear them. */
async function listenToBus(): Promise<{ heard: string[][]; stop: () => Promise<void> }> {
  const db = await database();
  const heard: string[][] = [];
  const stop = await db.subscribe(INVALIDATION_CHANNEL, (payload) => heard.push((JSON.parse(payload) as { tags: string[] }).tags), () => {});
  return { heard, stop };
}

/** A photo stored as a member's review photo is (every width written), as its review would hold it. */
async function storedPhoto(background: string): Promise<ReviewPhoto> {
  const bytes = await sharp({ create: { width: 900, height: 600, channels: 3, background } }).jpeg().toBuffer();
  const picture = await storePicture(new Uint8Array(bytes), 'reviews');
  return { key: picture.key, width: picture.width, height: picture.height };
}

/** The stored files of a photo: one per width written. */
async function filesOf(photo: ReviewPhoto): Promise<boolean[]> {
  const stem = photo.key.replace(/-\d+\.webp$/, '');
  return Promise.all(storedWidths(`/media/${photo.key}`).map((width) => storage().exists('public', `${stem}-${width}.webp`)));
}

async function settle(): Promise<void> {
  // NOTIFY is delivered after the publishing statement; a few turns of the loop let the listener hear it.
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

beforeAll(async () => {
  callers = await adminCallers();
});

describe('who moderates', () => {
  it('owner and staff have the reviews right; editors do not; the sidebar lists รีวิว for them', () => {
    expect(can('owner', 'reviews')).toBe(true);
    expect(can('staff', 'reviews')).toBe(true);
    expect(can('editor', 'reviews')).toBe(false);
    expect(ADMIN_NAV).toContainEqual({ href: '/admin/reviews', label: 'รีวิว', permission: 'reviews' });
  });

  it('the page: staff and owner open it, an editor gets the 403 page, a member or a visitor the 404 page', async () => {
    const source = readFileSync(join(PAGES, 'admin/reviews/index.astro'), 'utf8');
    const permission = /requireStaffPage\(Astro, '(\w+)'\)/.exec(source)?.[1] as Permission;
    expect(permission).toBe('reviews');
    const expected: Record<Caller, number | 'open'> = { anonymous: 404, member: 404, editor: 403, staff: 'open', owner: 'open' };
    for (const caller of CALLERS) {
      const token = caller === 'anonymous' ? null : callers.members[caller].token;
      const url = new URL('/admin/reviews?status=hidden', BASE);
      const astro: AdminPageContext & { locals: object } = {
        url,
        request: new Request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }),
        cookies: { get: () => undefined, has: () => false, set: () => {}, delete: () => {} } as never,
        response: { headers: new Headers() },
        locals: {},
        rewrite: async (target: string) => new Response(null, { status: target === '/404' ? 404 : 403 }),
      };
      const result = await requireStaffPage(astro, permission);
      if (expected[caller] === 'open') expect(result, caller).toMatchObject({ member: { id: callers.members[caller as 'staff' | 'owner'].id } });
      else expect((result as Response).status, caller).toBe(expected[caller]);
      expect(astro.response.headers.get('cache-control')).toBe('private, no-store');
    }
  });

  it('every POST: staff and owner act (303), an editor is refused (403), a member or visitor finds nothing (404)', async () => {
    const owner = callers.members.owner.id;
    const approve = [await writeReview(owner), await writeReview(owner)];
    let next = 0;
    const results = await expectRoleMatrix(callers, approveRoute, 'POST', '/admin/reviews/x/approve', () => ({ ...form({}), params: { id: String(approve[next++ % 2]!.id) } }), ['staff', 'owner']);
    // Anonymous, member and editor went first and changed nothing; staff approved the first, the owner the second... already published.
    expect(results.staff.status).toBe(303);
    expect(results.owner.status).toBe(303);
    const hidden = await writeReview(owner, { status: 'published' });
    const hide = await expectRoleMatrix(callers, hideRoute, 'POST', `/admin/reviews/${hidden.id}/hide`, () => ({ ...form({ reason: 'ทดสอบสิทธิ์' }), params: { id: String(hidden.id) } }), ['staff', 'owner']);
    expect(hide.staff.status).toBe(303);
    expect(hide.owner.status).toBe(303);
    const show = await expectRoleMatrix(callers, showRoute, 'POST', `/admin/reviews/${hidden.id}/show`, () => ({ ...form({}), params: { id: String(hidden.id) } }), ['staff', 'owner']);
    expect(show.staff.status).toBe(303);
    expect(flashOf(show.staff)?.kind).toBe('success');
    // The owner's second "show" finds the review published already: a Thai refusal, not a crash.
    expect(flashOf(show.owner)).toMatchObject({ kind: 'danger' });
    const answer = await expectRoleMatrix(callers, answerRoute, 'POST', `/admin/reviews/${hidden.id}/answer`, () => ({ ...form({ answer: 'ขอบคุณค่ะ' }), params: { id: String(hidden.id) } }), ['staff', 'owner']);
    expect(answer.staff.status).toBe(303);
    expect(answer.owner.status).toBe(303);
    const withPhotos = await writeReview(owner, { status: 'published', photos: [await storedPhoto('#f4a683'), await storedPhoto('#a2412f')] });
    const keys = (await reviewRow(withPhotos.id))!.photos.map((photo) => photo.key);
    let nextPhoto = 0;
    const removePhoto = await expectRoleMatrix(
      callers,
      removePhotoRoute,
      'POST',
      `/admin/reviews/${withPhotos.id}/remove-photo`,
      () => ({ ...form({ photo: keys[nextPhoto++ % 2]! }), params: { id: String(withPhotos.id) } }),
      ['staff', 'owner'],
    );
    expect(removePhoto.staff.status).toBe(303);
    expect(flashOf(removePhoto.staff)?.kind).toBe('success');
    expect(flashOf(removePhoto.owner)?.kind).toBe('success');
    // Only staff and the owner removed one each: the visitor's, member's and editor's tries changed nothing.
    expect((await reviewRow(withPhotos.id))!.photos).toEqual([]);
    const settings = await expectRoleMatrix(callers, settingsRoute, 'POST', '/admin/settings/reviews', () => ({ ...form({ reviewInvites: 'on' }), params: { section: 'reviews' } }), ['owner']);
    expect(settings.owner.status).toBe(303);
    // What the editor, the member and the visitor sent changed nothing.
    const row = await reviewRow(hidden.id);
    expect(row?.status).toBe('published');
    expect((await auditsOf(hidden.id)).map((audit) => audit.actorRole).every((role) => role === 'staff' || role === 'owner')).toBe(true);
  });

  it('an unknown or malformed review id is the Thai 404, never a 500', async () => {
    for (const id of ['999999', 'abc', '0', '99999999999', '-1']) {
      const result = await callers.clients.owner.call(approveRoute, 'POST', `/admin/reviews/${id}/approve`, { ...form({}), params: { id }, headers: { accept: 'application/json' } });
      expect(result.status, id).toBe(404);
      expect(result.body.message).toBe('ไม่พบรีวิวนี้');
    }
  });
});

let review: TestReview;

describe('moderation', () => {

  it('approve: waiting → published, the product counts it, audited, the product pages dropped on every instance', async () => {
    review = await writeReview(callers.members.owner.id, { rating: 4 });
    expect(await productReviewTotals(review.productId)).toEqual({ count: 0, sum: 0 });
    const bus = await listenToBus();
    try {
      const result = await post('staff', approveRoute, review.id, 'approve', { back: '/admin/reviews?status=pending&page=1' });
      expect(result.status).toBe(303);
      expect(result.headers.get('location')).toBe('/admin/reviews?status=pending&page=1');
      expect(flashOf(result)).toEqual({ kind: 'success', text: 'อนุมัติรีวิวแล้ว รีวิวแสดงในหน้าสินค้าแล้ว' });
      await settle();
      expect(bus.heard.flat()).toContain(`product:${review.productCode.toLowerCase()}`);
    } finally {
      await bus.stop();
    }
    const row = await reviewRow(review.id);
    expect(row?.status).toBe('published');
    expect(row?.publishedAt).toBeInstanceOf(Date);
    expect(await productReviewTotals(review.productId)).toEqual({ count: 1, sum: 4 });
    const [audit] = await auditsOf(review.id);
    expect(audit).toMatchObject({ action: 'review.approve', actorRole: 'staff', actorId: callers.members.staff.id });
    expect(audit?.before).toMatchObject({ reviewStatus: 'pending' });
    expect(audit?.after).toMatchObject({ reviewStatus: 'published', productCode: review.productCode });
    // Approving twice is refused in Thai and changes nothing.
    const again = await post('staff', approveRoute, review.id, 'approve');
    expect(flashOf(again)?.kind).toBe('danger');
    expect(flashOf(again)?.text).toContain('เผยแพร่แล้ว');
    expect(await productReviewTotals(review.productId)).toEqual({ count: 1, sum: 4 });
  });

  it('hide needs a reason (Thai 400 without), takes the review out of the counts, and keeps the reason for its member', async () => {
    for (const reason of ['', '   ', 'x'.repeat(HIDE_REASON_MAX + 1), 'ซ่อน\u0007']) {
      const refused = await callers.clients.owner.call(hideRoute, 'POST', `/admin/reviews/${review.id}/hide`, { ...form({ reason }), params: { id: String(review.id) }, headers: { accept: 'application/json' } });
      expect(refused.status, JSON.stringify(reason)).toBe(400);
      // A control character is refused at the edge (its own Thai page) before the route runs.
      if (!reason.includes('\u0007')) expect(refused.body.message).toMatch(/เหตุผลที่ซ่อน/);
    }
    const missing = await callers.clients.owner.call(hideRoute, 'POST', `/admin/reviews/${review.id}/hide`, { ...form({}), params: { id: String(review.id) } });
    expect(missing.status).toBe(303);
    expect(flashOf(missing)).toEqual({ kind: 'danger', text: 'กรุณาระบุเหตุผลที่ซ่อน' });
    expect((await reviewRow(review.id))?.status).toBe('published');

    const reason = 'มีเบอร์โทรศัพท์ส่วนตัว <b>กรุณาติดต่อร้าน</b>';
    const hidden = await post('owner', hideRoute, review.id, 'hide', { reason });
    expect(flashOf(hidden)?.kind).toBe('success');
    const row = await reviewRow(review.id);
    expect(row).toMatchObject({ status: 'hidden', hiddenReason: reason });
    expect(await productReviewTotals(review.productId)).toEqual({ count: 0, sum: 0 });
    const [audit] = await auditsOf(review.id);
    expect(audit).toMatchObject({ action: 'review.hide', note: reason, actorRole: 'owner' });
    expect(audit?.after).toMatchObject({ reviewStatus: 'hidden', hiddenReason: reason });
    const queue = await reviewQueue('hidden', 1);
    expect(queue.reviews.find((one) => one.id === review.id)?.hiddenReason).toBe(reason);
    // The shop's side and the member's side agree: gone from the product's page, hidden with its reason for its writer.
    const shown = await productReviews(review.productId);
    expect(shown.reviews.map((one) => one.id)).not.toContain(review.id);
    expect(shown.summary.count).toBe(0);
    const own = (await reviewsOfMember(review.member.id)).find((one) => one.id === review.id);
    expect(own).toMatchObject({ status: 'hidden', hidden_reason: reason });
  });

  it('show again: hidden → published, reason cleared, counted again', async () => {
    expect((await reviewRow(review.id))?.status).toBe('hidden');
    const shown = await post('staff', showRoute, review.id, 'show');
    expect(flashOf(shown)).toEqual({ kind: 'success', text: 'แสดงรีวิวอีกครั้งแล้ว' });
    expect(await reviewRow(review.id)).toMatchObject({ status: 'published', hiddenReason: null });
    expect(await productReviewTotals(review.productId)).toEqual({ count: 1, sum: 4 });
    expect((await auditsOf(review.id))[0]?.action).toBe('review.show');
  });

  it('hiding a waiting review changes nothing the shop shows: no count, no cache drop', async () => {
    const waiting = await writeReview(callers.members.owner.id, { rating: 2 });
    const bus = await listenToBus();
    try {
      await post('owner', hideRoute, waiting.id, 'hide', { reason: 'สแปม' });
      await settle();
      expect(bus.heard.flat()).not.toContain(`product:${waiting.productCode.toLowerCase()}`);
    } finally {
      await bus.stop();
    }
    expect(await reviewRow(waiting.id)).toMatchObject({ status: 'hidden', hiddenReason: 'สแปม' });
    expect(await productReviewTotals(waiting.productId)).toEqual({ count: 0, sum: 0 });
    // A hidden review is neither approved nor shown by "approve".
    expect(flashOf(await post('owner', approveRoute, waiting.id, 'approve'))?.kind).toBe('danger');
  });

  it('answer: kept as typed (HTML as text), limited, edited, removed; each audited', async () => {
    const html = '<script>alert(1)</script> ขอบคุณที่อุดหนุนค่ะ & ยินดีเสมอ';
    const saved = await post('staff', answerRoute, review.id, 'answer', { answer: `  ${html}  ` });
    expect(flashOf(saved)).toEqual({ kind: 'success', text: 'บันทึกคำตอบของร้านแล้ว' });
    // The product's page shows the answer under the published review, as typed.
    expect((await productReviews(review.productId)).reviews.find((one) => one.id === review.id)?.answer).toBe(html);
    let row = await reviewRow(review.id);
    expect(row).toMatchObject({ answer: html, answeredBy: callers.members.staff.id });
    expect(row?.answeredAt).toBeInstanceOf(Date);
    expect((await auditsOf(review.id))[0]).toMatchObject({ action: 'review.answer' });

    const tooLong = await callers.clients.owner.call(answerRoute, 'POST', `/admin/reviews/${review.id}/answer`, { ...form({ answer: 'ก'.repeat(ANSWER_MAX + 1) }), params: { id: String(review.id) }, headers: { accept: 'application/json' } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('คำตอบของร้านยาวเกิน 1,000 ตัวอักษร');
    const exact = await post('owner', answerRoute, review.id, 'answer', { answer: 'ก'.repeat(ANSWER_MAX) });
    expect(flashOf(exact)?.kind).toBe('success');
    const same = await post('owner', answerRoute, review.id, 'answer', { answer: 'ก'.repeat(ANSWER_MAX) });
    expect(flashOf(same)?.text).toBe('คำตอบของร้านไม่มีการเปลี่ยนแปลง');

    const removed = await post('owner', answerRoute, review.id, 'answer', { answer: 'ไม่ใช้', intent: 'remove' });
    expect(flashOf(removed)).toEqual({ kind: 'success', text: 'ลบคำตอบของร้านแล้ว' });
    row = await reviewRow(review.id);
    expect(row).toMatchObject({ answer: null, answeredAt: null, answeredBy: null });
    const actions = (await auditsOf(review.id)).slice(0, 3).map((audit) => audit.action);
    expect(actions).toEqual(['review.answer_remove', 'review.answer', 'review.answer']);
    // The answer's moves never touch the counts.
    expect(await productReviewTotals(review.productId)).toEqual({ count: 1, sum: 4 });
  });

  it('remove one photo: the others, the text and the counts stay; its files leave storage; audited; the product pages dropped', async () => {
    const photos = [await storedPhoto('#f4a683'), await storedPhoto('#d9a5a0'), await storedPhoto('#a2412f')];
    const withPhotos = await writeReview(callers.members.owner.id, { status: 'published', rating: 4, body: 'สีสวยมาก', photos });
    const totals = await productReviewTotals(withPhotos.productId);
    expect((await filesOf(photos[1]!)).every(Boolean)).toBe(true);
    const bus = await listenToBus();
    try {
      const removed = await post('staff', removePhotoRoute, withPhotos.id, 'remove-photo', { photo: photos[1]!.key, back: '/admin/reviews?status=published&page=1' });
      expect(removed.status).toBe(303);
      expect(removed.headers.get('location')).toBe('/admin/reviews?status=published&page=1');
      expect(flashOf(removed)).toEqual({ kind: 'success', text: 'ลบรูปออกจากรีวิวแล้ว' });
      await settle();
      expect(bus.heard.flat()).toContain(`product:${withPhotos.productCode.toLowerCase()}`);
    } finally {
      await bus.stop();
    }
    const row = await reviewRow(withPhotos.id);
    expect(row).toMatchObject({ status: 'published', body: 'สีสวยมาก', photos: [photos[0], photos[2]] });
    expect(await productReviewTotals(withPhotos.productId)).toEqual(totals);
    expect((await filesOf(photos[1]!)).some(Boolean)).toBe(false);
    expect((await filesOf(photos[0]!)).every(Boolean)).toBe(true);
    // The product's page shows the two left.
    expect((await productReviews(withPhotos.productId)).reviews.find((one) => one.id === withPhotos.id)?.photos).toHaveLength(2);
    const [audit] = await auditsOf(withPhotos.id);
    expect(audit).toMatchObject({ action: 'review.photo_remove', actorRole: 'staff' });
    expect(audit?.before).toMatchObject({ photos: 3 });
    expect(audit?.after).toMatchObject({ photos: 2 });

    // The same photo again, a key of another review's photo or of no photo at all, none: the Thai 404, nothing changed.
    const other = await writeReview(callers.members.owner.id, { status: 'published', photos: [await storedPhoto('#8e2453')] });
    const otherKey = (await reviewRow(other.id))!.photos[0]!.key;
    for (const photo of [photos[1]!.key, otherKey, '../../etc/passwd', '']) {
      const refused = await callers.clients.owner.call(removePhotoRoute, 'POST', `/admin/reviews/${withPhotos.id}/remove-photo`, {
        ...form({ photo }),
        params: { id: String(withPhotos.id) },
        headers: { accept: 'application/json' },
      });
      expect(refused.status, photo).toBe(404);
      expect(refused.body.message).toBe('ไม่พบรูปนี้ในรีวิว (อาจถูกลบไปแล้ว) กรุณาตรวจสอบอีกครั้ง');
    }
    expect((await reviewRow(withPhotos.id))!.photos).toHaveLength(2);
    expect((await reviewRow(other.id))!.photos).toHaveLength(1);
    expect((await filesOf((await reviewRow(other.id))!.photos[0]!)).every(Boolean)).toBe(true);

    // A stored entry whose key is not a storage key (never a file of ours) goes from the review without touching storage.
    const forged = await writeReview(callers.members.owner.id, { status: 'published', photos: [{ key: '../../etc/passwd', width: 1, height: 1 }] });
    const cleaned = await post('owner', removePhotoRoute, forged.id, 'remove-photo', { photo: '../../etc/passwd' });
    expect(flashOf(cleaned)).toEqual({ kind: 'success', text: 'ลบรูปออกจากรีวิวแล้ว' });
    expect((await reviewRow(forged.id))!.photos).toEqual([]);
  });

  it('a forged back address stays inside the back office', async () => {
    const result = await post('owner', answerRoute, review.id, 'answer', { answer: 'ขอบคุณค่ะ', back: 'https://evil.example/' });
    expect(result.headers.get('location')).toBe('/admin/reviews');
  });
});

describe('the queue', () => {
  it('tabs by status, newest first, paged; one review alone by id; the dashboard counts the waiting ones', async () => {
    const owner = callers.members.owner.id;
    const older = await writeReview(owner, { body: 'รีวิวเก่ากว่า', photos: [{ key: 'reviews/abcdefabcdefabcdefabcdef-640.webp', width: 640, height: 480 }, { key: '../../etc/passwd', width: 1, height: 1 }] });
    const newer = await writeReview(owner, { body: 'รีวิวใหม่กว่า', variantLabel: 'สีส้มพีช' });
    const pending = await reviewQueue('pending', 1);
    const ids = pending.reviews.map((one) => one.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(pending.reviews.every((one) => one.status === 'pending')).toBe(true);
    expect(pending.counts.pending).toBe(pending.total);
    const first = pending.reviews.find((one) => one.id === older.id)!;
    // A stored key becomes its public address; a key that is not one of ours is left out.
    expect(first.photos).toEqual([{ key: 'reviews/abcdefabcdefabcdefabcdef-640.webp', url: '/media/reviews/abcdefabcdefabcdefabcdef-640.webp', width: 640, height: 480 }]);
    expect(first).toMatchObject({ productCode: older.productCode, orderNo: older.orderNo, memberId: older.member.id, memberEmail: older.member.email });
    expect(pending.reviews.find((one) => one.id === newer.id)?.variantLabel).toBe('สีส้มพีช');
    const alone = await reviewQueue('published', 1, { reviewId: older.id });
    expect(alone.reviews.map((one) => one.id)).toEqual([older.id]);
    // One product's reviews, with its tabs' counts and its line on the back office's product page.
    const ofProduct = await reviewQueue('all', 1, { productCode: older.productCode });
    expect(ofProduct.reviews.map((one) => one.id)).toEqual([older.id]);
    expect(ofProduct.counts).toEqual({ pending: 1, published: 0, hidden: 0 });
    expect(ofProduct.product).toMatchObject({ code: older.productCode, count: 0, ratingSum: 0 });
    expect(await productReviewLine(older.productCode)).toEqual({ count: 0, average: null, pending: 1 });
    expect(await productReviewLine(review.productCode)).toEqual({ count: 1, average: 4, pending: 0 });
    const unknown = await reviewQueue('pending', 1, { productCode: 'NO-SUCH-PRODUCT' });
    expect(unknown.product).toBeNull();
    expect(unknown.total).toBe(pending.total);
    const all = await reviewQueue('all', 1);
    expect(all.total).toBe(all.counts.pending + all.counts.published + all.counts.hidden);
    expect(all.reviews.length).toBeLessThanOrEqual(20);
    const far = await reviewQueue('all', 500);
    expect(far.reviews).toEqual([]);
    expect((await dashboard()).pendingReviews).toBe(pending.counts.pending);
  });
});

describe('review settings', () => {
  it('the owner turns approval on and invites off; audited; unticked boxes mean off', async () => {
    const on = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/reviews', { ...form({ reviewsNeedApproval: 'on' }), params: { section: 'reviews' } });
    expect(on.status).toBe(303);
    expect(on.headers.get('location')).toBe('/admin/settings#reviews');
    expect(flashOf(on)).toEqual({ kind: 'success', text: 'บันทึกการตั้งค่ารีวิวแล้ว' });
    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'settings.update_reviews')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit?.actorRole).toBe('owner');
    expect(audit?.before).toEqual({ reviewsNeedApproval: false, reviewInvites: true });
    expect(audit?.after).toEqual({ reviewsNeedApproval: true, reviewInvites: false });
    const [saved] = await db.select({ approval: company.reviewsNeedApproval, invites: company.reviewInvites }).from(company).orderBy(asc(company.id)).limit(1);
    expect(saved).toEqual({ approval: true, invites: false });
    const back = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/reviews', { ...form({ reviewInvites: 'on' }), params: { section: 'reviews' } });
    expect(flashOf(back)?.kind).toBe('success');
  });
});
