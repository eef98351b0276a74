import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { getDb } from '../db/client.ts';
import { members, memberTwoFactor, secondStepFailures, secondStepLocks, sessionsAwaitingTwoFactor } from '../db/schema.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { roleOf } from '../admin/role.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { qrSvg } from '../orders/promptpay.ts';
import { deleteMemberSessions, deleteSession } from './session.repo.ts';
import { resolveAwaitingSession } from './session.service.ts';
import { activeSecondStepLock, clearAccountFailures, recordSecondStepFailure, secondStepCodeKind, secondStepLockedError, signInActor } from './second-step-lockout.ts';

/**
 * TOTP two-step sign-in for the back office (RFC 6238, 6 digits, 30 s, SHA-1: what every authenticator
 * app speaks), with the `otpauth` library. Ten single-use recovery codes are shown once and kept only as
 * SHA-256 hashes. A code is accepted once: the time step it matched is remembered.
 */
const ISSUER = 'ร้านยิ้มละไม หลังร้าน';
export const RECOVERY_CODES = 10;
export const MAX_SECOND_STEP_ATTEMPTS = 5;

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

const hashCode = (code: string) => createHash('sha256').update(code.replace(/[^a-z0-9]/gi, '').toLowerCase()).digest('hex');

function newRecoveryCode(): string {
  const raw = randomBytes(5).toString('hex');
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

export async function twoFactorEnabled(memberId: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db.select({ enabledAt: memberTwoFactor.enabledAt }).from(memberTwoFactor).where(eq(memberTwoFactor.memberId, memberId)).limit(1);
  return Boolean(row?.enabledAt);
}

/** A fresh secret to scan (replacing an unfinished one): the QR as SVG, the key to type, and the URI. */
export async function beginTwoFactorSetup(member: { id: string; email: string }): Promise<{ secret: string; uri: string; qr: string }> {
  const db = await getDb();
  if (await twoFactorEnabled(member.id)) throw conflict('two_factor_on', 'เปิดการยืนยันสองขั้นตอนไว้แล้ว');
  const secret = new Secret({ size: 20 }).base32;
  await db
    .insert(memberTwoFactor)
    .values({ memberId: member.id, secret })
    .onConflictDoUpdate({ target: memberTwoFactor.memberId, set: { secret, enabledAt: null, recoveryCodeHashes: [], lastStep: 0 } });
  const uri = totpFor(secret, member.email).toString();
  return { secret, uri, qr: await qrSvg(uri) };
}

/** The secret being set up (shown again if the page reloads before the first code). */
export async function pendingTwoFactorSetup(member: { id: string; email: string }): Promise<{ secret: string; uri: string; qr: string } | null> {
  const db = await getDb();
  const [row] = await db.select().from(memberTwoFactor).where(eq(memberTwoFactor.memberId, member.id)).limit(1);
  if (!row || row.enabledAt) return null;
  const uri = totpFor(row.secret, member.email).toString();
  return { secret: row.secret, uri, qr: await qrSvg(uri) };
}

/** The time step a code matches (one step of clock drift either way), or null. */
function matchStep(secret: string, code: string, now: number): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpFor(secret, '').validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : TOTP.counter({ period: 30, timestamp: now }) + delta;
}

/** Turns two-step sign-in on after the first code from the app; returns the recovery codes (shown once). */
export async function enableTwoFactor(actor: AuditActor, memberId: string, code: string, now = Date.now()): Promise<string[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(memberTwoFactor).where(eq(memberTwoFactor.memberId, memberId)).limit(1).for('update');
    if (!row) throw conflict('two_factor_not_started', 'กรุณาเริ่มตั้งค่าใหม่อีกครั้ง');
    if (row.enabledAt) throw conflict('two_factor_on', 'เปิดการยืนยันสองขั้นตอนไว้แล้ว');
    const step = matchStep(row.secret, code, now);
    if (step === null) throw badRequest('code_invalid', 'รหัสยืนยันไม่ถูกต้อง กรุณาตรวจเวลาในโทรศัพท์แล้วลองรหัสล่าสุด', { code: 'รหัสยืนยันไม่ถูกต้อง' });
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await tx
      .update(memberTwoFactor)
      .set({ enabledAt: new Date(now), lastStep: step, recoveryCodeHashes: codes.map(hashCode) })
      .where(eq(memberTwoFactor.memberId, memberId));
    await recordAudit(tx, actor, { action: 'staff.two_factor_enable', entityType: 'member', entityId: memberId, before: { twoFactor: false }, after: { twoFactor: true } });
    return codes;
  });
}

export async function disableTwoFactor(actor: AuditActor, memberId: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const removed = await tx.delete(memberTwoFactor).where(eq(memberTwoFactor.memberId, memberId)).returning({ enabledAt: memberTwoFactor.enabledAt });
    if (!removed[0]?.enabledAt) throw conflict('two_factor_off', 'ยังไม่ได้เปิดการยืนยันสองขั้นตอน');
    await recordAudit(tx, actor, { action: 'staff.two_factor_disable', entityType: 'member', entityId: memberId, before: { twoFactor: true }, after: { twoFactor: false } });
  });
}

/**
 * The owner clears a team member's two-step sign-in (a lost phone, or a second step shut by guessing):
 * the secret and recovery codes go, a lock and the account's count of wrong codes with them, and the
 * member's sessions end, so they sign in with their password and set up the app again. Audited, and
 * the member is mailed, since whoever holds the owner's session could otherwise do it unseen.
 */
export async function resetTwoFactorForMember(actor: AuditActor, memberId: string): Promise<{ email: string }> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(memberId)) throw notFound('member_not_found', 'ไม่พบทีมงานนี้');
  if (memberId === actor.id) throw conflict('own_two_factor', 'การยืนยันสองขั้นตอนของคุณเอง จัดการได้ที่หน้า "ยืนยันตัวตนสองขั้นตอน"');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: members.id, email: members.email, firstName: members.firstName, scopes: members.scopes })
      .from(members)
      .where(eq(members.id, memberId))
      .limit(1);
    if (!target || !roleOf(target)) throw notFound('member_not_found', 'ไม่พบทีมงานนี้');
    const removed = await tx.delete(memberTwoFactor).where(eq(memberTwoFactor.memberId, memberId)).returning({ enabledAt: memberTwoFactor.enabledAt });
    if (!removed[0]?.enabledAt) throw conflict('two_factor_off', 'ทีมงานคนนี้ยังไม่ได้เปิดการยืนยันสองขั้นตอน');
    await tx.delete(secondStepLocks).where(and(eq(secondStepLocks.scope, 'account'), eq(secondStepLocks.subject, memberId)));
    await tx
      .update(secondStepFailures)
      .set({ countsForAccount: false })
      .where(and(eq(secondStepFailures.memberId, memberId), eq(secondStepFailures.countsForAccount, true)));
    await deleteMemberSessions(tx, memberId);
    await recordAudit(tx, actor, {
      action: 'staff.two_factor_reset',
      entityType: 'member',
      entityId: memberId,
      before: { email: target.email, twoFactor: true },
      after: { email: target.email, twoFactor: false },
    });
    await enqueueMail(tx, { kind: 'two_step_reset', to: target.email, payload: { name: target.firstName, by: actor.email } });
    return { email: target.email };
  });
}

/** Checks a code from the app (each time step once) or a recovery code (each once). */
export async function verifySecondStep(memberId: string, code: string, now = Date.now(), actor?: AuditActor): Promise<'totp' | 'recovery' | null> {
  const checked = await checkSecondStepCode(memberId, code, now, actor);
  return checked === 'reused' ? null : checked;
}

/**
 * As verifySecondStep, but tells a code from the app that was right and already used (`reused`, the
 * same 30 s step or an older one) from a wrong one: its owner only has to wait for the next code.
 * A recovery code that works is written in the audit trail, in the transaction that spends it.
 */
async function checkSecondStepCode(memberId: string, code: string, now: number, actor?: AuditActor): Promise<'totp' | 'recovery' | 'reused' | null> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(memberTwoFactor).where(eq(memberTwoFactor.memberId, memberId)).limit(1).for('update');
    if (!row?.enabledAt) return null;
    const step = matchStep(row.secret, code, now);
    if (step !== null) {
      if (step <= row.lastStep) return 'reused';
      await tx.update(memberTwoFactor).set({ lastStep: step }).where(eq(memberTwoFactor.memberId, memberId));
      return 'totp';
    }
    const hash = hashCode(code);
    if (code.trim().length >= 10 && row.recoveryCodeHashes.includes(hash)) {
      const left = row.recoveryCodeHashes.filter((entry) => entry !== hash);
      await tx.update(memberTwoFactor).set({ recoveryCodeHashes: left }).where(eq(memberTwoFactor.memberId, memberId));
      if (actor) {
        await recordAudit(tx, actor, {
          action: 'staff.two_factor_recovery_used',
          entityType: 'member',
          entityId: memberId,
          before: { recoveryCodesLeft: row.recoveryCodeHashes.length },
          after: { recoveryCodesLeft: left.length },
        });
      }
      return 'recovery';
    }
    return null;
  });
}

export async function markAwaitingSecondStep(tokenHash: string): Promise<void> {
  const db = await getDb();
  await db.insert(sessionsAwaitingTwoFactor).values({ tokenHash }).onConflictDoNothing();
}

/**
 * The second step of signing in. Five wrong codes end the half-open session: the password must be
 * given again. Wrong codes also count across sessions, per account and per address
 * (second-step-lockout.ts): past the limit the second step is shut for a while, even for the right code.
 */
export async function completeSecondStep(
  token: string | undefined | null,
  code: string,
  context: { ip?: string; now?: number } = {},
): Promise<{ memberId: string; used: 'totp' | 'recovery' }> {
  const ip = context.ip || 'unknown';
  const now = context.now ?? Date.now();
  const session = await resolveAwaitingSession(token);
  if (!session) throw new AppError(401, 'two_step_expired', 'กรุณาเข้าสู่ระบบใหม่อีกครั้ง');
  const lock = await activeSecondStepLock(session.member.id, ip, now);
  if (lock) throw secondStepLockedError(lock, now);
  const used = await checkSecondStepCode(session.member.id, code, now, signInActor(session.member, ip));
  if (used === 'reused') {
    throw badRequest('code_used', 'รหัสนี้ใช้ไปแล้ว กรุณารอรหัสถัดไปในแอป (เปลี่ยนทุก 30 วินาที) แล้วลองอีกครั้ง', { code: 'รหัสนี้ใช้ไปแล้ว' });
  }
  const db = await getDb();
  if (!used) {
    const started = await recordSecondStepFailure(session.member, ip, secondStepCodeKind(code), now);
    if (started) throw secondStepLockedError(started, now);
    const [row] = await db
      .update(sessionsAwaitingTwoFactor)
      .set({ attempts: sql`${sessionsAwaitingTwoFactor.attempts} + 1` })
      .where(eq(sessionsAwaitingTwoFactor.tokenHash, session.tokenHash))
      .returning({ attempts: sessionsAwaitingTwoFactor.attempts });
    if ((row?.attempts ?? MAX_SECOND_STEP_ATTEMPTS) >= MAX_SECOND_STEP_ATTEMPTS) {
      await deleteSession(db, session.tokenHash);
      throw new AppError(401, 'two_step_expired', 'ใส่รหัสผิดหลายครั้ง กรุณาเข้าสู่ระบบใหม่อีกครั้ง');
    }
    throw badRequest('code_invalid', 'รหัสยืนยันไม่ถูกต้อง', { code: 'รหัสยืนยันไม่ถูกต้อง' });
  }
  await clearAccountFailures(session.member.id);
  await db.delete(sessionsAwaitingTwoFactor).where(eq(sessionsAwaitingTwoFactor.tokenHash, session.tokenHash));
  return { memberId: session.member.id, used };
}
