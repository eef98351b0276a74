import { asc, eq, inArray, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { categories, products, promotionCategories, promotionProducts, promotions } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { listPromotions } from './promotion-catalog.service.ts';
import type { PromotionState, PromotionSummary } from '../../lib/catalog-types.ts';
import type { PromotionForm } from '../../lib/promotion-schemas.ts';

/**
 * Promotion codes and their banners as the back office keeps them. A promotion made here is the same
 * row the seeded ones are, so checkout (promotion.service.ts) treats it exactly alike. Every change is
 * audited in its transaction and drops the cached catalog pages (banners, listings, promotions).
 */
export const ADMIN_PROMOTION_PAGE_SIZE = 20;

export interface AdminPromotionRow extends PromotionSummary {
  active: boolean;
  bannerColor: string;
}

export async function listPromotionsForAdmin(filter: { state?: PromotionState | undefined; q?: string | undefined; page: number }): Promise<{
  items: AdminPromotionRow[];
  total: number;
  page: number;
  pageSize: number;
}> {
  const [all, extras] = await Promise.all([listPromotions(), promotionExtras()]);
  const q = filter.q?.trim().toLowerCase() ?? '';
  const rows = all
    .filter((p) => !filter.state || p.state === filter.state)
    .filter((p) => !q || p.code.toLowerCase().includes(q) || p.name.toLowerCase().includes(q))
    .map((p) => ({ ...p, ...(extras.get(p.id) ?? { active: true, bannerColor: '#ffd000' }) }));
  const start = (filter.page - 1) * ADMIN_PROMOTION_PAGE_SIZE;
  return { items: rows.slice(start, start + ADMIN_PROMOTION_PAGE_SIZE), total: rows.length, page: filter.page, pageSize: ADMIN_PROMOTION_PAGE_SIZE };
}

async function promotionExtras(): Promise<Map<number, { active: boolean; bannerColor: string }>> {
  const db = await getDb();
  const rows = await db.select({ id: promotions.id, active: promotions.active, bannerColor: promotions.bannerColor }).from(promotions);
  return new Map(rows.map((row) => [row.id, { active: row.active, bannerColor: row.bannerColor }]));
}

export async function promotionForAdmin(code: string): Promise<AdminPromotionRow> {
  const [all, extras] = await Promise.all([listPromotions(), promotionExtras()]);
  const found = all.find((p) => p.code.toLowerCase() === code.toLowerCase());
  if (!found) throw notFound('promotion_not_found', 'ไม่พบโปรโมชั่นนี้');
  return { ...found, ...(extras.get(found.id) ?? { active: true, bannerColor: '#ffd000' }) };
}

export async function categoryChoices(): Promise<Array<{ code: string; name: string }>> {
  const db = await getDb();
  return db.select({ code: categories.code, name: categories.name }).from(categories).orderBy(asc(categories.sortOrder), asc(categories.name));
}

async function scopeIds(db: DbOrTx, input: PromotionForm): Promise<{ categoryIds: number[]; productIds: number[] }> {
  const categoryRows = input.categoryCodes.length
    ? await db.select({ id: categories.id, code: categories.code }).from(categories).where(inArray(categories.code, input.categoryCodes))
    : [];
  const missingCategory = input.categoryCodes.find((code) => !categoryRows.some((row) => row.code === code));
  if (missingCategory) throw badRequest('promotion_scope_unknown', `ไม่พบหมวดหมู่ ${missingCategory}`);
  const wanted = input.productCodes.map((code) => code.toLowerCase());
  const productRows = wanted.length
    ? await db.select({ id: products.id, code: products.code }).from(products).where(inArray(sql`lower(${products.code})`, wanted))
    : [];
  const missingProduct = input.productCodes.find((code) => !productRows.some((row) => row.code.toLowerCase() === code.toLowerCase()));
  if (missingProduct) throw badRequest('promotion_scope_unknown', `ไม่พบสินค้ารหัส ${missingProduct}`);
  return { categoryIds: categoryRows.map((row) => row.id), productIds: productRows.map((row) => row.id) };
}

type PromotionRow = typeof promotions.$inferSelect;

async function snapshot(db: DbOrTx, row: PromotionRow) {
  const [cats, prods] = await Promise.all([
    db.select({ code: categories.code }).from(promotionCategories).innerJoin(categories, eq(categories.id, promotionCategories.categoryId)).where(eq(promotionCategories.promotionId, row.id)),
    db.select({ code: products.code }).from(promotionProducts).innerJoin(products, eq(products.id, promotionProducts.productId)).where(eq(promotionProducts.promotionId, row.id)),
  ]);
  const { createdAt: _createdAt, id: _id, ...rest } = row;
  return { ...rest, categoryCodes: cats.map((c) => c.code).sort(), productCodes: prods.map((p) => p.code).sort() };
}

/**
 * Creates (no `existingCode`) or updates a promotion with its scope. `bannerImage` is a stored picture's
 * URL when a new one was uploaded; otherwise the old picture stays. Used-so-far is never set by hand.
 */
export async function savePromotion(actor: AuditActor, input: PromotionForm, options: { existingCode?: string; bannerImage?: string | null }): Promise<string> {
  const db = await getDb();
  const code = await db.transaction(async (tx) => {
    const scope = await scopeIds(tx, input);
    const values = {
      code: input.code,
      name: input.name,
      description: input.description,
      discountType: input.discountType,
      discountValue: input.discountValue,
      minOrderSatang: input.minOrderSatang,
      maxDiscountSatang: input.maxDiscountSatang,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      usageLimit: input.usageLimit,
      perMemberLimit: input.perMemberLimit,
      firstOrderOnly: input.firstOrderOnly,
      active: input.active,
      bannerColor: input.bannerColor,
      ...(input.bannerTextOver === undefined ? {} : { bannerTextOver: input.bannerTextOver }),
      ...(options.bannerImage ? { bannerImage: options.bannerImage } : {}),
    };
    const taken = await tx.select({ id: promotions.id, code: promotions.code }).from(promotions).where(sql`upper(${promotions.code}) = ${input.code}`);
    let before: Awaited<ReturnType<typeof snapshot>> | null = null;
    let row: PromotionRow;
    if (options.existingCode) {
      const [existing] = await tx.select().from(promotions).where(sql`upper(${promotions.code}) = ${options.existingCode.toUpperCase()}`).for('update');
      if (!existing) throw notFound('promotion_not_found', 'ไม่พบโปรโมชั่นนี้');
      if (taken.some((t) => t.id !== existing.id)) throw badRequest('promotion_code_taken', 'มีโค้ดนี้อยู่แล้ว', { code: 'มีโค้ดนี้อยู่แล้ว' });
      before = await snapshot(tx, existing);
      [row] = (await tx.update(promotions).set(values).where(eq(promotions.id, existing.id)).returning()) as [PromotionRow];
      await tx.delete(promotionCategories).where(eq(promotionCategories.promotionId, row.id));
      await tx.delete(promotionProducts).where(eq(promotionProducts.promotionId, row.id));
    } else {
      if (taken.length > 0) throw badRequest('promotion_code_taken', 'มีโค้ดนี้อยู่แล้ว', { code: 'มีโค้ดนี้อยู่แล้ว' });
      [row] = (await tx.insert(promotions).values(values).returning()) as [PromotionRow];
    }
    if (scope.categoryIds.length) await tx.insert(promotionCategories).values(scope.categoryIds.map((categoryId) => ({ promotionId: row.id, categoryId })));
    if (scope.productIds.length) await tx.insert(promotionProducts).values(scope.productIds.map((productId) => ({ promotionId: row.id, productId })));
    await recordAudit(tx, actor, {
      action: before ? 'promotion.update' : 'promotion.create',
      entityType: 'promotion',
      entityId: row.code,
      before,
      after: await snapshot(tx, row),
    });
    return row.code;
  });
  await invalidateCatalog();
  return code;
}

/** The banner alone (picture, colour, text over it or not): what an editor may change on a promotion. */
export async function savePromotionBanner(actor: AuditActor, code: string, banner: { bannerColor: string; bannerTextOver?: boolean | undefined; bannerImage?: string | null }): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(promotions).where(sql`upper(${promotions.code}) = ${code.toUpperCase()}`).for('update');
    if (!existing) throw notFound('promotion_not_found', 'ไม่พบโปรโมชั่นนี้');
    const bannerTextOver = banner.bannerTextOver ?? existing.bannerTextOver;
    const values = { bannerColor: banner.bannerColor, bannerTextOver, ...(banner.bannerImage ? { bannerImage: banner.bannerImage } : {}) };
    await tx.update(promotions).set(values).where(eq(promotions.id, existing.id));
    await recordAudit(tx, actor, {
      action: 'promotion.banner',
      entityType: 'promotion',
      entityId: existing.code,
      before: { bannerColor: existing.bannerColor, bannerTextOver: existing.bannerTextOver, bannerImage: existing.bannerImage },
      after: { bannerColor: banner.bannerColor, bannerTextOver, bannerImage: banner.bannerImage ?? existing.bannerImage },
    });
  });
  await invalidateCatalog();
}
