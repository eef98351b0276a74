import { aliasedTable, and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client.ts';
import { members, orderLines, orders, productReviews, products, type ReviewPhoto, type ReviewStatus } from '../db/schema.ts';

/** The back office's reads and writes of reviews (issue 31 part 3); the rules are in review-moderation.service.ts. */

/** The queue's tabs: one status, or every review. */
export type ReviewFilter = ReviewStatus | 'all';

export interface AdminReviewRow {
  id: number;
  status: ReviewStatus;
  rating: number;
  body: string;
  photos: ReviewPhoto[];
  variantLabel: string;
  hiddenReason: string | null;
  answer: string | null;
  answeredAt: Date | null;
  answeredByName: string | null;
  publishedAt: Date | null;
  createdAt: Date;
  productCode: string;
  productName: string;
  memberId: string;
  memberName: string;
  memberEmail: string;
  orderNo: string;
}

const answerer = aliasedTable(members, 'answerer');

/** Narrows the queue to one review (the audit trail's link) or one product's reviews. */
export interface ReviewScope {
  reviewId?: number | undefined;
  productCode?: string | undefined;
}

const productIdOf = (code: string) => sql`(select ${products.id} from ${products} where ${products.code} = ${code})`;

function scoped(scope: ReviewScope): SQL[] {
  const conditions: SQL[] = [];
  if (scope.reviewId !== undefined) conditions.push(eq(productReviews.id, scope.reviewId));
  if (scope.productCode !== undefined) conditions.push(sql`${productReviews.productId} = ${productIdOf(scope.productCode)}`);
  return conditions;
}

/** One page of the queue, newest first (the status index's order), and how many match. */
export async function listForAdmin(db: DbOrTx, filter: ReviewFilter, page: number, pageSize: number, scope: ReviewScope = {}): Promise<{ rows: AdminReviewRow[]; total: number }> {
  const conditions = scoped(scope);
  if (filter !== 'all') conditions.push(eq(productReviews.status, filter));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: productReviews.id,
        status: productReviews.status,
        rating: productReviews.rating,
        body: productReviews.body,
        photos: productReviews.photos,
        variantLabel: productReviews.variantLabel,
        hiddenReason: productReviews.hiddenReason,
        answer: productReviews.answer,
        answeredAt: productReviews.answeredAt,
        answeredByName: sql<string | null>`nullif(trim(${answerer.firstName} || ' ' || ${answerer.lastName}), '')`,
        publishedAt: productReviews.publishedAt,
        createdAt: productReviews.createdAt,
        productCode: products.code,
        productName: products.name,
        memberId: members.id,
        memberName: sql<string>`trim(${members.firstName} || ' ' || ${members.lastName})`,
        memberEmail: members.email,
        orderNo: orders.orderNo,
      })
      .from(productReviews)
      .innerJoin(products, eq(products.id, productReviews.productId))
      .innerJoin(members, eq(members.id, productReviews.memberId))
      .innerJoin(orderLines, eq(orderLines.id, productReviews.orderLineId))
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .leftJoin(answerer, eq(answerer.id, productReviews.answeredBy))
      .where(where)
      .orderBy(desc(productReviews.createdAt), desc(productReviews.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(productReviews).where(where),
  ]);
  return { rows, total: Number(counted?.total ?? 0) };
}

/** How many reviews are in each status (the tabs' badges and the dashboard's "รีวิวรอตรวจ"), of one product when given. */
export async function countByStatus(db: DbOrTx, productCode?: string): Promise<Record<ReviewStatus, number>> {
  const where = productCode === undefined ? undefined : and(...scoped({ productCode }));
  const rows = await db.select({ status: productReviews.status, total: count() }).from(productReviews).where(where).groupBy(productReviews.status);
  const counts: Record<ReviewStatus, number> = { pending: 0, published: 0, hidden: 0 };
  for (const row of rows) counts[row.status] = Number(row.total);
  return counts;
}

export interface LockedReview {
  id: number;
  status: ReviewStatus;
  hiddenReason: string | null;
  answer: string | null;
  publishedAt: Date | null;
  photos: ReviewPhoto[];
  productCode: string;
  productName: string;
}

/** The review, its row locked until the transaction ends: two staff acting at once take turns. */
export async function lockReview(tx: Tx, id: number): Promise<LockedReview | null> {
  const [row] = await tx
    .select({
      id: productReviews.id,
      status: productReviews.status,
      hiddenReason: productReviews.hiddenReason,
      answer: productReviews.answer,
      publishedAt: productReviews.publishedAt,
      photos: productReviews.photos,
      productCode: products.code,
      productName: products.name,
    })
    .from(productReviews)
    .innerJoin(products, eq(products.id, productReviews.productId))
    .where(eq(productReviews.id, id))
    .limit(1)
    .for('update', { of: productReviews });
  return row ?? null;
}

export type ReviewChange = Partial<Pick<typeof productReviews.$inferInsert, 'status' | 'hiddenReason' | 'answer' | 'answeredAt' | 'answeredBy' | 'publishedAt' | 'photos'>>;

export async function updateReview(tx: Tx, id: number, change: ReviewChange, now: Date): Promise<void> {
  await tx
    .update(productReviews)
    .set({ ...change, updatedAt: now })
    .where(eq(productReviews.id, id));
}

/** A member's reviews by status, for the back office's member page. */
export async function memberReviewCounts(db: DbOrTx, memberId: string): Promise<Record<ReviewStatus, number>> {
  const rows = await db
    .select({ status: productReviews.status, total: count() })
    .from(productReviews)
    .where(eq(productReviews.memberId, memberId))
    .groupBy(productReviews.status);
  const counts: Record<ReviewStatus, number> = { pending: 0, published: 0, hidden: 0 };
  for (const row of rows) counts[row.status] = Number(row.total);
  return counts;
}

/** The product's published count and star sum (kept by the trigger) and its name, for the back office's product page. */
export async function productReviewSummary(db: DbOrTx, productCode: string): Promise<{ name: string; count: number; ratingSum: number } | null> {
  const [row] = await db.select({ name: products.name, count: products.reviewCount, ratingSum: products.reviewRatingSum }).from(products).where(eq(products.code, productCode)).limit(1);
  return row ?? null;
}
