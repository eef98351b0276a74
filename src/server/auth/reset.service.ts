import { and, eq, gt, isNull } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { members, passwordResetTokens } from '../db/schema.ts';
import { env } from '../env.ts';
import { AppError } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { findByEmail } from '../members/member.repo.ts';
import { consume, LIMITS } from '../security/rate-limit.ts';
import { hashPassword } from './password.ts';
import { deleteMemberSessions } from './session.repo.ts';
import { hashToken, looksLikeToken, newToken } from './tokens.ts';

export const RESET_TOKEN_TTL_MS = 30 * 60_000;
export const RESET_REQUESTED_MESSAGE = 'หากอีเมลนี้เป็นสมาชิกของร้าน เราได้ส่งลิงก์สำหรับตั้งรหัสผ่านใหม่ไปให้แล้ว กรุณาตรวจสอบอีเมลภายใน 30 นาที';

const invalidToken = () => new AppError(400, 'reset_token_invalid', 'ลิงก์ตั้งรหัสผ่านใหม่ไม่ถูกต้อง ถูกใช้ไปแล้ว หรือหมดอายุ กรุณาขอลิงก์ใหม่');

/**
 * Starts a reset. The answer (and its timing, since the mail goes out in the background) is the same
 * whether or not the email belongs to a member; the limits count the email string either way.
 */
export async function requestReset(email: string, ip: string): Promise<void> {
  await consume(LIMITS.resetPerIp, ip);
  await consume(LIMITS.resetPerEmail, email);
  const db = await getDb();
  const member = await findByEmail(db, email);
  if (!member) return;
  const token = newToken();
  const link = new URL(`/resetpassword?token=${encodeURIComponent(token)}`, env().PUBLIC_SITE_URL).href;
  await db.transaction(async (tx) => {
    // Only the newest link works.
    await tx.delete(passwordResetTokens).where(and(eq(passwordResetTokens.memberId, member.id), isNull(passwordResetTokens.usedAt)));
    await tx.insert(passwordResetTokens).values({
      tokenHash: hashToken(token),
      memberId: member.id,
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
    // The link exists only in this mail; it commits with the token (outbox) and goes out in the background.
    await enqueueMail(tx, { kind: 'password_reset', to: member.email, payload: { name: member.firstName, link } });
  });
}

/** Whether a reset link can still be used (for the page to show the form or the "ask again" message). */
export async function resetTokenUsable(token: string): Promise<boolean> {
  if (!looksLikeToken(token)) return false;
  const db = await getDb();
  const [row] = await db
    .select({ memberId: passwordResetTokens.memberId })
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.tokenHash, hashToken(token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, new Date())));
  return Boolean(row);
}

/** Sets the new password with a single-use token; every session of the member ends. */
export async function resetPassword(token: string, password: string): Promise<void> {
  if (!(await resetTokenUsable(token))) throw invalidToken();
  const passwordHash = await hashPassword(password);
  const db = await getDb();
  await db.transaction(async (tx) => {
    // Marking it used in the same statement that checks it makes the token single-use under concurrency.
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.tokenHash, hashToken(token)), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, new Date())))
      .returning({ memberId: passwordResetTokens.memberId });
    if (!used) throw invalidToken();
    await tx.update(members).set({ passwordHash, updatedAt: new Date() }).where(eq(members.id, used.memberId));
    await deleteMemberSessions(tx, used.memberId);
  });
}
