import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { company, members, orderLines, orders, productReviews, products, type ReviewPhoto, type ReviewStatus } from '../db/schema.ts';
import type { VariantOption } from '../../lib/variants.ts';

/** Queries of reviews from real buyers (docs/decisions/224). */

export interface LineForReview {
  lineId: number;
  memberId: string;
  orderNo: string;
  orderStatus: string;
  productId: number;
  productCode: string;
  productName: string;
  productActive: boolean;
  lineName: string;
  lineImage: string | null;
  variantOptions: VariantOption[];
  reviewId: number | null;
}

const lineColumns = {
  lineId: orderLines.id,
  memberId: orders.memberId,
  orderNo: orders.orderNo,
  orderStatus: orders.status,
  productId: products.id,
  productCode: products.code,
  productName: products.name,
  productActive: products.active,
  lineName: orderLines.productName,
  lineImage: orderLines.productImage,
  variantOptions: orderLines.variantOptions,
  reviewId: productReviews.id,
};

function linesQuery(db: DbOrTx) {
  return db
    .select(lineColumns)
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .innerJoin(products, eq(products.id, orderLines.productId))
    .leftJoin(productReviews, eq(productReviews.orderLineId, orderLines.id));
}

/** One order line with its order's owner and status, its product and its review (if written). */
export async function lineForReview(db: DbOrTx, lineId: number): Promise<LineForReview | null> {
  const [row] = await linesQuery(db).where(eq(orderLines.id, lineId)).limit(1);
  return row ?? null;
}

/** The member's delivered lines not reviewed yet, newest order first; of one product when given. */
export async function reviewableLines(db: DbOrTx, memberId: string, productId?: number): Promise<LineForReview[]> {
  return linesQuery(db)
    .where(
      and(
        eq(orders.memberId, memberId),
        eq(orders.status, 'delivered'),
        isNull(productReviews.id),
        productId === undefined ? undefined : eq(orderLines.productId, productId),
      ),
    )
    .orderBy(desc(orders.createdAt), asc(orderLines.id))
    .limit(200);
}

/** Whether the shop checks reviews before they show: the company record as it is now. */
export async function reviewsNeedApproval(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ value: company.reviewsNeedApproval }).from(company).orderBy(asc(company.id)).limit(1);
  return row?.value ?? false;
}

export interface NewReview {
  productId: number;
  orderLineId: number;
  memberId: string;
  variantLabel: string;
  rating: number;
  body: string;
  photos: ReviewPhoto[];
  status: ReviewStatus;
  publishedAt: Date | null;
}

/** Inserts the review; null when the line has one already (a second tab, a double click). */
export async function insertReview(db: DbOrTx, review: NewReview): Promise<{ id: number; createdAt: Date } | null> {
  const [row] = await db
    .insert(productReviews)
    .values(review)
    .onConflictDoNothing({ target: productReviews.orderLineId })
    .returning({ id: productReviews.id, createdAt: productReviews.createdAt });
  return row ?? null;
}

export interface PublicReviewRow {
  id: number;
  firstName: string;
  variantLabel: string;
  rating: number;
  body: string;
  photos: ReviewPhoto[];
  answer: string | null;
  answeredAt: Date | null;
  createdAt: Date;
}

/** A page of a product's published reviews: those with photos first, then newest first. */
export async function publishedPage(db: DbOrTx, productId: number, offset: number, limit: number): Promise<PublicReviewRow[]> {
  return db
    .select({
      id: productReviews.id,
      firstName: members.firstName,
      variantLabel: productReviews.variantLabel,
      rating: productReviews.rating,
      body: productReviews.body,
      photos: productReviews.photos,
      answer: productReviews.answer,
      answeredAt: productReviews.answeredAt,
      createdAt: productReviews.createdAt,
    })
    .from(productReviews)
    .innerJoin(members, eq(members.id, productReviews.memberId))
    .where(and(eq(productReviews.productId, productId), eq(productReviews.status, 'published')))
    .orderBy(sql`jsonb_array_length(${productReviews.photos}) > 0 desc`, desc(productReviews.createdAt), desc(productReviews.id))
    .limit(limit)
    .offset(offset);
}

/** How many published reviews gave each number of stars. */
export async function distribution(db: DbOrTx, productId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ rating: productReviews.rating, count: sql<number>`count(*)::int` })
    .from(productReviews)
    .where(and(eq(productReviews.productId, productId), eq(productReviews.status, 'published')))
    .groupBy(productReviews.rating);
  return new Map(rows.map((row) => [row.rating, Number(row.count)]));
}

/** The product's published count and star sum, as the trigger keeps them on the product row. */
export async function productCounts(db: DbOrTx, productId: number): Promise<{ count: number; ratingSum: number }> {
  const [row] = await db.select({ count: products.reviewCount, ratingSum: products.reviewRatingSum }).from(products).where(eq(products.id, productId));
  return row ?? { count: 0, ratingSum: 0 };
}

export interface MemberReviewRow {
  id: number;
  orderLineId: number;
  productCode: string;
  productName: string;
  productActive: boolean;
  variantLabel: string;
  rating: number;
  body: string;
  photos: ReviewPhoto[];
  status: ReviewStatus;
  hiddenReason: string | null;
  answer: string | null;
  answeredAt: Date | null;
  createdAt: Date;
}

/** Every review the member wrote, whatever its status, newest first. */
export async function reviewsOfMember(db: DbOrTx, memberId: string): Promise<MemberReviewRow[]> {
  return db
    .select({
      id: productReviews.id,
      orderLineId: productReviews.orderLineId,
      productCode: products.code,
      productName: products.name,
      productActive: products.active,
      variantLabel: productReviews.variantLabel,
      rating: productReviews.rating,
      body: productReviews.body,
      photos: productReviews.photos,
      status: productReviews.status,
      hiddenReason: productReviews.hiddenReason,
      answer: productReviews.answer,
      answeredAt: productReviews.answeredAt,
      createdAt: productReviews.createdAt,
    })
    .from(productReviews)
    .innerJoin(products, eq(products.id, productReviews.productId))
    .where(eq(productReviews.memberId, memberId))
    .orderBy(desc(productReviews.createdAt), desc(productReviews.id));
}

export interface LineReviewState {
  orderNo: string;
  productCode: string;
  lineId: number;
  status: ReviewStatus | null;
  hiddenReason: string | null;
}

/** Each line of these orders of the member with its review's status (null: none written). */
export async function lineStates(db: DbOrTx, memberId: string, orderNos: readonly string[]): Promise<LineReviewState[]> {
  if (orderNos.length === 0) return [];
  return db
    .select({
      orderNo: orders.orderNo,
      productCode: orderLines.productCode,
      lineId: orderLines.id,
      status: productReviews.status,
      hiddenReason: productReviews.hiddenReason,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .leftJoin(productReviews, eq(productReviews.orderLineId, orderLines.id))
    .where(and(eq(orders.memberId, memberId), inArray(orders.orderNo, [...orderNos])));
}

/** Closing an account: the member's reviews go, with what they counted (the trigger); their photos' keys. */
export async function removeReviewsOfMember(db: DbOrTx, memberId: string): Promise<{ productId: number; photos: ReviewPhoto[]; status: ReviewStatus }[]> {
  return db
    .delete(productReviews)
    .where(eq(productReviews.memberId, memberId))
    .returning({ productId: productReviews.productId, photos: productReviews.photos, status: productReviews.status });
}

/** Product codes by id (to drop their cached pages). */
export async function productCodesOf(db: DbOrTx, productIds: readonly number[]): Promise<string[]> {
  if (productIds.length === 0) return [];
  const rows = await db.select({ code: products.code }).from(products).where(inArray(products.id, [...productIds]));
  return rows.map((row) => row.code);
}

/** Which of these photo keys a remaining review still shows (the same picture uploaded twice is stored once). */
export async function photoKeysInUse(db: DbOrTx, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const wanted = sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  );
  const rows = await db
    .select({ photos: productReviews.photos })
    .from(productReviews)
    .where(sql`exists (select 1 from jsonb_array_elements(${productReviews.photos}) as photo where photo->>'key' in (${wanted}))`);
  const asked = new Set(keys);
  return new Set(rows.flatMap((row) => row.photos.map((photo) => photo.key)).filter((key) => asked.has(key)));
}
