import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { getDb, type DbOrTx } from '../db/client.ts';
import { auditLog, brands, categories, productPriceTiers, products, stockMovements } from '../db/schema.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { storage } from '../storage/storage.ts';
import { log, errorFields } from '../log.ts';
import { groupTiersByProduct, lowestTierPrice, sortTiers } from '../../lib/pricing.ts';
import { formatTiers, type TierInput } from '../../lib/product-rules.ts';
import { searchKey } from '../../lib/thai-text.ts';
import { mergedTierProblem, REQUIRED_FOR_CREATE, type CsvRow } from './csv-columns.ts';
import type { ImportEncoding, ImportProblem } from './csv-read.ts';
import { readImportRowsOffThread } from './csv-read-thread.ts';

export type { ImportEncoding, ImportProblem };

/**
 * CSV import of products (docs/design.md section 10, /admin/import). The file is kept in private storage
 * between the dry run and the apply, so both read the same bytes. The dry run and the apply share one
 * planner: a row the dry run reports as bad is skipped by the apply, every other row is created or
 * updated by code, and a row equal to the product changes nothing (re-importing a file is a no-op).
 * The apply runs in ONE transaction, so a failure leaves the catalog as it was. The file is read and its
 * rows checked on a worker thread (csv-read.ts, docs/decisions/196); this thread plans batches of rows.
 */
export const MAX_IMPORT_BYTES = 60 * 1024 * 1024;

export interface ImportReport {
  rows: number;
  creates: number;
  updates: number;
  unchanged: number;
  errors: ImportProblem[];
  unknownColumns: string[];
  /** How the file's bytes were read: UTF-8, or Thai Windows-874 (TIS-620) converted (decision 174). */
  encoding: ImportEncoding;
}

/** What the import says about a file it read as Thai Windows-874 (TIS-620) rather than UTF-8. */
export const WINDOWS_874_NOTE = '(ไฟล์นี้อ่านเป็น Windows-874 (ภาษาไทย Windows) และแปลงเป็น UTF-8 แล้ว)';

interface Refs {
  categories: Map<string, { id: number; name: string; nameEn: string }>;
  brands: Map<string, { id: number; name: string; nameTh: string }>;
}

interface Target {
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

interface Existing extends Target {
  id: number;
  code: string;
  /** More than one: the price and stock are its variants' (docs/decisions/205). */
  variantCount: number;
}

async function loadRefs(db: DbOrTx): Promise<Refs> {
  const [categoryRows, brandRows] = await Promise.all([
    db.select({ id: categories.id, code: categories.code, name: categories.name, nameEn: categories.nameEn }).from(categories),
    db.select({ id: brands.id, code: brands.code, name: brands.name, nameTh: brands.nameTh }).from(brands),
  ]);
  return {
    categories: new Map(categoryRows.map((row) => [row.code.toLowerCase(), row])),
    brands: new Map(brandRows.map((row) => [row.code.toLowerCase(), row])),
  };
}

async function existingByCode(db: DbOrTx, codes: string[], lock: boolean): Promise<Map<string, Existing>> {
  if (codes.length === 0) return new Map();
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

function same(a: Target, b: Target): boolean {
  return (
    a.name === b.name &&
    a.nameEn === b.nameEn &&
    a.categoryId === b.categoryId &&
    a.brandId === b.brandId &&
    a.priceSatang === b.priceSatang &&
    a.stock === b.stock &&
    a.unit === b.unit &&
    a.active === b.active &&
    a.recommended === b.recommended &&
    a.description === b.description &&
    formatTiers(a.tiers) === formatTiers(b.tiers)
  );
}

interface Plan {
  creates: { row: CsvRow; target: Target }[];
  updates: { row: CsvRow; before: Existing; target: Target }[];
  unchanged: number;
  errors: ImportProblem[];
}

function planBatch(batch: CsvRow[], existing: Map<string, Existing>, refs: Refs): Plan {
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
    let categoryId = before?.categoryId;
    if (f.categoryCode !== undefined) {
      const category = refs.categories.get(f.categoryCode);
      if (!category) {
        fail(`ไม่พบหมวดหมู่รหัส "${f.categoryCode}"`);
        continue;
      }
      categoryId = category.id;
    }
    let brandId = before?.brandId ?? null;
    if (f.brandCode !== undefined) {
      if (f.brandCode === null) brandId = null;
      else {
        const brand = refs.brands.get(f.brandCode);
        if (!brand) {
          fail(`ไม่พบแบรนด์รหัส "${f.brandCode}"`);
          continue;
        }
        brandId = brand.id;
      }
    }
    const target: Target = {
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

/** The product row's columns a CSV row sets, the same for a new product and an updated one. */
function productColumns(code: string, target: Target, byId: { categories: Map<number, string>; brands: Map<number, string> }) {
  return {
    name: target.name,
    nameEn: target.nameEn,
    categoryId: target.categoryId,
    brandId: target.brandId,
    priceSatang: target.priceSatang,
    stock: target.stock,
    unit: target.unit,
    active: target.active,
    recommended: target.recommended,
    description: target.description,
    searchText: searchTextOf(code, target, byId),
    // The tiers' trigger keeps this column; set with the row, the trigger finds nothing more to write.
    wholesaleFromSatang: lowestTierPrice(target.tiers),
  };
}

/** The same parts as the product form's search text (product-admin.repo searchTextFor). */
function searchTextOf(code: string, target: Target, byId: { categories: Map<number, string>; brands: Map<number, string> }): string {
  return searchKey(
    [target.name, target.brandId ? byId.brands.get(target.brandId) : '', byId.categories.get(target.categoryId), code, target.description]
      .filter(Boolean)
      .join(' '),
  );
}

async function insertAudit(tx: DbOrTx, actor: AuditActor, rows: { action: string; entityId: string; before: unknown; after: unknown }[]): Promise<void> {
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

async function execute(tx: DbOrTx, actor: AuditActor, plan: Plan, refs: Refs): Promise<void> {
  const byId = {
    categories: new Map([...refs.categories.values()].map((row) => [row.id, `${row.name} ${row.nameEn}`])),
    brands: new Map([...refs.brands.values()].map((row) => [row.id, [row.name, row.nameTh].filter(Boolean).join(' ')])),
  };
  const audits: { action: string; entityId: string; before: unknown; after: unknown }[] = [];
  if (plan.creates.length > 0) {
    const inserted = await tx
      .insert(products)
      .values(
        plan.creates.map(({ row, target }) => ({ code: row.code, ...productColumns(row.code, target, byId) })),
      )
      .returning({ id: products.id, code: products.code });
    const idOf = new Map(inserted.map((row) => [row.code, row.id]));
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
      .set({ ...productColumns(row.code, target, byId), updatedAt: sql`now()` })
      .where(eq(products.id, before.id));
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
    const { id: _id, code: _code, ...beforeFields } = before;
    audits.push({ action: 'product.import_update', entityId: row.code, before: auditTarget(row.code, beforeFields), after: auditTarget(row.code, target) });
  }
  await insertAudit(tx, actor, audits);
}

/**
 * Reads the file (on its own thread) and plans it batch by batch; with `apply`, carries the plan out
 * inside the transaction `db` (rows locked as they are planned). `onProgress` hears rows done so far.
 */
async function run(db: DbOrTx, bytes: Uint8Array, apply: AuditActor | null, onProgress?: (done: number) => void | Promise<void>): Promise<ImportReport> {
  const refs = await loadRefs(db);
  const report: ImportReport = { rows: 0, creates: 0, updates: 0, unchanged: 0, errors: [], unknownColumns: [], encoding: 'utf-8' };
  for await (const part of readImportRowsOffThread(bytes)) {
    if (part.kind === 'header') {
      report.encoding = part.encoding;
      report.unknownColumns = part.unknownColumns;
      continue;
    }
    report.rows += part.counted;
    report.errors.push(...part.problems);
    if (part.batch.length === 0) continue;
    const existing = await existingByCode(db, part.batch.map((row) => row.code), apply !== null);
    const plan = planBatch(part.batch, existing, refs);
    report.creates += plan.creates.length;
    report.updates += plan.updates.length;
    report.unchanged += plan.unchanged;
    report.errors.push(...plan.errors);
    if (apply) await execute(db, apply, plan, refs);
    await onProgress?.(report.rows);
  }
  report.errors.sort((a, b) => a.line - b.line);
  return report;
}

/** Checks a file without changing anything: what would be created, updated, left alone, and every bad row. */
export async function dryRunImport(bytes: Uint8Array): Promise<ImportReport> {
  if (bytes.length > MAX_IMPORT_BYTES) throw badRequest('csv_too_large', 'ไฟล์ CSV ต้องมีขนาดไม่เกิน 60 MB');
  return run(await getDb(), bytes, null);
}

/** Imports every good row of the file in one transaction; bad rows are skipped (the dry run listed them). */
export async function applyImport(actor: AuditActor, bytes: Uint8Array, onProgress?: (done: number) => void | Promise<void>): Promise<ImportReport> {
  if (bytes.length > MAX_IMPORT_BYTES) throw badRequest('csv_too_large', 'ไฟล์ CSV ต้องมีขนาดไม่เกิน 60 MB');
  const db = await getDb();
  const report = await db.transaction(async (tx) => {
    const result = await run(tx, bytes, actor, onProgress);
    await insertAudit(tx, actor, [
      {
        action: 'product.import',
        entityId: '',
        before: null,
        after: { rows: result.rows, creates: result.creates, updates: result.updates, unchanged: result.unchanged, skipped: result.errors.length },
      },
    ]);
    return result;
  });
  if (report.creates + report.updates > 0) await invalidateCatalog();
  return report;
}

/** Keeps an uploaded file privately between the dry run and the apply; returns its token. */
export async function keepImportFile(bytes: Uint8Array): Promise<string> {
  if (bytes.length === 0) throw badRequest('csv_missing', 'กรุณาเลือกไฟล์ CSV');
  if (bytes.length > MAX_IMPORT_BYTES) throw badRequest('csv_too_large', 'ไฟล์ CSV ต้องมีขนาดไม่เกิน 60 MB');
  const token = randomBytes(16).toString('hex');
  await storage().put('private', `imports/${token}.csv`, bytes, 'text/csv');
  return token;
}

export async function importFile(token: string): Promise<Uint8Array> {
  if (!/^[a-f0-9]{32}$/.test(token)) throw badRequest('import_token_invalid', 'ไม่พบไฟล์ที่ตรวจสอบไว้ กรุณาอัปโหลดใหม่');
  const stored = await storage().get('private', `imports/${token}.csv`);
  if (!stored) throw notFound('import_file_missing', 'ไม่พบไฟล์ที่ตรวจสอบไว้ กรุณาอัปโหลดใหม่');
  return stored.bytes;
}

export async function forgetImportFile(token: string): Promise<void> {
  if (/^[a-f0-9]{32}$/.test(token)) await storage().delete('private', `imports/${token}.csv`);
}

/** How long a checked file waits to be applied before it is deleted, with its report. */
export const CHECKED_IMPORT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes kept import files and their reports older than CHECKED_IMPORT_LIFETIME_MS: a file checked but
 * never applied would otherwise stay in private storage for ever. Run when a new file is checked; a
 * failure here is logged and never stops that check. Returns how many objects were deleted.
 */
export async function expireCheckedImports(now = new Date()): Promise<number> {
  try {
    const cutoff = now.getTime() - CHECKED_IMPORT_LIFETIME_MS;
    const kept = await storage().list('private', 'imports/');
    const old = kept.filter((object) => object.modifiedAt.getTime() < cutoff);
    for (const object of old) await storage().delete('private', object.key);
    return old.length;
  } catch (error) {
    log.error('expiring checked imports failed', errorFields(error));
    return 0;
  }
}
