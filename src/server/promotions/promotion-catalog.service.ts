import { asc, eq, inArray } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { categories, products, promotionCategories, promotionProducts, promotions } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import type { PromotionState, PromotionSummary } from '../../lib/catalog-types.ts';

/**
 * Promotions as shoppers see them. A promotion whose usage limit is reached is `used_up`: it is not
 * active (no banner, not in /api/get-promotionactive/) even while its dates still run.
 */
export function promotionState(row: { active: boolean; startsAt: Date; endsAt: Date; usageLimit: number | null; usedCount: number }, now: Date): PromotionState {
  if (!row.active || row.endsAt <= now) return 'ended';
  if (row.startsAt > now) return 'upcoming';
  if (row.usageLimit !== null && row.usedCount >= row.usageLimit) return 'used_up';
  return 'active';
}

const stateOrder: Record<PromotionState, number> = { active: 0, upcoming: 1, used_up: 2, ended: 3 };

export async function listPromotions(now = new Date()): Promise<PromotionSummary[]> {
  const db = await getDb();
  const [rows, categoryRows, productRows] = await Promise.all([
    db.select().from(promotions).orderBy(asc(promotions.startsAt), asc(promotions.id)),
    db.select({ promotionId: promotionCategories.promotionId, code: categories.code }).from(promotionCategories).innerJoin(categories, eq(categories.id, promotionCategories.categoryId)),
    db.select({ promotionId: promotionProducts.promotionId, code: products.code }).from(promotionProducts).innerJoin(products, eq(products.id, promotionProducts.productId)),
  ]);
  const list = rows.map((row) => ({
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    bannerImage: row.bannerImage,
    bannerColor: row.bannerColor,
    bannerTextOver: row.bannerTextOver,
    discountType: row.discountType,
    discountValue: row.discountValue,
    minOrderSatang: row.minOrderSatang,
    maxDiscountSatang: row.maxDiscountSatang,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    usageLimit: row.usageLimit,
    usedCount: row.usedCount,
    perMemberLimit: row.perMemberLimit,
    firstOrderOnly: row.firstOrderOnly,
    state: promotionState(row, now),
    categoryCodes: categoryRows.filter((c) => c.promotionId === row.id).map((c) => c.code),
    productCodes: productRows.filter((p) => p.promotionId === row.id).map((p) => p.code),
  }));
  // Active first (ending soonest first), then upcoming (starting soonest), then the rest, newest first.
  return list.sort((a, b) => {
    const byState = stateOrder[a.state] - stateOrder[b.state];
    if (byState !== 0) return byState;
    if (a.state === 'active') return a.endsAt.localeCompare(b.endsAt);
    if (a.state === 'upcoming') return a.startsAt.localeCompare(b.startsAt);
    return b.endsAt.localeCompare(a.endsAt);
  });
}

export async function activePromotions(now = new Date()): Promise<PromotionSummary[]> {
  return (await listPromotions(now)).filter((promotion) => promotion.state === 'active');
}

export async function promotionByCode(code: string, now = new Date()): Promise<PromotionSummary> {
  const found = (await listPromotions(now)).find((promotion) => promotion.code.toLowerCase() === code.toLowerCase());
  if (!found) throw notFound('promotion_not_found', 'ไม่พบโปรโมชั่นนี้');
  return found;
}

/** The product filter of a promotion: null when it applies to every product. */
export async function promotionScope(promotion: PromotionSummary): Promise<{ categoryIds: number[]; productIds: number[] } | null> {
  if (promotion.categoryCodes.length === 0 && promotion.productCodes.length === 0) return null;
  const db = await getDb();
  const [categoryRows, productRows] = await Promise.all([
    promotion.categoryCodes.length > 0 ? db.select({ id: categories.id }).from(categories).where(inArray(categories.code, promotion.categoryCodes)) : [],
    promotion.productCodes.length > 0 ? db.select({ id: products.id }).from(products).where(inArray(products.code, promotion.productCodes)) : [],
  ]);
  return { categoryIds: categoryRows.map((row) => row.id), productIds: productRows.map((row) => row.id) };
}
