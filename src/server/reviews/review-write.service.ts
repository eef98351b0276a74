import { getDb } from '../db/client.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { ensureBelow, hit, LIMITS } from '../security/rate-limit.ts';
import { inspectPicture, storePicture } from '../storage/images.ts';
import { publicUrl, storage } from '../storage/storage.ts';
import { isValidKey } from '../storage/driver.ts';
import { storedWidths } from '../../lib/pictures.ts';
import type { ReviewPhoto } from '../db/schema.ts';
import { MAX_REVIEW_BODY, MAX_REVIEW_PHOTO_BYTES, MAX_REVIEW_PHOTOS } from '../../lib/reviews.ts';
import { variantLabel } from '../../lib/variants.ts';
import * as repo from './review.repo.ts';

/**
 * Writing a review (issue 31 part 3, docs/decisions/224): only the buyer of a delivered order line, once
 * per line; 1–5 whole stars, optional text kept as plain text, up to three photos through the picture
 * pipeline (checked by content, pixel-limited, re-encoded to WebP without metadata). Published at once
 * unless the shop checks reviews first. The product's count and star sum follow by trigger (0022).
 */

export interface ReviewWriter {
  id: string;
  email: string;
}

export interface ReviewInput {
  line: unknown;
  rating: unknown;
  body: unknown;
  photos: readonly Uint8Array[];
}

export interface WrittenReview {
  id: number;
  productCode: string;
  status: 'published' | 'pending';
}

// Control characters other than tab and line breaks, bidirectional overrides and lone surrogates: a review
// is shown to everyone, so what cannot be typed or turns text around is taken out rather than refused.
// eslint-disable-next-line no-control-regex
const UNWANTED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The review's text as it is kept: unwanted characters out, line ends as `\n`, at most two blank lines in a row. */
export function cleanReviewBody(value: string): string {
  return value
    .replace(/\r\n?/g, '\n')
    .replace(UNWANTED, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function parseLine(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647) throw notFound('review_line_not_found', 'ไม่พบรายการสินค้าที่จะรีวิว');
  return Number(text);
}

function parseRating(value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^[1-5]$/.test(text)) throw badRequest('review_rating_invalid', 'กรุณาให้คะแนน 1 ถึง 5 ดาว', { rating: 'กรุณาให้คะแนน 1 ถึง 5 ดาว' });
  return Number(text);
}

function parseBody(value: unknown): string {
  if (value !== undefined && value !== null && typeof value !== 'string') throw badRequest('review_body_invalid', 'ข้อความรีวิวไม่ถูกต้อง');
  const body = cleanReviewBody(value ?? '');
  if ([...body].length > MAX_REVIEW_BODY) {
    throw badRequest('review_body_too_long', `ข้อความรีวิวยาวเกิน ${MAX_REVIEW_BODY.toLocaleString('th-TH')} ตัวอักษร`, { body: `ไม่เกิน ${MAX_REVIEW_BODY.toLocaleString('th-TH')} ตัวอักษร` });
  }
  return body;
}

/** The member's own delivered line that has no review yet, or the Thai reason it cannot be reviewed. */
export async function reviewableLine(memberId: string, rawLine: unknown): Promise<repo.LineForReview> {
  const line = await repo.lineForReview(await getDb(), parseLine(rawLine));
  if (!line) throw notFound('review_line_not_found', 'ไม่พบรายการสินค้าที่จะรีวิว');
  // Someone else's line is answered like a missing one would be, but as a refusal: nothing about it is shown.
  if (line.memberId !== memberId) throw forbidden('รีวิวได้เฉพาะสินค้าที่คุณสั่งซื้อเท่านั้น');
  if (line.orderStatus !== 'delivered') throw new AppError(409, 'review_not_delivered', 'รีวิวได้หลังจากได้รับสินค้าแล้วเท่านั้น');
  if (line.reviewId !== null) throw conflict('review_exists', 'คุณรีวิวสินค้ารายการนี้แล้ว');
  return line;
}

/** Checks every photo before any is stored, so one bad file stores none. */
async function storePhotos(photos: readonly Uint8Array[]): Promise<ReviewPhoto[]> {
  if (photos.length > MAX_REVIEW_PHOTOS) throw badRequest('review_too_many_photos', `แนบรูปได้ไม่เกิน ${MAX_REVIEW_PHOTOS} รูป`, { photos: `ไม่เกิน ${MAX_REVIEW_PHOTOS} รูป` });
  for (const bytes of photos) {
    if (bytes.length > MAX_REVIEW_PHOTO_BYTES) throw badRequest('picture_too_large', 'ไฟล์รูปภาพต้องมีขนาดไม่เกิน 8 MB');
    await inspectPicture(bytes);
  }
  const stored: ReviewPhoto[] = [];
  for (const bytes of photos) {
    const picture = await storePicture(bytes, 'reviews');
    stored.push({ key: picture.key, width: picture.width, height: picture.height });
  }
  return stored;
}

/** Writes the member's review of one of their delivered order lines. */
export async function writeReview(member: ReviewWriter, input: ReviewInput, meta: { ip: string }): Promise<WrittenReview> {
  await ensureBelow(LIMITS.reviewWritePerMember, member.id);
  await hit(LIMITS.reviewWritePerMember, member.id);
  const line = await reviewableLine(member.id, input.line);
  const rating = parseRating(input.rating);
  const body = parseBody(input.body);
  const photos = await storePhotos(input.photos);
  const db = await getDb();
  const written = await db.transaction(async (tx) => {
    const status = (await repo.reviewsNeedApproval(tx)) ? ('pending' as const) : ('published' as const);
    const now = new Date();
    const row = await repo.insertReview(tx, {
      productId: line.productId,
      orderLineId: line.lineId,
      memberId: member.id,
      variantLabel: variantLabel(line.variantOptions),
      rating,
      body,
      photos,
      status,
      publishedAt: status === 'published' ? now : null,
    });
    if (!row) throw conflict('review_exists', 'คุณรีวิวสินค้ารายการนี้แล้ว');
    await recordAudit(
      tx,
      { id: member.id, email: member.email, role: 'member', via: 'web', ip: meta.ip },
      {
        action: 'review.write',
        entityType: 'product_review',
        entityId: String(row.id),
        after: { product: line.productCode, orderNo: line.orderNo, rating, status, photos: photos.length },
      },
    );
    return { id: row.id, productCode: line.productCode, status };
  });
  if (written.status === 'published') await invalidateCatalog({ productCodes: [written.productCode] });
  return written;
}

export interface RemovedReviews {
  count: number;
  photoKeys: string[];
  productIds: number[];
}

/**
 * Closing an account (docs/decisions/184, 224): the member's reviews go with it, their counts with them
 * (the trigger), in the closing transaction. Returns the photos' keys and the products whose pages
 * showed a published one, for `afterReviewsRemoved` once the transaction has committed.
 */
export async function removeReviewsOnClose(tx: Parameters<typeof repo.removeReviewsOfMember>[0], memberId: string): Promise<RemovedReviews> {
  const removed = await repo.removeReviewsOfMember(tx, memberId);
  return {
    count: removed.length,
    photoKeys: removed.flatMap((row) => row.photos.map((photo) => photo.key)),
    productIds: [...new Set(removed.filter((row) => row.status === 'published').map((row) => row.productId))],
  };
}

/** Photos no review holds any more leave storage, every width of each. */
export async function deleteUnusedReviewPhotos(keys: readonly string[]): Promise<void> {
  const stillUsed = await repo.photoKeysInUse(await getDb(), keys);
  const driver = storage();
  for (const key of keys) {
    if (stillUsed.has(key)) continue;
    // The smaller widths share the stored key's stem, the key naming the widest (src/lib/pictures.ts). A
    // key that is not a storage key was never a file of ours: there is nothing to delete.
    const stem = key.replace(/-\d+\.webp$/, '');
    const widths = isValidKey(key) ? storedWidths(publicUrl(key)) : [];
    for (const width of widths) await driver.delete('public', `${stem}-${width}.webp`);
  }
}

/** After the close committed: the photos no other review uses leave storage, the pages that showed them are dropped. */
export async function afterReviewsRemoved(removed: RemovedReviews): Promise<void> {
  const db = await getDb();
  await deleteUnusedReviewPhotos(removed.photoKeys);
  const codes = await repo.productCodesOf(db, removed.productIds);
  if (codes.length > 0) await invalidateCatalog({ productCodes: codes });
}
