import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { formRetries } from '../db/schema.ts';
import type { Flash } from './flash.ts';

/**
 * What was typed in a refused back-office form, so the page the refusal returns to shows it again
 * (docs/decisions/169-one-back-office-form-wrapper.md). Kept in the database, because a page body or a
 * list of bank accounts does not fit in a cookie and the next request may reach another instance; the
 * flash cookie carries only the row's random id. A row is read once, only by the staff member who typed
 * it, and only within RETRY_MINUTES.
 */
export const RETRY_MINUTES = 15;
/** Fields never kept, even for a quarter of an hour: passwords, secrets and one-time codes. */
const NEVER_KEPT = /password|secret|token|otp|recovery|^back$/i;
/** Generous for a page body; a bigger value is cut rather than the whole form lost. */
const MAX_VALUE = 200_000;
const MAX_VALUES = 2_000;

/** The text fields of a form worth showing again (never a file, never a password). */
export function typedValues(form: FormData): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  let count = 0;
  for (const [name, value] of form) {
    if (typeof value !== 'string' || NEVER_KEPT.test(name) || count >= MAX_VALUES) continue;
    (values[name] ??= []).push(value.slice(0, MAX_VALUE));
    count += 1;
  }
  return values;
}

/** Keeps what this staff member typed in the form at `formPath`; the id goes in the flash. Null when nothing is worth keeping. */
export async function keepTypedValues(memberId: string, formPath: string, form: FormData): Promise<string | null> {
  const values = typedValues(form);
  if (Object.keys(values).length === 0) return null;
  const db = await getDb();
  // Rows nobody came back for are swept here, so the table stays as small as the last quarter-hour.
  await db.delete(formRetries).where(lt(formRetries.createdAt, sql`now() - make_interval(mins => ${RETRY_MINUTES})`));
  const id = randomBytes(24).toString('base64url');
  await db.insert(formRetries).values({ id, memberId, formPath, values });
  return id;
}

/** Takes (and forgets) what was kept under `id`, if this member typed it lately. */
export async function takeTypedValues(id: string, memberId: string): Promise<{ form: string; values: Record<string, string[]> } | null> {
  const db = await getDb();
  const [row] = await db
    .delete(formRetries)
    .where(and(eq(formRetries.id, id), eq(formRetries.memberId, memberId), gt(formRetries.createdAt, sql`now() - make_interval(mins => ${RETRY_MINUTES})`)))
    .returning({ form: formRetries.formPath, values: formRetries.values });
  return row ?? null;
}

/**
 * The page's flash with what was typed before the refusal filled in (for `retried` and friends). Call it
 * in the frontmatter of a page that shows a form again, after takeFlash, with the signed-in staff member.
 */
export async function withTypedValues(flash: Flash | null, memberId: string): Promise<Flash | null> {
  if (!flash?.retry) return flash;
  const kept = await takeTypedValues(flash.retry, memberId);
  return kept ? { ...flash, form: kept.form, values: kept.values } : flash;
}

/** The value to show in a field: what was typed before a refusal, else the saved one. */
export function retried(flash: Flash | null, form: string, name: string, saved: string, index = 0): string {
  if (flash?.form !== form || !flash.values) return saved;
  return flash.values[name]?.[index] ?? '';
}

/** Whether a checkbox was ticked before a refusal, else the saved state. */
export function retriedCheck(flash: Flash | null, form: string, name: string, saved: boolean): boolean {
  if (flash?.form !== form || !flash.values) return saved;
  return (flash.values[name]?.length ?? 0) > 0;
}

/** How many repeated rows were sent before a refusal (bank accounts, delivery options). */
export function retriedRows(flash: Flash | null, form: string, name: string): number | null {
  if (flash?.form !== form || !flash.values) return null;
  return flash.values[name]?.length ?? 0;
}

/** Every value of a repeated field sent before a refusal (ticked categories), else null. */
export function retriedAll(flash: Flash | null, form: string, name: string): string[] | null {
  if (flash?.form !== form || !flash.values) return null;
  return flash.values[name] ?? [];
}
