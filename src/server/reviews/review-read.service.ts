import { and, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { products, type ReviewPhoto, type ReviewStatus } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { publicUrl } from '../storage/storage.ts';
import { PRODUCT_CODE_PATTERN } from '../../lib/cart-limits.ts';
import { averageRating, REVIEWS_PAGE_SIZE } from '../../lib/reviews.ts';
import * as repo from './review.repo.ts';

/**
 * Reading reviews (docs/decisions/224): a product's published ones for its page and its JSON, each
 * with the reviewer's first name only and the variant bought; a member's own, whatever their status;
 * which of a member's order lines can be reviewed.
 */

export interface ReviewPhotoView {
  url: string;
  width: number;
  height: number;
}

export interface PublicReview {
  id: number;
  /** The reviewer's first name, nothing more. */
  author: string;
  /** The variant bought ("สีส้มพีช"); '' for a product of one variant. */
  variant: string;
  rating: number;
  body: string;
  photos: ReviewPhotoView[];
  created_at: string;
  /** The shop's public answer and when it was given. */
  answer: string | null;
  answered_at: string | null;
}

export interface ReviewSummary {
  count: number;
  /** To one decimal; 0 with no reviews. */
  average: number;
  /** Five stars down to one, each with how many reviews gave it. */
  distribution: { stars: number; count: number }[];
}

export interface ProductReviewsPage {
  summary: ReviewSummary;
  reviews: PublicReview[];
  page: number;
  pageSize: number;
  pages: number;
}

const photoViews = (photos: readonly ReviewPhoto[]): ReviewPhotoView[] => photos.map((photo) => ({ url: publicUrl(photo.key), width: photo.width, height: photo.height }));

/** The first word of the first name: a review names its writer no further. */
export function firstNameOnly(firstName: string): string {
  return firstName.trim().split(/\s+/)[0] ?? '';
}

/** A page of a product's published reviews (photos first, then newest first) and its summary. */
export async function productReviews(productId: number, page = 1, known?: { count: number; ratingSum: number }): Promise<ProductReviewsPage> {
  const db = await getDb();
  // The product page has the counts on the product it read; most products have no reviews, and then
  // their page reads nothing more.
  const counts = known ?? (await repo.productCounts(db, productId));
  const pages = Math.max(1, Math.ceil(counts.count / REVIEWS_PAGE_SIZE));
  const shownPage = Math.min(Math.max(1, page), pages);
  if (counts.count === 0) {
    return { summary: { count: 0, average: 0, distribution: [5, 4, 3, 2, 1].map((stars) => ({ stars, count: 0 })) }, reviews: [], page: 1, pageSize: REVIEWS_PAGE_SIZE, pages };
  }
  const [rows, byStars] = await Promise.all([repo.publishedPage(db, productId, (shownPage - 1) * REVIEWS_PAGE_SIZE, REVIEWS_PAGE_SIZE), repo.distribution(db, productId)]);
  return {
    summary: {
      count: counts.count,
      average: averageRating(counts.count, counts.ratingSum),
      distribution: [5, 4, 3, 2, 1].map((stars) => ({ stars, count: byStars.get(stars) ?? 0 })),
    },
    reviews: rows.map((row) => ({
      id: row.id,
      author: firstNameOnly(row.firstName),
      variant: row.variantLabel,
      rating: row.rating,
      body: row.body,
      photos: photoViews(row.photos),
      created_at: row.createdAt.toISOString(),
      answer: row.answer,
      answered_at: row.answeredAt ? row.answeredAt.toISOString() : null,
    })),
    page: shownPage,
    pageSize: REVIEWS_PAGE_SIZE,
    pages,
  };
}

/** The same, for a product named by its code (the public JSON); 404 for an unknown or withdrawn product. */
export async function productReviewsByCode(code: string, page: number): Promise<ProductReviewsPage> {
  if (!PRODUCT_CODE_PATTERN.test(code)) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
  const db = await getDb();
  const [product] = await db
    .select({ id: products.id, count: products.reviewCount, ratingSum: products.reviewRatingSum })
    .from(products)
    .where(and(eq(products.code, code), eq(products.active, true)))
    .limit(1);
  if (!product) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
  return productReviews(product.id, page, { count: product.count, ratingSum: product.ratingSum });
}

export interface MemberReview {
  id: number;
  product_code: string;
  product_name: string;
  /** The product is still sold (its page can be linked). */
  product_available: boolean;
  variant: string;
  rating: number;
  body: string;
  photos: ReviewPhotoView[];
  status: ReviewStatus;
  /** Why the shop hid it (shown to its writer only). */
  hidden_reason: string | null;
  answer: string | null;
  answered_at: string | null;
  created_at: string;
}

/** Every review the member wrote, newest first, hidden and waiting ones too. */
export async function reviewsOfMember(memberId: string): Promise<MemberReview[]> {
  const rows = await repo.reviewsOfMember(await getDb(), memberId);
  return rows.map((row) => ({
    id: row.id,
    product_code: row.productCode,
    product_name: row.productName,
    product_available: row.productActive,
    variant: row.variantLabel,
    rating: row.rating,
    body: row.body,
    photos: photoViews(row.photos),
    status: row.status,
    hidden_reason: row.status === 'hidden' ? row.hiddenReason : null,
    answer: row.answer,
    answered_at: row.answeredAt ? row.answeredAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  }));
}

export interface ReviewableLine {
  line: number;
  order_no: string;
  product_code: string;
  /** The name as sold, with the variant ("ลิปสติกเนื้อแมตต์ — สีส้มพีช"). */
  name: string;
  image: string | null;
}

/** The member's delivered lines waiting for a review; of one product when its code is given. */
export async function reviewableLinesOf(memberId: string, productCode?: string): Promise<ReviewableLine[]> {
  const db = await getDb();
  let productId: number | undefined;
  if (productCode !== undefined) {
    if (!PRODUCT_CODE_PATTERN.test(productCode)) return [];
    const [product] = await db.select({ id: products.id }).from(products).where(eq(products.code, productCode)).limit(1);
    if (!product) return [];
    productId = product.id;
  }
  const rows = await repo.reviewableLines(db, memberId, productId);
  return rows.map((row) => ({ line: row.lineId, order_no: row.orderNo, product_code: row.productCode, name: row.lineName, image: row.lineImage }));
}

export type LineReviewState = { state: 'write'; line: number } | { state: ReviewStatus; line: number; hiddenReason: string | null };

/** For My Purchase: each line of these orders (`orderNo|lineCode`) with what its review button says. */
export async function lineReviewStates(memberId: string, orderNos: readonly string[]): Promise<Map<string, LineReviewState>> {
  const rows = await repo.lineStates(await getDb(), memberId, orderNos);
  return new Map(
    rows.map((row) => [
      `${row.orderNo}|${row.productCode}`,
      row.status === null ? { state: 'write', line: row.lineId } : { state: row.status, line: row.lineId, hiddenReason: row.hiddenReason },
    ]),
  );
}
