import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { orders, promotionCategories, promotionProducts, promotions } from '../db/schema.ts';

export interface PromotionRule {
  id: number;
  code: string;
  name: string;
  discountType: 'percent' | 'fixed';
  discountValue: number;
  minOrderSatang: number;
  maxDiscountSatang: number | null;
  startsAt: Date;
  endsAt: Date;
  usageLimit: number | null;
  usedCount: number;
  /** Uses one member may make; null: as many as the total limit allows. */
  perMemberLimit: number | null;
  firstOrderOnly: boolean;
  active: boolean;
  productIds: number[];
  categoryIds: number[];
}

/** A promotion with the products and categories it is limited to (empty lists: the whole shop). */
export async function findPromotionRule(db: DbOrTx, code: string): Promise<PromotionRule | null> {
  const [row] = await db.select().from(promotions).where(sql`upper(${promotions.code}) = ${code.toUpperCase()}`).limit(1);
  if (!row) return null;
  const [productRows, categoryRows] = await Promise.all([
    db.select({ id: promotionProducts.productId }).from(promotionProducts).where(eq(promotionProducts.promotionId, row.id)),
    db.select({ id: promotionCategories.categoryId }).from(promotionCategories).where(eq(promotionCategories.promotionId, row.id)),
  ]);
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    discountType: row.discountType,
    discountValue: row.discountValue,
    minOrderSatang: row.minOrderSatang,
    maxDiscountSatang: row.maxDiscountSatang,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    usageLimit: row.usageLimit,
    usedCount: row.usedCount,
    perMemberLimit: row.perMemberLimit,
    firstOrderOnly: row.firstOrderOnly,
    active: row.active,
    productIds: productRows.map((r) => r.id),
    categoryIds: categoryRows.map((r) => r.id),
  };
}

/**
 * Counts one use, only while the limit allows: the row lock of the update makes two checkouts racing
 * for the last use see each other. Returns false when the promotion is used up.
 */
export async function takePromotionUse(tx: DbOrTx, id: number): Promise<boolean> {
  const rows = await tx
    .update(promotions)
    .set({ usedCount: sql`${promotions.usedCount} + 1` })
    .where(sql`${promotions.id} = ${id} and (${promotions.usageLimit} is null or ${promotions.usedCount} < ${promotions.usageLimit})`)
    .returning({ id: promotions.id });
  return rows.length === 1;
}

/** Gives a use back when an order that counted it is cancelled or expires. */
export async function returnPromotionUse(tx: DbOrTx, code: string): Promise<void> {
  await tx
    .update(promotions)
    .set({ usedCount: sql`greatest(${promotions.usedCount} - 1, 0)` })
    .where(sql`upper(${promotions.code}) = ${code.toUpperCase()}`);
}

/** A member's orders as the per-member rules count them: the ones not cancelled or expired (decision 178). */
export interface MemberOrderHistory {
  /** Orders so far that carry this promotion's code. */
  usesOfCode: number;
  /** Orders so far, with any code or none. */
  orders: number;
}

export async function memberOrderHistory(db: DbOrTx, memberId: string, code: string): Promise<MemberOrderHistory> {
  const [row] = await db
    .select({
      usesOfCode: sql<number>`count(*) filter (where upper(${orders.promotionCode}) = ${code.toUpperCase()})`.mapWith(Number),
      orders: sql<number>`count(*)`.mapWith(Number),
    })
    .from(orders)
    .where(and(eq(orders.memberId, memberId), notInArray(orders.status, ['cancelled', 'expired'])));
  return { usesOfCode: row?.usesOfCode ?? 0, orders: row?.orders ?? 0 };
}
