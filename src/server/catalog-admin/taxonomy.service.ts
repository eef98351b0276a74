import { asc, count, eq, sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { brands, categories, products } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { storePicture } from '../storage/images.ts';
import { normalizeText } from '../../lib/thai-text.ts';
import { refreshSearchText } from './product-admin.repo.ts';

/**
 * Categories and brands (docs/design.md section 10: add, rename, order, picture, hide). A rename changes what
 * search finds, so the products' search text is recomputed in the same transaction; a category that
 * still holds products cannot be deleted until they move. Every change drops every cached catalog page
 * (navigation, listings and product pages all show these names).
 */
const CODE = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface CategoryRow {
  id: number;
  code: string;
  name: string;
  nameEn: string;
  description: string;
  image: string | null;
  sortOrder: number;
  active: boolean;
  products: number;
}

export interface BrandRow {
  id: number;
  code: string;
  name: string;
  nameTh: string;
  description: string;
  logo: string | null;
  active: boolean;
  products: number;
}

export async function listCategories(): Promise<CategoryRow[]> {
  const db = await getDb();
  return db
    .select({
      id: categories.id,
      code: categories.code,
      name: categories.name,
      nameEn: categories.nameEn,
      description: categories.description,
      image: categories.image,
      sortOrder: categories.sortOrder,
      active: categories.active,
      // Spelled out: in a one-table select drizzle leaves columns unqualified, which would bind to the subquery.
      products: sql<number>`(select count(*)::int from products p where p.category_id = "categories"."id")`,
    })
    .from(categories)
    .orderBy(asc(categories.sortOrder), asc(categories.id));
}

export async function listBrands(): Promise<BrandRow[]> {
  const db = await getDb();
  return db
    .select({
      id: brands.id,
      code: brands.code,
      name: brands.name,
      nameTh: brands.nameTh,
      description: brands.description,
      logo: brands.logo,
      active: brands.active,
      products: sql<number>`(select count(*)::int from products p where p.brand_id = "brands"."id")`,
    })
    .from(brands)
    .orderBy(asc(brands.name));
}

function field(form: FormData, name: string, max: number): string {
  const value = form.get(name);
  return typeof value === 'string' ? normalizeText(value).slice(0, max) : '';
}

async function pictureFrom(form: FormData, folder: 'categories' | 'brands'): Promise<string | undefined> {
  const file = form.get('picture');
  if (!(file instanceof File) || file.size === 0) return undefined;
  return (await storePicture(new Uint8Array(await file.arrayBuffer()), folder)).url;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

/** Adds (no id) or edits a category from its form. */
export async function saveCategory(actor: AuditActor, id: number | null, form: FormData): Promise<void> {
  const code = field(form, 'code', 63).toLowerCase();
  const name = field(form, 'name', 100);
  if (!CODE.test(code)) throw badRequest('validation_failed', 'รหัสหมวดหมู่ใช้ได้เฉพาะ a–z, 0–9 และขีด (-)', { code: 'รหัสไม่ถูกต้อง' });
  if (!name) throw badRequest('validation_failed', 'กรุณากรอกชื่อหมวดหมู่', { name: 'กรุณากรอกชื่อ' });
  const values = {
    code,
    name,
    nameEn: field(form, 'name_en', 100),
    description: field(form, 'description', 500),
    active: form.get('active') !== null && form.get('active') !== '0',
  };
  const image = await pictureFrom(form, 'categories');
  const db = await getDb();
  try {
    await db.transaction(async (tx) => {
      if (id === null) {
        const [last] = await tx.select({ n: sql<number>`coalesce(max(${categories.sortOrder}), -1)::int` }).from(categories);
        const [inserted] = await tx
          .insert(categories)
          .values({ ...values, sortOrder: (last?.n ?? -1) + 1, ...(image ? { image } : {}) })
          .returning();
        await recordAudit(tx, actor, { action: 'category.create', entityType: 'category', entityId: code, after: inserted });
        return;
      }
      const [before] = await tx.select().from(categories).where(eq(categories.id, id)).for('update');
      if (!before) throw notFound('category_not_found', 'ไม่พบหมวดหมู่นี้');
      const [after] = await tx
        .update(categories)
        .set({ ...values, ...(image ? { image } : {}) })
        .where(eq(categories.id, id))
        .returning();
      if (before.name !== values.name || before.nameEn !== values.nameEn) await refreshSearchText(tx, sql`p.category_id = ${id}`);
      await recordAudit(tx, actor, { action: 'category.update', entityType: 'category', entityId: code, before, after });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('category_code_taken', 'รหัสหมวดหมู่นี้มีอยู่แล้ว');
    throw error;
  }
  await invalidateCatalog();
}

/** Moves a category one place up or down in the shop's menu. */
export async function moveCategory(actor: AuditActor, id: number, direction: 'up' | 'down'): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: categories.id, code: categories.code, sortOrder: categories.sortOrder })
      .from(categories)
      .orderBy(asc(categories.sortOrder), asc(categories.id))
      .for('update');
    const index = rows.findIndex((row) => row.id === id);
    if (index < 0) throw notFound('category_not_found', 'ไม่พบหมวดหมู่นี้');
    const other = direction === 'up' ? index - 1 : index + 1;
    if (other < 0 || other >= rows.length) return;
    const order = rows.map((row) => row.id);
    [order[index], order[other]] = [order[other] as number, order[index] as number];
    for (const [position, rowId] of order.entries()) {
      await tx.update(categories).set({ sortOrder: position }).where(eq(categories.id, rowId));
    }
    await recordAudit(tx, actor, {
      action: 'category.reorder',
      entityType: 'category',
      entityId: rows[index]?.code ?? String(id),
      before: { position: index },
      after: { position: other },
    });
  });
  await invalidateCatalog();
}

/** Deletes a category; one that holds products needs `moveTo`, where its products go first. */
export async function deleteCategory(actor: AuditActor, id: number, moveTo: number | null): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(categories).where(eq(categories.id, id)).for('update');
    if (!before) throw notFound('category_not_found', 'ไม่พบหมวดหมู่นี้');
    const [held] = await tx.select({ n: count() }).from(products).where(eq(products.categoryId, id));
    const moved = held?.n ?? 0;
    if (moved > 0) {
      if (moveTo === null || moveTo === id) {
        throw conflict('category_has_products', `หมวดหมู่นี้มีสินค้า ${moved.toLocaleString('th-TH')} รายการ กรุณาเลือกหมวดหมู่ที่จะย้ายสินค้าไปก่อนลบ`);
      }
      const [target] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, moveTo));
      if (!target) throw badRequest('category_not_found', 'ไม่พบหมวดหมู่ปลายทาง');
      await tx.update(products).set({ categoryId: moveTo, updatedAt: sql`now()` }).where(eq(products.categoryId, id));
      await refreshSearchText(tx, sql`p.category_id = ${moveTo}`);
    }
    await tx.delete(categories).where(eq(categories.id, id));
    await recordAudit(tx, actor, {
      action: 'category.delete',
      entityType: 'category',
      entityId: before.code,
      before,
      after: moved > 0 ? { movedProducts: moved, to: moveTo } : null,
    });
  });
  await invalidateCatalog();
}

export async function saveBrand(actor: AuditActor, id: number | null, form: FormData): Promise<void> {
  const code = field(form, 'code', 63).toLowerCase();
  const name = field(form, 'name', 100);
  if (!CODE.test(code)) throw badRequest('validation_failed', 'รหัสแบรนด์ใช้ได้เฉพาะ a–z, 0–9 และขีด (-)', { code: 'รหัสไม่ถูกต้อง' });
  if (!name) throw badRequest('validation_failed', 'กรุณากรอกชื่อแบรนด์', { name: 'กรุณากรอกชื่อ' });
  const values = {
    code,
    name,
    nameTh: field(form, 'name_th', 100),
    description: field(form, 'description', 500),
    active: form.get('active') !== null && form.get('active') !== '0',
  };
  const logo = await pictureFrom(form, 'brands');
  const db = await getDb();
  try {
    await db.transaction(async (tx) => {
      if (id === null) {
        const [inserted] = await tx.insert(brands).values({ ...values, ...(logo ? { logo } : {}) }).returning();
        await recordAudit(tx, actor, { action: 'brand.create', entityType: 'brand', entityId: code, after: inserted });
        return;
      }
      const [before] = await tx.select().from(brands).where(eq(brands.id, id)).for('update');
      if (!before) throw notFound('brand_not_found', 'ไม่พบแบรนด์นี้');
      const [after] = await tx.update(brands).set({ ...values, ...(logo ? { logo } : {}) }).where(eq(brands.id, id)).returning();
      if (before.name !== values.name || before.nameTh !== values.nameTh) await refreshSearchText(tx, sql`p.brand_id = ${id}`);
      await recordAudit(tx, actor, { action: 'brand.update', entityType: 'brand', entityId: code, before, after });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('brand_code_taken', 'รหัสแบรนด์นี้มีอยู่แล้ว');
    throw error;
  }
  await invalidateCatalog();
}

/** Deletes a brand that no product carries (otherwise hide it, or change the products first). */
export async function deleteBrand(actor: AuditActor, id: number): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(brands).where(eq(brands.id, id)).for('update');
    if (!before) throw notFound('brand_not_found', 'ไม่พบแบรนด์นี้');
    const [held] = await tx.select({ n: count() }).from(products).where(eq(products.brandId, id));
    if ((held?.n ?? 0) > 0) {
      throw conflict('brand_has_products', `แบรนด์นี้มีสินค้า ${(held?.n ?? 0).toLocaleString('th-TH')} รายการ ซ่อนแบรนด์แทน หรือเปลี่ยนแบรนด์ของสินค้าก่อนลบ`);
    }
    await tx.delete(brands).where(eq(brands.id, id));
    await recordAudit(tx, actor, { action: 'brand.delete', entityType: 'brand', entityId: before.code, before });
  });
  await invalidateCatalog();
}
