import { and, asc, count, eq, gt, lt, or } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { secondStepFailures, secondStepLocks, type SecondStepCodeKind, type SecondStepLockScope } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { roleOf } from '../admin/role.ts';
import { formatThaiTime } from '../../lib/thai-text.ts';
import { countEvent } from '../metrics/counted-events.ts';
import type { SessionMember } from './session.service.ts';

/**
 * Wrong second-step codes counted across sessions (issue 32, docs/decisions/172). Five wrong codes end
 * one half-signed-in session, but a stolen password starts as many sessions as it likes; so every wrong
 * code is also a row in the database (several instances share it), counted over a sliding window per
 * account and per client address. Reaching a limit shuts that second step for a while, even for the
 * right code, writes the audit trail and, for an account, mails its owner once.
 */
export interface SecondStepLimit {
  max: number;
  windowMs: number;
  lockMs: number;
}

export const SECOND_STEP_LIMITS: Record<SecondStepLockScope, SecondStepLimit> = {
  account: { max: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  /** Higher than an account's: one office behind one address may hold several staff who mistype. */
  address: { max: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
};

/** Longer than any window: older rows count for nothing and are swept by whoever records a failure. */
const SWEEP_AFTER_MS = 24 * 60 * 60_000;

export interface SecondStepLock {
  scope: SecondStepLockScope;
  lockedUntil: Date;
}

/** A 6-digit entry is a code from the app; anything else was meant as a recovery code. */
export function secondStepCodeKind(code: string): SecondStepCodeKind {
  return /^\d{6}$/.test(code.replace(/\s/g, '')) ? 'totp' : 'recovery';
}

/** Who signs in, for the audit trail: the person themselves, from their address. */
export function signInActor(member: SessionMember, ip: string): AuditActor {
  return { id: member.id, email: member.email, role: roleOf(member) ?? 'member', via: 'web', ip };
}

/** The lock that holds now for this account or this address (the account's first), or null. */
export async function activeSecondStepLock(memberId: string, ip: string, now = Date.now()): Promise<SecondStepLock | null> {
  const db = await getDb();
  const rows = await db
    .select({ scope: secondStepLocks.scope, lockedUntil: secondStepLocks.lockedUntil })
    .from(secondStepLocks)
    .where(
      and(
        or(and(eq(secondStepLocks.scope, 'account'), eq(secondStepLocks.subject, memberId)), and(eq(secondStepLocks.scope, 'address'), eq(secondStepLocks.subject, ip))),
        gt(secondStepLocks.lockedUntil, new Date(now)),
      ),
    );
  return rows.find((row) => row.scope === 'account') ?? rows[0] ?? null;
}

/** The 429 a locked second step answers, saying until when (Bangkok time) and, for an account, that a mail went out. */
export function secondStepLockedError(lock: SecondStepLock, now = Date.now()): AppError {
  const until = formatThaiTime(lock.lockedUntil);
  const message =
    lock.scope === 'account'
      ? `ใส่รหัสยืนยันผิดหลายครั้งเกินไป ระบบระงับการยืนยันตัวตนสองขั้นตอนของบัญชีนี้ไว้ชั่วคราว กรุณาลองใหม่หลังเวลา ${until} น. เราได้ส่งอีเมลแจ้งเจ้าของบัญชีแล้ว`
      : `มีการใส่รหัสยืนยันผิดหลายครั้งเกินไปจากเครือข่ายนี้ ระบบระงับการยืนยันตัวตนสองขั้นตอนจากเครือข่ายนี้ไว้ชั่วคราว กรุณาลองใหม่หลังเวลา ${until} น.`;
  const error = new AppError(429, 'two_step_locked', message);
  error.retryAfterSeconds = Math.max(1, Math.ceil((lock.lockedUntil.getTime() - now) / 1000));
  return error;
}

/**
 * Records one wrong code and returns the lock it started, if it started one. The count, the lock and its
 * audit rows and mail commit together; of two instances counting the same tenth failure, only the one
 * whose insert finds no live lock starts it, so the owner gets one mail.
 */
export async function recordSecondStepFailure(member: SessionMember, ip: string, kind: SecondStepCodeKind, now = Date.now()): Promise<SecondStepLock | null> {
  countEvent('second_step_failed');
  const db = await getDb();
  const actor = signInActor(member, ip);
  const started = await db.transaction(async (tx) => {
    await tx.insert(secondStepFailures).values({ memberId: member.id, ip, kind, failedAt: new Date(now) });
    if (kind === 'recovery') {
      await recordAudit(tx, actor, { action: 'staff.two_factor_recovery_failed', entityType: 'member', entityId: member.id, note: 'รหัสกู้คืนไม่ถูกต้อง' });
    }
    const locks: SecondStepLock[] = [];
    const accountSince = new Date(now - SECOND_STEP_LIMITS.account.windowMs);
    const accountFailures = and(eq(secondStepFailures.memberId, member.id), eq(secondStepFailures.countsForAccount, true), gt(secondStepFailures.failedAt, accountSince));
    if ((await countWhere(tx, accountFailures)) >= SECOND_STEP_LIMITS.account.max) {
      const lock = await startLock(tx, 'account', member.id, now);
      if (lock) {
        await auditLock(tx, actor, lock, member.id, await failuresWhere(tx, accountFailures), now);
        await enqueueMail(tx, {
          kind: 'two_step_locked',
          to: member.email,
          payload: { name: member.firstName, ip, lockedUntil: lock.lockedUntil.toISOString(), failures: SECOND_STEP_LIMITS.account.max },
        });
        locks.push(lock);
      }
    }
    const addressSince = new Date(now - SECOND_STEP_LIMITS.address.windowMs);
    const addressFailures = and(eq(secondStepFailures.ip, ip), gt(secondStepFailures.failedAt, addressSince));
    if ((await countWhere(tx, addressFailures)) >= SECOND_STEP_LIMITS.address.max) {
      const lock = await startLock(tx, 'address', ip, now);
      if (lock) {
        await auditLock(tx, actor, lock, ip, await failuresWhere(tx, addressFailures), now);
        locks.push(lock);
      }
    }
    return locks[0] ?? null;
  });
  if (started) countEvent('second_step_locked');
  if (Math.random() < 0.01) {
    await db.delete(secondStepFailures).where(lt(secondStepFailures.failedAt, new Date(now - SWEEP_AFTER_MS)));
    await db.delete(secondStepLocks).where(lt(secondStepLocks.lockedUntil, new Date(now - SWEEP_AFTER_MS)));
  }
  return started;
}

/** A right code: the account starts counting from zero (its address keeps its count). */
export async function clearAccountFailures(memberId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(secondStepFailures)
    .set({ countsForAccount: false })
    .where(and(eq(secondStepFailures.memberId, memberId), eq(secondStepFailures.countsForAccount, true)));
}

async function countWhere(tx: DbOrTx, where: ReturnType<typeof and>): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(secondStepFailures).where(where);
  return Number(row?.n ?? 0);
}

async function failuresWhere(tx: DbOrTx, where: ReturnType<typeof and>) {
  return tx
    .select({ at: secondStepFailures.failedAt, ip: secondStepFailures.ip, kind: secondStepFailures.kind, memberId: secondStepFailures.memberId })
    .from(secondStepFailures)
    .where(where)
    .orderBy(asc(secondStepFailures.failedAt))
    .limit(50);
}

/** Inserts the lock unless a live one is there; returns it only when this call started it. */
async function startLock(tx: DbOrTx, scope: SecondStepLockScope, subject: string, now: number): Promise<SecondStepLock | null> {
  const lockedAt = new Date(now);
  const lockedUntil = new Date(now + SECOND_STEP_LIMITS[scope].lockMs);
  const [row] = await tx
    .insert(secondStepLocks)
    .values({ scope, subject, lockedAt, lockedUntil })
    .onConflictDoUpdate({ target: [secondStepLocks.scope, secondStepLocks.subject], set: { lockedAt, lockedUntil }, setWhere: lt(secondStepLocks.lockedUntil, lockedAt) })
    .returning({ lockedUntil: secondStepLocks.lockedUntil });
  return row ? { scope, lockedUntil: row.lockedUntil } : null;
}

async function auditLock(
  tx: DbOrTx,
  actor: AuditActor,
  lock: SecondStepLock,
  subject: string,
  failures: Array<{ at: Date; ip: string; kind: SecondStepCodeKind; memberId: string }>,
  now: number,
): Promise<void> {
  const entityType = lock.scope === 'account' ? 'member' : 'address';
  const limit = SECOND_STEP_LIMITS[lock.scope];
  await recordAudit(tx, actor, {
    action: 'staff.two_factor_failures',
    entityType,
    entityId: subject,
    after: { failures },
    note: `ใส่รหัสยืนยันผิด ${failures.length} ครั้งภายใน ${limit.windowMs / 60_000} นาที`,
  });
  await recordAudit(tx, actor, {
    action: 'staff.two_factor_lock',
    entityType,
    entityId: subject,
    before: { locked: false },
    after: { locked: true, scope: lock.scope, lockedAt: new Date(now), lockedUntil: lock.lockedUntil },
    note: lock.scope === 'account' ? 'ระงับการยืนยันสองขั้นตอนของบัญชีชั่วคราว' : 'ระงับการยืนยันสองขั้นตอนจากที่อยู่นี้ชั่วคราว',
  });
}
