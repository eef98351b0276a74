import { getDb } from '../db/client.ts';
import { conflict, notFound } from '../http/errors.ts';
import { errorFields, log } from '../log.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { publicUrl } from '../storage/storage.ts';
import { serialId } from '../../lib/row-id.ts';
import { answerSchema, hideReasonSchema, REVIEW_STATUS_LABELS, type ReviewTab } from '../../lib/review-moderation.ts';
import { parseWith } from '../admin/forms.ts';
import * as repo from './review-moderation.repo.ts';
import { deleteUnusedReviewPhotos } from './review-write.service.ts';

/**
 * The back office's side of reviews (issue 31 part 3, docs/decisions/226): the queue at /admin/reviews,
 * approving a waiting review, hiding one with a reason its member sees, showing it again, and the shop's
 * public answer. Each move is one transaction holding the review's row, with its audit row. The
 * product's published count and star sum follow by the table's trigger (drizzle/0022); a move that
 * changes what the shop shows drops the product's cached pages on every instance.
 */
export const REVIEWS_PAGE_SIZE = 20;

export interface AdminReview extends Omit<repo.AdminReviewRow, 'photos'> {
  /** `key` names the photo to `removeReviewPhoto`. */
  photos: { key: string; url: string; width: number; height: number }[];
}

export interface ReviewQueue {
  tab: ReviewTab;
  /** The product the queue is narrowed to (`?product=`), when it exists. */
  product: { code: string; name: string; count: number; ratingSum: number } | null;
  page: number;
  totalPages: number;
  total: number;
  reviews: AdminReview[];
  counts: Awaited<ReturnType<typeof repo.countByStatus>>;
}

/** A stored photo's address; a key that is not one of ours is left out rather than put in a page. */
function photoUrl(key: string): string | null {
  try {
    return publicUrl(key);
  } catch {
    return null;
  }
}

export async function reviewQueue(tab: ReviewTab, page: number, scope: repo.ReviewScope = {}): Promise<ReviewQueue> {
  const db = await getDb();
  const summary = scope.productCode === undefined ? null : await repo.productReviewSummary(db, scope.productCode);
  const productCode = summary ? scope.productCode : undefined;
  const [{ rows, total }, counts] = await Promise.all([
    repo.listForAdmin(db, scope.reviewId === undefined ? tab : 'all', page, REVIEWS_PAGE_SIZE, { reviewId: scope.reviewId, productCode }),
    repo.countByStatus(db, productCode),
  ]);
  const reviews = rows.map((row) => ({
    ...row,
    photos: (Array.isArray(row.photos) ? row.photos : []).flatMap((photo) => {
      const url = typeof photo?.key === 'string' ? photoUrl(photo.key) : null;
      return url ? [{ key: photo.key, url, width: Number(photo.width) || 1, height: Number(photo.height) || 1 }] : [];
    }),
  }));
  const product = summary && productCode ? { code: productCode, ...summary } : null;
  return { tab, product, page, total, totalPages: Math.max(1, Math.ceil(total / REVIEWS_PAGE_SIZE)), reviews, counts };
}

/** "รีวิวรอตรวจ N" on the dashboard. */
export async function pendingReviewCount(): Promise<number> {
  return (await repo.countByStatus(await getDb())).pending;
}

/** The back office's product page: the published reviews' count and average, and how many wait. */
export async function productReviewLine(productCode: string): Promise<{ count: number; average: number | null; pending: number }> {
  const db = await getDb();
  const [summary, counts] = await Promise.all([repo.productReviewSummary(db, productCode), repo.countByStatus(db, productCode)]);
  const count = summary?.count ?? 0;
  return { count, average: count > 0 ? summary!.ratingSum / count : null, pending: counts.pending };
}

export async function memberReviewCounts(memberId: string) {
  return repo.memberReviewCounts(await getDb(), memberId);
}

const reviewNotFound = () => notFound('review_not_found', 'ไม่พบรีวิวนี้');

/** The review a URL names, or the Thai 404. */
export function reviewIdOf(value: unknown): number {
  const id = serialId(value);
  if (id === null) throw reviewNotFound();
  return id;
}

type Move = (review: repo.LockedReview, now: Date) => { change: repo.ReviewChange; action: string; note?: string } | null;

/**
 * One moderation move: lock, check, write, audit, in one transaction; then the product's pages go from
 * every cache when the shop's public face changed (the review was or becomes published).
 */
async function moderate(actor: AuditActor, id: number, move: Move): Promise<void> {
  const db = await getDb();
  const now = new Date();
  const outcome = await db.transaction(async (tx) => {
    const review = await repo.lockReview(tx, id);
    if (!review) throw reviewNotFound();
    const planned = move(review, now);
    if (!planned) return null;
    await repo.updateReview(tx, id, planned.change, now);
    const before = { reviewStatus: review.status, hiddenReason: review.hiddenReason, answer: review.answer, photos: review.photos.length };
    const after = {
      reviewStatus: planned.change.status ?? review.status,
      hiddenReason: planned.change.hiddenReason !== undefined ? planned.change.hiddenReason : review.hiddenReason,
      answer: planned.change.answer !== undefined ? planned.change.answer : review.answer,
      photos: (planned.change.photos ?? review.photos).length,
    };
    await recordAudit(tx, actor, {
      action: planned.action,
      entityType: 'product_review',
      entityId: String(id),
      before: { ...before, product: review.productName, productCode: review.productCode },
      after: { ...after, product: review.productName, productCode: review.productCode },
      note: planned.note ?? '',
    });
    return { code: review.productCode, public: before.reviewStatus === 'published' || after.reviewStatus === 'published' };
  });
  if (outcome?.public) {
    await invalidateCatalog({ productCodes: [outcome.code] }).catch((error: unknown) => log.warn('catalog cache invalidation failed', errorFields(error)));
  }
}

const refuse = (status: repo.LockedReview['status'], what: string) =>
  conflict('review_status_changed', `รีวิวนี้อยู่ในสถานะ "${REVIEW_STATUS_LABELS[status]}" แล้ว จึง${what}ไม่ได้ (อาจมีผู้อื่นดำเนินการก่อน) กรุณาตรวจสอบอีกครั้ง`);

/** A waiting review goes public. */
export function approveReview(actor: AuditActor, id: number): Promise<void> {
  return moderate(actor, id, (review, now) => {
    if (review.status !== 'pending') throw refuse(review.status, 'อนุมัติ');
    return { change: { status: 'published', publishedAt: now }, action: 'review.approve' };
  });
}

/** Waiting or published, the review leaves the shop; its member sees it hidden and why. A new reason replaces the old. */
export function hideReview(actor: AuditActor, id: number, reasonInput: unknown): Promise<void> {
  const reason = parseWith(hideReasonSchema, reasonInput ?? '');
  return moderate(actor, id, (review) => {
    if (review.status === 'hidden' && review.hiddenReason === reason) return null;
    return { change: { status: 'hidden', hiddenReason: reason }, action: 'review.hide', note: reason };
  });
}

/** A hidden review is published again, its reason cleared. */
export function showReview(actor: AuditActor, id: number): Promise<void> {
  return moderate(actor, id, (review, now) => {
    if (review.status !== 'hidden') throw refuse(review.status, 'แสดงอีกครั้ง');
    return { change: { status: 'published', hiddenReason: null, publishedAt: review.publishedAt ?? now }, action: 'review.show' };
  });
}

/**
 * One photo leaves the review (an unsuitable picture in an otherwise good review), the others and the
 * text staying as they are; once committed, its files leave storage. The photo is named by its storage
 * key: a key the review does not hold (removed meanwhile by someone else, or never its own) is the Thai
 * 404 and changes nothing.
 */
export async function removeReviewPhoto(actor: AuditActor, id: number, keyInput: unknown): Promise<void> {
  const key = typeof keyInput === 'string' ? keyInput : '';
  // The move either removes the photo or throws: once it has returned, the photo is out of the review.
  await moderate(actor, id, (review) => {
    if (!review.photos.some((photo) => photo.key === key)) throw notFound('review_photo_not_found', 'ไม่พบรูปนี้ในรีวิว (อาจถูกลบไปแล้ว) กรุณาตรวจสอบอีกครั้ง');
    return { change: { photos: review.photos.filter((photo) => photo.key !== key) }, action: 'review.photo_remove' };
  });
  await deleteUnusedReviewPhotos([key]);
}

/** The shop's public answer, written, changed, or removed when empty. */
export function answerReview(actor: AuditActor, id: number, answerInput: unknown): Promise<'saved' | 'removed' | 'unchanged'> {
  const answer = parseWith(answerSchema, answerInput ?? '');
  let result: 'saved' | 'removed' | 'unchanged' = 'unchanged';
  return moderate(actor, id, (review, now) => {
    if ((review.answer ?? '') === answer) return null;
    if (answer === '') {
      result = 'removed';
      return { change: { answer: null, answeredAt: null, answeredBy: null }, action: 'review.answer_remove' };
    }
    result = 'saved';
    return { change: { answer, answeredAt: now, answeredBy: actor.id }, action: 'review.answer' };
  }).then(() => result);
}
