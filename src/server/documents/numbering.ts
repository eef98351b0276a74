import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { documentCounters } from '../db/schema.ts';

export type DocumentKind = 'receipt' | 'tax_invoice' | 'quotation';

const PREFIX: Record<DocumentKind, string> = { receipt: 'RE', tax_invoice: 'IV', quotation: 'QT' };

/** The calendar year in Bangkok (documents are numbered per Thai year). */
export function bangkokYear(at: Date): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Bangkok', year: 'numeric' }).format(at));
}

/**
 * The next number of a kind of document in the year of `at`, taken INSIDE the caller's transaction: the
 * upsert locks the counter row until that transaction ends, so concurrent payments queue here, and a
 * rollback gives the number back. (A sequence would skip numbers on rollback; the Revenue Department
 * expects tax invoices numbered without gaps.) Format: RE2569-000123 (Buddhist-era year).
 */
export async function nextDocumentNumber(tx: DbOrTx, kind: DocumentKind, at: Date): Promise<{ number: string; year: number; sequence: number }> {
  const year = bangkokYear(at);
  const result = await tx
    .insert(documentCounters)
    .values({ kind, year, lastNumber: 1 })
    .onConflictDoUpdate({ target: [documentCounters.kind, documentCounters.year], set: { lastNumber: sql`${documentCounters.lastNumber} + 1` } })
    .returning({ lastNumber: documentCounters.lastNumber });
  const sequence = result[0]?.lastNumber;
  if (!sequence) throw new Error('document counter returned nothing');
  return { number: `${PREFIX[kind]}${year + 543}-${String(sequence).padStart(6, '0')}`, year, sequence };
}
