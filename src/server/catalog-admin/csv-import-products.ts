import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { auditLog, brands, categories, productPriceTiers, products, productVariants, stockMovements } from '../db/schema.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { groupTiersByProduct, lowestTierPrice, sortTiers } from '../../lib/pricing.ts';
import { formatTiers, type TierInput } from '../../lib/product-rules.ts';
import { mergedTierProblem, REQUIRED_FOR_CREATE, type CsvRow } from './csv-columns.ts';
import type { ImportProblem } from './csv-read.ts';
import { refreshSearchTextOf } from './product-admin.repo.ts';

/**
 * The CSV import's rows of the one row per product format (docs/design.md section 10): each row is a
 * product created or updated by code, its price and stock written on the product (which the variants'
 * triggers carry to a one-variant product's variant, docs/decisions/205). Also the parts the one row per
 * variant format (csv-import-variants.ts) shares: the catalog's categories and brands, the products a
 * batch names (locked variant rows first, as checkouts lock them), the audit rows.
 */

export interface Refs {
  categories: Map<string, { id: number; name: string; nameEn: string }>;
  brands: Map<string, { id: number; name: string; nameTh: string }>;
}

export interface Target {
  name: string;
  nameEn: string;
  categoryId: number;
  brandId: number | null;
  priceSatang: number;
  stock: number;
  unit: string;
  active: boolean;
  recommended: boolean;
  tiers: TierInput[];
  description: string;
}

export interface Existing extends Target {
  id: number;
  code: string;
  /** More than one: the price and stock are its variants' (docs/decisions/205). */
  variantCount: number;
  optionNames: string[];
}

export async function loadRefs(db: DbOrTx): Promise<Refs> {
  const [categoryRows, brandRows] = await Promise.all([
    db.select({ id: categories.id, code: categories.code, name: categories.name, nameEn: categories.nameEn }).from(categories),
    db.select({ id: brands.id, code: brands.code, name: brands.name, nameTh: brands.nameTh }).from(brands),
  ]);
  return {
    categories: new Map(categoryRows.map((row) => [row.code.toLowerCase(), row])),
    brands: new Map(brandRows.map((row) => [row.code.toLowerCase(), row])),
  };
}

/**
 * The products of these codes. With `lock`, their variant rows are locked first, then the product rows,
 * each in (product, variant) id order: the order a checkout takes them in (variant.repo variantsForSale,
 * then the stock trigger's product row), so an import and an order never wait on each other in a cycle.
 */
export async function existingByCode(db: DbOrTx, codes: string[], lock: boolean): Promise<Map<string, Existing>> {
  if (codes.length === 0) return new Map();
  if (lock) {
    await db
      .select({ id: productVariants.id })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(inArray(products.code, codes))
      .orderBy(asc(productVariants.productId), asc(productVariants.id))
      .for('update', { of: productVariants });
  }
  const query = db
    .select({
      id: products.id,
      code: products.code,
      name: products.name,
      nameEn: products.nameEn,
      categoryId: products.categoryId,
      brandId: products.brandId,
      priceSatang: products.priceSatang,
      stock: products.stock,
      unit: products.unit,
      active: products.active,
      recommended: products.recommended,
      description: products.description,
      optionNames: products.optionNames,
      // Written out: Drizzle leaves a one-table selection's columns unqualified, and `id` would be the variant's.
      variantCount: sql<number>`(select count(*)::int from product_variants v where v.product_id = "products"."id")`,
    })
    .from(products)
    .where(inArray(products.code, codes))
    .orderBy(asc(products.id));
  const rows = lock ? await query.for('update') : await query;
  const tierRows = rows.length
    ? await db
        .select({ productId: productPriceTiers.productId, minQuantity: productPriceTiers.minQuantity, priceSatang: productPriceTiers.priceSatang })
        .from(productPriceTiers)
        .where(and(inArray(productPriceTiers.productId, rows.map((row) => row.id)), isNull(productPriceTiers.variantId)))
    : [];
  const tiers = groupTiersByProduct(tierRows);
  return new Map(rows.map((row) => [row.code, { ...row, tiers: sortTiers(tiers.get(row.id) ?? []) }]));
}

/**
 * Who owns each of these codes: a product's own code, or the product whose variant has it. A code is
 * unique across the shop (docs/decisions/205), so a new product or variant may not take one owned elsewhere.
 */
export async function codeOwners(db: DbOrTx, codes: readonly string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  if (codes.length === 0) return owners;
  const list = [...new Set(codes)];
  const [productRows, variantRows] = await Promise.all([
    db.select({ code: products.code }).from(products).where(inArray(products.code, list)),
    db
      .select({ code: productVariants.code, productCode: products.code })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(inArray(productVariants.code, list)),
  ]);
  for (const row of productRows) owners.set(row.code, row.code);
  for (const row of variantRows) if (!owners.has(row.code)) owners.set(row.code, row.productCode);
  return owners;
}

/** What a new product's code may not be: another product's variant code. */
export function codeTakenReason(code: string, owners: ReadonlyMap<string, string>): string | null {
  const owner = owners.get(code);
  return owner !== undefined && owner !== code ? `รหัสสินค้า ${code} เป็นรหัสตัวเลือกของสินค้า ${owner} แล้ว` : null;
}

/**
 * The product a row describes after the import: the file's columns over the product's current values.
 * A Thai reason instead when the row names a category or brand that does not exist.
 */
export function productTarget(row: CsvRow, before: Existing | undefined, refs: Refs): Target | string {
  const f = row.fields;
  let categoryId = before?.categoryId;
  if (f.categoryCode !== undefined) {
    const category = refs.categories.get(f.categoryCode);
    if (!category) return `ไม่พบหมวดหมู่รหัส "${f.categoryCode}"`;
    categoryId = category.id;
  }
  let brandId = before?.brandId ?? null;
  if (f.brandCode !== undefined) {
    if (f.brandCode === null) brandId = null;
    else {
      const brand = refs.brands.get(f.brandCode);
      if (!brand) return `ไม่พบแบรนด์รหัส "${f.brandCode}"`;
      brandId = brand.id;
    }
  }
  return {
    name: f.name ?? before?.name ?? '',
    nameEn: f.nameEn ?? before?.nameEn ?? '',
    categoryId: categoryId as number,
    brandId,
    priceSatang: f.priceSatang ?? before?.priceSatang ?? 0,
    stock: f.stock ?? before?.stock ?? 0,
    unit: f.unit ?? before?.unit ?? 'ชิ้น',
    active: f.active ?? before?.active ?? true,
    recommended: f.recommended ?? before?.recommended ?? false,
    tiers: f.tiers ?? before?.tiers ?? [],
    description: f.description ?? before?.description ?? '',
  };
}

/** The product's own columns (all but price and stock) are the same. */
export function sameProductColumns(a: Target, b: Target): boolean {
  return (
    a.name === b.name &&
    a.nameEn === b.nameEn &&
    a.categoryId === b.categoryId &&
    a.brandId === b.brandId &&
    a.unit === b.unit &&
    a.active === b.active &&
    a.recommended === b.recommended &&
    a.description === b.description &&
    formatTiers(a.tiers) === formatTiers(b.tiers)
  );
}

function same(a: Target, b: Target): boolean {
  return a.priceSatang === b.priceSatang && a.stock === b.stock && sameProductColumns(a, b);
}

export interface Plan {
  creates: { row: CsvRow; target: Target }[];
  updates: { row: CsvRow; before: Existing; target: Target }[];
  unchanged: number;
  errors: ImportProblem[];
}

export function planBatch(batch: CsvRow[], existing: Map<string, Existing>, owners: ReadonlyMap<string, string>, refs: Refs): Plan {
  const plan: Plan = { creates: [], updates: [], unchanged: 0, errors: [] };
  for (const row of batch) {
    const before = existing.get(row.code);
    const fail = (reason: string) => plan.errors.push({ line: row.line, code: row.code, reason });
    const f = row.fields;
    if (!before) {
      const missing = REQUIRED_FOR_CREATE.filter((key) => key !== 'code' && (key === 'category' ? f.categoryCode : key === 'price' ? f.priceSatang : f.name) === undefined);
      if (missing.length > 0) {
        fail('สินค้าใหม่ต้องมีชื่อสินค้า หมวดหมู่ และราคา');
        continue;
      }
    }
    const taken = before ? null : codeTakenReason(row.code, owners);
    if (taken) {
      fail(taken);
      continue;
    }
    const target = productTarget(row, before, refs);
    if (typeof target === 'string') {
      fail(target);
      continue;
    }
    const problem = mergedTierProblem(target.priceSatang, target.tiers);
    if (problem) {
      fail(problem);
      continue;
    }
    if (before && before.variantCount > 1 && (target.priceSatang !== before.priceSatang || target.stock !== before.stock)) {
      fail('สินค้านี้มีหลายตัวเลือก (เช่น สีหรือขนาด) ราคาและจำนวนคงเหลือต้องแก้ที่แต่ละตัวเลือก');
      continue;
    }
    if (!before) plan.creates.push({ row, target });
    else if (same(before, target)) plan.unchanged++;
    else plan.updates.push({ row, before, target });
  }
  return plan;
}

/**
 * The product row's own columns a CSV row sets (all but price and stock, which a product of several
 * variants takes from them), the same for a new product and an updated one. Its search text is written
 * afterwards by refreshSearchText, which also reads its variants.
 */
export function ownColumns(target: Target) {
  return {
    name: target.name,
    nameEn: target.nameEn,
    categoryId: target.categoryId,
    brandId: target.brandId,
    unit: target.unit,
    active: target.active,
    recommended: target.recommended,
    description: target.description,
    // The tiers' trigger keeps this column; set with the row, the trigger finds nothing more to write.
    wholesaleFromSatang: lowestTierPrice(target.tiers),
  };
}

const productColumns = (target: Target) => ({ ...ownColumns(target), priceSatang: target.priceSatang, stock: target.stock });


export interface AuditRow {
  action: string;
  entityId: string;
  before: unknown;
  after: unknown;
}

export async function insertAudit(tx: DbOrTx, actor: AuditActor, rows: readonly AuditRow[]): Promise<void> {
  for (let index = 0; index < rows.length; index += 500) {
    await tx.insert(auditLog).values(
      rows.slice(index, index + 500).map((row) => ({
        actorId: actor.id,
        actorEmail: actor.email.slice(0, 200),
        actorRole: actor.role,
        via: actor.via,
        action: row.action,
        entityType: 'product',
        entityId: row.entityId,
        before: row.before as object | null,
        after: row.after as object | null,
        note: 'นำเข้า CSV',
        ip: (actor.ip ?? '').slice(0, 64),
      })),
    );
  }
}

const auditTarget = (code: string, target: Target) => ({ code, ...target });

export async function execute(tx: DbOrTx, actor: AuditActor, plan: Plan): Promise<void> {
  const audits: AuditRow[] = [];
  const written: number[] = [];
  if (plan.creates.length > 0) {
    const inserted = await tx
      .insert(products)
      .values(
        plan.creates.map(({ row, target }) => ({ code: row.code, ...productColumns(target) })),
      )
      .returning({ id: products.id, code: products.code });
    const idOf = new Map(inserted.map((row) => [row.code, row.id]));
    written.push(...inserted.map((row) => row.id));
    const tiers = plan.creates.flatMap(({ row, target }) => target.tiers.map((tier) => ({ productId: idOf.get(row.code) as number, ...tier })));
    if (tiers.length > 0) await tx.insert(productPriceTiers).values(tiers);
    const moves = plan.creates
      .filter(({ target }) => target.stock > 0)
      .map(({ row, target }) => ({
        productId: idOf.get(row.code) as number,
        delta: target.stock,
        stockAfter: target.stock,
        kind: 'import' as const,
        reason: `นำเข้า CSV บรรทัด ${row.line}`,
        actorEmail: actor.email.slice(0, 200),
      }));
    if (moves.length > 0) await tx.insert(stockMovements).values(moves);
    for (const { row, target } of plan.creates) audits.push({ action: 'product.import_create', entityId: row.code, before: null, after: auditTarget(row.code, target) });
  }
  for (const { row, before, target } of plan.updates) {
    await tx
      .update(products)
      .set({ ...productColumns(target), updatedAt: sql`now()` })
      .where(eq(products.id, before.id));
    written.push(before.id);
    if (formatTiers(before.tiers) !== formatTiers(target.tiers)) {
      await tx.delete(productPriceTiers).where(and(eq(productPriceTiers.productId, before.id), isNull(productPriceTiers.variantId)));
      if (target.tiers.length > 0) await tx.insert(productPriceTiers).values(target.tiers.map((tier) => ({ productId: before.id, ...tier })));
    }
    if (target.stock !== before.stock) {
      await tx.insert(stockMovements).values({
        productId: before.id,
        delta: target.stock - before.stock,
        stockAfter: target.stock,
        kind: 'import',
        reason: `นำเข้า CSV บรรทัด ${row.line}`,
        actorEmail: actor.email.slice(0, 200),
      });
    }
    const { id: _id, code: _code, optionNames: _optionNames, ...beforeFields } = before;
    audits.push({ action: 'product.import_update', entityId: row.code, before: auditTarget(row.code, beforeFields), after: auditTarget(row.code, target) });
  }
  await refreshSearchTextOf(tx, written);
  await insertAudit(tx, actor, audits);
}
