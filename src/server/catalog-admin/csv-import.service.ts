import { randomBytes } from 'node:crypto';
import { getDb, type DbOrTx } from '../db/client.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { storage } from '../storage/storage.ts';
import { log, errorFields } from '../log.ts';
import type { ImportEncoding, ImportProblem } from './csv-read.ts';
import { readImportRowsOffThread } from './csv-read-thread.ts';
import { codeOwners, execute, existingByCode, insertAudit, loadRefs, planBatch, type Plan } from './csv-import-products.ts';
import { executeVariantPlan, planVariantBatch, variantsOf, type VariantPlan } from './csv-import-variants.ts';

export type { ImportEncoding, ImportProblem };

/**
 * CSV import of products (docs/design.md section 10, /admin/import). The file is kept in private storage
 * between the dry run and the apply, so both read the same bytes. The dry run and the apply share one
 * planner: a row the dry run reports as bad is skipped by the apply, every other row is created or
 * updated by code, and a row equal to the product changes nothing (re-importing a file is a no-op).
 * The apply runs in ONE transaction, so a failure leaves the catalog as it was. The file is read and its
 * rows checked on a worker thread (csv-read.ts, docs/decisions/196); this thread plans batches of rows:
 * a file of one row per product (csv-import-products.ts) or, with the variant columns, of one row per
 * variant (csv-import-variants.ts, issue 30).
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
    const codes = part.batch.map((row) => row.code);
    const existing = await existingByCode(db, codes, apply !== null);
    const byVariant = part.batch.some((row) => row.variants !== undefined);
    const variantCodes = part.batch.flatMap((row) => (row.variants ?? []).map((variant) => variant.code));
    const owners = await codeOwners(db, [...codes, ...variantCodes]);
    const plan = byVariant
      ? planVariantBatch(part.batch, existing, await variantsOf(db, [...existing.values()].map((product) => product.id)), owners, refs)
      : planBatch(part.batch, existing, owners, refs);
    report.creates += plan.creates.length;
    report.updates += plan.updates.length;
    report.unchanged += plan.unchanged;
    report.errors.push(...plan.errors);
    if (apply && byVariant) await executeVariantPlan(db, apply, plan as VariantPlan);
    else if (apply) await execute(db, apply, plan as Plan);
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
