import { getDb } from '../db/client.ts';
import { deleteExpiredSessions, deleteMemberSessions, deleteSession, findLiveSession, insertSession, rememberSignInAddress, touchSession } from './session.repo.ts';
import { hashToken, looksLikeToken, newToken } from './tokens.ts';
import { roleOf } from '../admin/role.ts';

/** A session ends after 30 days without use; use moves the end forward (at most once an hour per session). */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 60 * 1000;
/**
 * A session of someone with a back-office role ends after 8 hours without use (docs/design.md section 10):
 * a shop-counter browser left signed in overnight cannot confirm payments in the morning. Their use is
 * recorded every few minutes so the 8 hours are measured closely.
 */
export const STAFF_IDLE_MS = 8 * 60 * 60 * 1000;
const STAFF_TOUCH_EVERY_MS = 5 * 60 * 1000;

export interface SessionMember {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  scopes: string[];
}

export interface ResolvedSession {
  tokenHash: string;
  member: SessionMember;
}

/** Starts a fresh session (a new token at every login) and returns the token, shown to the client once. */
export async function startSession(memberId: string, meta: { userAgent: string; ip: string }): Promise<{ token: string; expiresAt: Date }> {
  const db = await getDb();
  const token = newToken();
  const expiresAt = new Date(Date.now() + SESSION_IDLE_MS);
  await insertSession(db, {
    tokenHash: hashToken(token),
    memberId,
    expiresAt,
    userAgent: meta.userAgent.slice(0, 300),
    ip: meta.ip.slice(0, 64),
  });
  await rememberSignInAddress(db, memberId, meta.ip.slice(0, 64));
  // Housekeeping rides on logins rather than a timer, so every instance helps and none is special.
  if (Math.random() < 0.05) await deleteExpiredSessions(db, new Date());
  return { token, expiresAt };
}

export async function resolveSession(token: string | undefined | null): Promise<ResolvedSession | null> {
  const found = await liveSession(token);
  return found && !found.awaitingTwoFactor ? { tokenHash: found.tokenHash, member: found.member } : null;
}

/** A session whose password step is done but whose TOTP step is not (the two-step sign-in page only). */
export async function resolveAwaitingSession(token: string | undefined | null): Promise<ResolvedSession | null> {
  const found = await liveSession(token);
  return found?.awaitingTwoFactor ? { tokenHash: found.tokenHash, member: found.member } : null;
}

async function liveSession(token: string | undefined | null): Promise<(ResolvedSession & { awaitingTwoFactor: boolean }) | null> {
  if (!looksLikeToken(token)) return null;
  const db = await getDb();
  const now = new Date();
  const tokenHash = hashToken(token);
  const row = await findLiveSession(db, tokenHash, now);
  if (!row) return null;
  const staff = roleOf(row.member) !== null;
  const idle = now.getTime() - row.lastSeenAt.getTime();
  if (staff && idle > STAFF_IDLE_MS) {
    await deleteSession(db, tokenHash);
    return null;
  }
  if (idle > (staff ? STAFF_TOUCH_EVERY_MS : TOUCH_EVERY_MS)) {
    await touchSession(db, tokenHash, now, new Date(now.getTime() + SESSION_IDLE_MS));
  }
  return { tokenHash, member: row.member, awaitingTwoFactor: row.awaitingTwoFactor };
}

export async function endSession(token: string | undefined | null): Promise<void> {
  if (!looksLikeToken(token)) return;
  await deleteSession(await getDb(), hashToken(token));
}

export async function endSessionByHash(tokenHash: string): Promise<void> {
  await deleteSession(await getDb(), tokenHash);
}

export async function endOtherSessions(memberId: string, keepTokenHash?: string): Promise<void> {
  await deleteMemberSessions(await getDb(), memberId, keepTokenHash);
}
