import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { memberLoginAddresses, members, sessions, sessionsAwaitingTwoFactor } from '../db/schema.ts';

export interface SessionRow {
  tokenHash: string;
  expiresAt: Date;
  lastSeenAt: Date;
  /** Password given, TOTP still owed: not signed in yet. */
  awaitingTwoFactor: boolean;
  member: { id: string; firstName: string; lastName: string; email: string; phone: string; scopes: string[] };
}

export async function insertSession(
  db: DbOrTx,
  values: { tokenHash: string; memberId: string; expiresAt: Date; userAgent: string; ip: string },
): Promise<void> {
  await db.insert(sessions).values(values);
}

/** The live session for a token hash with its member, or null when unknown or expired. */
export async function findLiveSession(db: DbOrTx, tokenHash: string, now: Date): Promise<SessionRow | null> {
  const [row] = await db
    .select({
      tokenHash: sessions.tokenHash,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      id: members.id,
      firstName: members.firstName,
      lastName: members.lastName,
      email: members.email,
      phone: members.phone,
      scopes: members.scopes,
      awaiting: sessionsAwaitingTwoFactor.tokenHash,
    })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .leftJoin(sessionsAwaitingTwoFactor, eq(sessionsAwaitingTwoFactor.tokenHash, sessions.tokenHash))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  return {
    tokenHash: row.tokenHash,
    expiresAt: row.expiresAt,
    lastSeenAt: row.lastSeenAt,
    awaitingTwoFactor: row.awaiting !== null,
    member: { id: row.id, firstName: row.firstName, lastName: row.lastName, email: row.email, phone: row.phone, scopes: row.scopes },
  };
}

export async function touchSession(db: DbOrTx, tokenHash: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteSession(db: DbOrTx, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Ends every session of a member except, optionally, the one in use. */
export async function deleteMemberSessions(db: DbOrTx, memberId: string, keepTokenHash?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(keepTokenHash ? and(eq(sessions.memberId, memberId), ne(sessions.tokenHash, keepTokenHash)) : eq(sessions.memberId, memberId));
}

export async function deleteExpiredSessions(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

/** Remembers that this member signed in from this address (see memberLoginAddresses). */
export async function rememberSignInAddress(db: DbOrTx, memberId: string, ip: string): Promise<void> {
  await db
    .insert(memberLoginAddresses)
    .values({ memberId, ip })
    .onConflictDoUpdate({ target: [memberLoginAddresses.memberId, memberLoginAddresses.ip], set: { lastSignedInAt: sql`now()` } });
}

/** Whether this member signed in from this address within the last 180 days. */
export async function signedInFrom(db: DbOrTx, memberId: string, ip: string): Promise<boolean> {
  const [row] = await db
    .select({ ip: memberLoginAddresses.ip })
    .from(memberLoginAddresses)
    .where(
      and(
        eq(memberLoginAddresses.memberId, memberId),
        eq(memberLoginAddresses.ip, ip),
        gt(memberLoginAddresses.lastSignedInAt, new Date(Date.now() - 180 * 24 * 60 * 60_000)),
      ),
    )
    .limit(1);
  return Boolean(row);
}
