import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { searchSynonyms } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { badRequest, conflict } from '../http/errors.ts';
import { invalidateTags } from '../cache/invalidation-bus.ts';
import { dropSearchWords } from '../catalog/search-words.ts';
import { searchKey } from '../../lib/thai-text.ts';

/**
 * The synonym pairs search expands a keyword with (docs/decisions/179), kept by staff at /admin/search.
 * Both words are stored as search keys (lower case, Thai marks in stored order), so `LIPSTICK` and
 * `lipstick` are one word; a pair works both ways, so `a ⇄ b` and `b ⇄ a` are the same pair.
 */
export interface SynonymRow {
  id: number;
  term: string;
  synonym: string;
  createdAt: string;
}

export const MAX_SYNONYM_LENGTH = 60;
/** Enough for every category's words many times over; a bound on what one keyword can expand into. */
export const MAX_SYNONYMS = 2000;

export const SYNONYMS_PAGE_SIZE = 50;

/** A page of pairs by term, those with `q` in either word only; the list pages on the server. */
export async function listSynonyms(options: { q?: string; page?: number } = {}): Promise<{ rows: SynonymRow[]; total: number; page: number; pageSize: number }> {
  const db = await getDb();
  const q = searchKey(options.q ?? '').slice(0, MAX_SYNONYM_LENGTH);
  const where = q ? or(sql`strpos(${searchSynonyms.term}, ${q}) > 0`, sql`strpos(${searchSynonyms.synonym}, ${q}) > 0`) : undefined;
  const page = Math.max(1, Math.min(1000, Math.trunc(options.page ?? 1) || 1));
  const [rows, [total]] = await Promise.all([
    db.select().from(searchSynonyms).where(where).orderBy(asc(searchSynonyms.term), asc(searchSynonyms.synonym)).limit(SYNONYMS_PAGE_SIZE).offset((page - 1) * SYNONYMS_PAGE_SIZE),
    db.select({ n: count() }).from(searchSynonyms).where(where),
  ]);
  return {
    rows: rows.map((row) => ({ id: row.id, term: row.term, synonym: row.synonym, createdAt: row.createdAt.toISOString() })),
    total: total?.n ?? 0,
    page,
    pageSize: SYNONYMS_PAGE_SIZE,
  };
}

function wordOf(raw: unknown, label: string, field: string): string {
  const word = searchKey(typeof raw === 'string' ? raw : '');
  if (!word) throw badRequest('validation_failed', `กรุณากรอก${label}`, { [field]: `กรุณากรอก${label}` });
  if ([...word].length > MAX_SYNONYM_LENGTH) {
    const message = `${label}ยาวได้ไม่เกิน ${MAX_SYNONYM_LENGTH} ตัวอักษร`;
    throw badRequest('validation_failed', message, { [field]: message });
  }
  return word;
}

/** Adds a pair; the same pair either way round is refused with a Thai message. */
export async function addSynonym(actor: AuditActor, rawTerm: unknown, rawSynonym: unknown): Promise<SynonymRow> {
  const term = wordOf(rawTerm, 'คำค้น', 'term');
  const synonym = wordOf(rawSynonym, 'คำที่มีความหมายเดียวกัน', 'synonym');
  if (term === synonym) throw badRequest('synonym_same_word', 'คำทั้งสองเป็นคำเดียวกัน กรุณากรอกคำที่ต่างกัน', { synonym: 'คำทั้งสองเป็นคำเดียวกัน' });
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: searchSynonyms.id })
      .from(searchSynonyms)
      .where(or(and(eq(searchSynonyms.term, term), eq(searchSynonyms.synonym, synonym)), and(eq(searchSynonyms.term, synonym), eq(searchSynonyms.synonym, term))));
    if (existing) throw conflict('synonym_exists', `มีคู่คำ “${term}” ⇄ “${synonym}” อยู่แล้ว`);
    const [kept] = await tx.select({ n: count() }).from(searchSynonyms);
    if ((kept?.n ?? 0) >= MAX_SYNONYMS) throw conflict('synonyms_full', `เก็บคู่คำได้ไม่เกิน ${MAX_SYNONYMS.toLocaleString('th-TH')} คู่ กรุณาลบคู่ที่ไม่ใช้ก่อน`);
    const [inserted] = await tx.insert(searchSynonyms).values({ term, synonym }).onConflictDoNothing().returning();
    if (!inserted) throw conflict('synonym_exists', `มีคู่คำ “${term}” ⇄ “${synonym}” อยู่แล้ว`);
    await recordAudit(tx, actor, { action: 'search_synonym.add', entityType: 'search_synonym', entityId: String(inserted.id), after: { term, synonym } });
    return inserted;
  });
  await changed();
  return { id: row.id, term: row.term, synonym: row.synonym, createdAt: row.createdAt.toISOString() };
}

export async function removeSynonym(actor: AuditActor, id: number): Promise<SynonymRow> {
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(searchSynonyms).where(eq(searchSynonyms.id, id)).returning();
    // A second press of ลบ (or another person first): said on the page, not a bare 404.
    if (!deleted) throw conflict('synonym_not_found', 'ไม่พบคู่คำนี้ อาจถูกลบไปแล้ว');
    await recordAudit(tx, actor, { action: 'search_synonym.remove', entityType: 'search_synonym', entityId: String(id), before: { term: deleted.term, synonym: deleted.synonym } });
    return deleted;
  });
  await changed();
  return { id: row.id, term: row.term, synonym: row.synonym, createdAt: row.createdAt.toISOString() };
}

/** Search pages and the kept words go on every instance (the bus runs the catalog's change listeners). */
async function changed(): Promise<void> {
  dropSearchWords();
  await invalidateTags(['search']);
}
