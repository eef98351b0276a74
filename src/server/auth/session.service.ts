import { getDb } from '../db/client.ts';
import { deleteExpiredSessions, deleteMemberSessions, deleteSession, findLiveSession, insertSession, touchSession } from './session.repo.ts';
import { hashToken, looksLikeToken, newToken } from './tokens.ts';

/** A session ends after 30 days without use; use moves the end forward (at most once an hour per session). */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 60 * 1000;

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
  // Housekeeping rides on logins rather than a timer, so every instance helps and none is special.
  if (Math.random() < 0.05) await deleteExpiredSessions(db, new Date());
  return { token, expiresAt };
}

export async function resolveSession(token: string | undefined | null): Promise<ResolvedSession | null> {
  if (!looksLikeToken(token)) return null;
  const db = await getDb();
  const now = new Date();
  const tokenHash = hashToken(token);
  const row = await findLiveSession(db, tokenHash, now);
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await touchSession(db, tokenHash, now, new Date(now.getTime() + SESSION_IDLE_MS));
  }
  return { tokenHash, member: row.member };
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
