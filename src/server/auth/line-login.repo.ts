import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { lineSignIns, memberLineAccounts, members } from '../db/schema.ts';

export type LineSignInRow = typeof lineSignIns.$inferSelect;
export type LineSignInValues = typeof lineSignIns.$inferInsert;

export async function insertLineSignIn(db: DbOrTx, values: LineSignInValues): Promise<void> {
  await db.insert(lineSignIns).values(values);
}

/** Takes a live trip out of the table: whoever takes it first has it, so a callback or a sign-up runs once. */
export async function takeLineSignIn(db: DbOrTx, tokenHash: string, purposes: LineSignInRow['purpose'][], now: Date): Promise<LineSignInRow | null> {
  const [row] = await db
    .delete(lineSignIns)
    .where(and(eq(lineSignIns.tokenHash, tokenHash), inArray(lineSignIns.purpose, purposes), gt(lineSignIns.expiresAt, now)))
    .returning();
  return row ?? null;
}

export async function findLineSignIn(db: DbOrTx, tokenHash: string, now: Date): Promise<LineSignInRow | null> {
  const [row] = await db
    .select()
    .from(lineSignIns)
    .where(and(eq(lineSignIns.tokenHash, tokenHash), gt(lineSignIns.expiresAt, now)))
    .limit(1);
  return row ?? null;
}

export async function deleteExpiredLineSignIns(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(lineSignIns).where(lt(lineSignIns.expiresAt, now));
}

/** The member who owns this LINE account (closed accounts have none: their link is removed on closing). */
export async function memberIdForLineSubject(db: DbOrTx, subject: string): Promise<string | null> {
  const [row] = await db.select({ memberId: memberLineAccounts.memberId }).from(memberLineAccounts).where(eq(memberLineAccounts.subject, subject)).limit(1);
  return row?.memberId ?? null;
}

export async function lineAccountOf(db: DbOrTx, memberId: string): Promise<{ displayName: string; linkedAt: Date; hasPassword: boolean } | null> {
  const [row] = await db
    .select({ displayName: memberLineAccounts.displayName, linkedAt: memberLineAccounts.linkedAt, passwordHash: members.passwordHash })
    .from(memberLineAccounts)
    .innerJoin(members, eq(members.id, memberLineAccounts.memberId))
    .where(eq(memberLineAccounts.memberId, memberId))
    .limit(1);
  return row ? { displayName: row.displayName, linkedAt: row.linkedAt, hasPassword: hasPassword(row.passwordHash) } : null;
}

export async function insertLineAccount(db: DbOrTx, values: { memberId: string; subject: string; displayName: string }): Promise<void> {
  await db.insert(memberLineAccounts).values(values);
}

export async function deleteLineAccount(db: DbOrTx, memberId: string): Promise<boolean> {
  const removed = await db.delete(memberLineAccounts).where(eq(memberLineAccounts.memberId, memberId)).returning({ memberId: memberLineAccounts.memberId });
  return removed.length > 0;
}

/**
 * A member who signed up with LINE has no password until they set one (ลืมรหัสผ่าน): their stored hash is
 * this marker, which no password verifies against (like a closed account's).
 */
export const NO_PASSWORD_YET = '!line';

export function hasPassword(passwordHash: string): boolean {
  return !passwordHash.startsWith('!');
}
