import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import * as loginRoute from '../../src/pages/api/auth/login';
import * as resetTwoStepRoute from '../../src/pages/admin/staff/reset-two-step';
import { getDb } from '../../src/server/db/client';
import { auditLog, mailOutbox, members, memberTwoFactor, sessions } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/auth/password';
import { beginTwoFactorSetup, completeSecondStep, enableTwoFactor, MAX_SECOND_STEP_ATTEMPTS } from '../../src/server/auth/two-factor.service';
import { TestClient, type CallOptions } from '../fixtures/api-client';
import { createMember } from '../fixtures/orders';
import { latestMailTo, settleOutbox } from '../fixtures/outbox';

/**
 * Issue 32: wrong second-step codes count across password logins, per account and per address, in the
 * database; past the limit the second step is shut (429, Thai, even for the right code), audited and
 * mailed. Every call is given its clock, so no test waits for time to pass.
 */
const PASSWORD = 'ดอกไม้บานที่เชียงใหม่';
/** The limits issue 32 asks for: 10 wrong codes per account, 20 per address, in 15 minutes. */
const ACCOUNT_LIMIT = 10;
const ADDRESS_LIMIT = 20;
const FIFTEEN_MINUTES = 15 * 60_000;
const LOCK_MESSAGE = /ลองใหม่หลังเวลา \d{2}:\d{2} น\./;

interface Staffer {
  id: string;
  email: string;
  code: (at: number) => string;
  wrongCode: (at: number) => string;
  recovery: string[];
}

/** A staff member with two-step sign-in turned on two minutes before `base`. */
async function stafferWithTwoStep(base: number): Promise<Staffer> {
  const member = await createMember({ scopes: ['staff'] });
  const db = await getDb();
  await db.update(members).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(members.id, member.id));
  const setup = await beginTwoFactorSetup(member);
  const code = (at: number) => TOTP.generate({ secret: Secret.fromBase32(setup.secret), timestamp: at });
  const actor = { id: member.id, email: member.email, role: 'staff', via: 'web' as const };
  const recovery = await enableTwoFactor(actor, member.id, code(base - 120_000), base - 120_000);
  // A six-digit code the app would not accept one step either side of `at`.
  const wrongCode = (at: number) => {
    const near = new Set([code(at - 30_000), code(at), code(at + 30_000)]);
    for (let guess = 0; ; guess++) {
      const candidate = String(guess).padStart(6, '0');
      if (!near.has(candidate)) return candidate;
    }
  };
  return { id: member.id, email: member.email, code, wrongCode, recovery };
}

/** A fresh password login: the half-signed-in session's token. */
async function passwordLogin(staffer: Staffer, ip: string): Promise<string> {
  const response = await new TestClient(ip).call(loginRoute, 'POST', '/api/auth/login', { body: { login: staffer.email, password: PASSWORD } });
  expect(response.status).toBe(200);
  expect(response.body.data).toEqual({ user: null, two_factor_required: true });
  return response.cookies.get('shop_session')!.value;
}

/**
 * Sends `count` wrong codes from `ip`, logging in again before a session would end (at most
 * MAX_SECOND_STEP_ATTEMPTS - 1 wrong codes a session, as a guesser with the password would), and
 * returns how each was refused.
 */
async function guessWrong(staffer: Staffer, count: number, ip: string, now: number): Promise<Array<{ status: number; code: string; message: string }>> {
  const refusals: Array<{ status: number; code: string; message: string }> = [];
  let token = '';
  let inSession = MAX_SECOND_STEP_ATTEMPTS;
  for (let attempt = 0; attempt < count; attempt++) {
    if (inSession >= MAX_SECOND_STEP_ATTEMPTS - 1) {
      token = await passwordLogin(staffer, ip);
      inSession = 0;
    }
    inSession += 1;
    const error = await completeSecondStep(token, staffer.wrongCode(now), { ip, now }).then(
      () => null,
      (caught: unknown) => caught as { status: number; code: string; message: string },
    );
    expect(error, 'a wrong code must be refused').not.toBeNull();
    refusals.push({ status: error!.status, code: error!.code, message: error!.message });
  }
  return refusals;
}

async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string; retryAfterSeconds?: number } | null> {
  return promise.then(
    () => null,
    (caught: unknown) => caught as { status: number; code: string; message: string; retryAfterSeconds?: number },
  );
}

async function auditActions(entityId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, entityId)).orderBy(auditLog.id);
  return rows.map((row) => row.action);
}

async function lockMails(email: string) {
  const db = await getDb();
  return db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'two_step_locked')));
}

describe('two-step sign-in cannot be guessed across logins (issue 32)', () => {
  it('wrong codes over several fresh password logins lock the account: refused in Thai even with the right code, mailed once, audited', async () => {
    const base = Date.now();
    const staffer = await stafferWithTwoStep(base);
    // Each login comes from another address, so only the account's count can stop this.
    const refusals = [
      ...(await guessWrong(staffer, 4, '203.0.113.10', base)),
      ...(await guessWrong(staffer, 4, '203.0.113.11', base)),
      ...(await guessWrong(staffer, ACCOUNT_LIMIT - 8, '203.0.113.12', base)),
    ];
    expect(refusals.slice(0, ACCOUNT_LIMIT - 1).every((refusal) => refusal.code === 'code_invalid')).toBe(true);
    expect(refusals.at(-1)).toMatchObject({ status: 429, code: 'two_step_locked' });

    // A new login, a new address, the right code: still shut, with a Thai message saying until when.
    const token = await passwordLogin(staffer, '203.0.113.13');
    const locked = await refusalOf(completeSecondStep(token, staffer.code(base + 60_000), { ip: '203.0.113.13', now: base + 60_000 }));
    expect(locked).toMatchObject({ status: 429, code: 'two_step_locked' });
    expect(locked!.message).toMatch(LOCK_MESSAGE);
    expect(locked!.message).toContain('ส่งอีเมลแจ้ง');
    expect(locked!.retryAfterSeconds).toBe((FIFTEEN_MINUTES - 60_000) / 1000);

    // One mail, in Thai, however many attempts follow.
    await refusalOf(completeSecondStep(token, staffer.wrongCode(base + 61_000), { ip: '203.0.113.13', now: base + 61_000 }));
    const mails = await lockMails(staffer.email);
    expect(mails).toHaveLength(1);
    await settleOutbox();
    const mail = latestMailTo(process.env.DATA_DIR!, staffer.email, 'ระงับการยืนยันสองขั้นตอน');
    expect(mail?.text).toContain('เปลี่ยนรหัสผ่าน');
    expect(mail?.text).toContain('203.0.113.12');

    const actions = await auditActions(staffer.id);
    expect(actions).toContain('staff.two_factor_failures');
    expect(actions).toContain('staff.two_factor_lock');
    const db = await getDb();
    const [failures] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, staffer.id), eq(auditLog.action, 'staff.two_factor_failures')));
    expect((failures!.after as { failures: unknown[] }).failures).toHaveLength(ACCOUNT_LIMIT);
    expect(failures!.actorId).toBe(staffer.id);

    // After the lock, the right code works again.
    const after = base + FIFTEEN_MINUTES + 1_000;
    await expect(completeSecondStep(token, staffer.code(after), { ip: '203.0.113.13', now: after })).resolves.toMatchObject({ memberId: staffer.id, used: 'totp' });
  });

  it('a right code starts the account counting from zero', async () => {
    const base = Date.now();
    const staffer = await stafferWithTwoStep(base);
    const before = await guessWrong(staffer, ACCOUNT_LIMIT - 1, '203.0.113.20', base);
    expect(before.every((refusal) => refusal.status !== 429)).toBe(true);
    const token = await passwordLogin(staffer, '203.0.113.21');
    await expect(completeSecondStep(token, staffer.code(base), { ip: '203.0.113.21', now: base })).resolves.toMatchObject({ used: 'totp' });

    const later = base + 60_000;
    const afterSuccess = await guessWrong(staffer, ACCOUNT_LIMIT - 1, '203.0.113.22', later);
    expect(afterSuccess.every((refusal) => refusal.status !== 429)).toBe(true);
    // The count is the account's own, across sessions: the tenth since the success locks it.
    const tenth = await guessWrong(staffer, 1, '203.0.113.23', later);
    expect(tenth[0]).toMatchObject({ status: 429, code: 'two_step_locked' });
  });

  it('wrong codes for several accounts from one address lock that address, not the accounts elsewhere', async () => {
    const base = Date.now();
    const ip = '198.51.100.77';
    const [first, second, third, untouched] = [
      await stafferWithTwoStep(base),
      await stafferWithTwoStep(base),
      await stafferWithTwoStep(base),
      await stafferWithTwoStep(base),
    ];
    const refusals = [
      ...(await guessWrong(first!, 7, ip, base)),
      ...(await guessWrong(second!, 7, ip, base)),
      ...(await guessWrong(third!, ADDRESS_LIMIT - 14, ip, base)),
    ];
    expect(refusals.slice(0, ADDRESS_LIMIT - 1).every((refusal) => refusal.code === 'code_invalid')).toBe(true);
    expect(refusals.at(-1)).toMatchObject({ status: 429, code: 'two_step_locked' });
    expect(refusals.at(-1)!.message).toContain('เครือข่ายนี้');

    // An account nobody guessed, from that address, with its right code: shut too.
    const fromThere = await passwordLogin(untouched!, ip);
    const refused = await refusalOf(completeSecondStep(fromThere, untouched!.code(base), { ip, now: base }));
    expect(refused).toMatchObject({ status: 429, code: 'two_step_locked' });
    expect(refused!.message).toMatch(LOCK_MESSAGE);
    // The same account from another address signs in.
    const elsewhere = await passwordLogin(untouched!, '198.51.100.78');
    await expect(completeSecondStep(elsewhere, untouched!.code(base), { ip: '198.51.100.78', now: base })).resolves.toMatchObject({ used: 'totp' });

    expect(await auditActions(ip)).toEqual(['staff.two_factor_failures', 'staff.two_factor_lock']);
  });

  it('recovery codes: each use and each wrong one is in the audit trail', async () => {
    const base = Date.now();
    const staffer = await stafferWithTwoStep(base);
    const token = await passwordLogin(staffer, '203.0.113.30');
    await expect(completeSecondStep(token, staffer.recovery[0]!, { ip: '203.0.113.30', now: base })).resolves.toMatchObject({ used: 'recovery' });
    const again = await passwordLogin(staffer, '203.0.113.30');
    expect(await refusalOf(completeSecondStep(again, staffer.recovery[0]!, { ip: '203.0.113.30', now: base }))).toMatchObject({ code: 'code_invalid' });
    const actions = await auditActions(staffer.id);
    expect(actions).toContain('staff.two_factor_recovery_used');
    expect(actions).toContain('staff.two_factor_recovery_failed');
    const db = await getDb();
    const [used] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, staffer.id), eq(auditLog.action, 'staff.two_factor_recovery_used')));
    expect(used!.after).toEqual({ recoveryCodesLeft: 9 });
    expect(used!.ip).toBe('203.0.113.30');
  });

  it('a right code already used says so and asks for the next one', async () => {
    const base = Date.now();
    const staffer = await stafferWithTwoStep(base);
    const token = await passwordLogin(staffer, '203.0.113.40');
    await completeSecondStep(token, staffer.code(base), { ip: '203.0.113.40', now: base });
    const again = await passwordLogin(staffer, '203.0.113.40');
    const refused = await refusalOf(completeSecondStep(again, staffer.code(base), { ip: '203.0.113.40', now: base + 5_000 }));
    expect(refused).toMatchObject({ status: 400, code: 'code_used' });
    expect(refused!.message).toContain('ใช้ไปแล้ว');
    expect(refused!.message).toContain('รหัสถัดไป');
    // The next code from the app works in the same session.
    await expect(completeSecondStep(again, staffer.code(base + 30_000), { ip: '203.0.113.40', now: base + 30_000 })).resolves.toMatchObject({ used: 'totp' });
  });

  it('the owner clears a locked team member\'s two-step sign-in: audited, mailed, sessions ended; staff may not', async () => {
    const base = Date.now();
    const staffer = await stafferWithTwoStep(base);
    const refusals = await guessWrong(staffer, ACCOUNT_LIMIT, '203.0.113.50', base);
    expect(refusals.at(-1)).toMatchObject({ status: 429, code: 'two_step_locked' });
    const owner = await createMember({ scopes: ['owner'] });
    const colleague = await createMember({ scopes: ['staff'] });
    const db = await getDb();
    await db.update(members).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(members.id, owner.id));
    const asOwner = new TestClient('203.0.113.51');
    asOwner.bearer = owner.token;
    const asColleague = new TestClient('203.0.113.52');
    asColleague.bearer = colleague.token;
    const path = '/admin/staff/reset-two-step';

    expect((await asColleague.call(resetTwoStepRoute, 'POST', path, jsonForm({ member_id: staffer.id, password: PASSWORD }))).status).toBe(403);
    const wrongPassword = await asOwner.call(resetTwoStepRoute, 'POST', path, jsonForm({ member_id: staffer.id, password: 'ไม่ใช่รหัสผ่าน' }));
    expect(wrongPassword.status).toBeGreaterThanOrEqual(400);
    expect(wrongPassword.status).toBeLessThan(500);
    const ownOwn = await asOwner.call(resetTwoStepRoute, 'POST', path, jsonForm({ member_id: owner.id, password: PASSWORD }));
    expect(ownOwn.status).toBe(409);
    const notTeam = await asOwner.call(resetTwoStepRoute, 'POST', path, jsonForm({ member_id: 'ไม่ใช่ไอดี', password: PASSWORD }));
    expect(notTeam.status).toBe(404);
    expect((await db.select().from(memberTwoFactor).where(eq(memberTwoFactor.memberId, staffer.id)))).toHaveLength(1);

    const reset = await asOwner.call(resetTwoStepRoute, 'POST', path, jsonForm({ member_id: staffer.id, password: PASSWORD }));
    expect(reset.status).toBe(200);
    expect(await db.select().from(memberTwoFactor).where(eq(memberTwoFactor.memberId, staffer.id))).toHaveLength(0);
    expect(await db.select().from(sessions).where(eq(sessions.memberId, staffer.id))).toHaveLength(0);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, staffer.id), eq(auditLog.action, 'staff.two_factor_reset')));
    expect(audit).toMatchObject({ actorId: owner.id, before: { email: staffer.email, twoFactor: true }, after: { email: staffer.email, twoFactor: false } });
    const [mail] = await db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, staffer.email), eq(mailOutbox.kind, 'two_step_reset')));
    expect(mail?.payload).toMatchObject({ by: owner.email });
    await settleOutbox();
    const sent = latestMailTo(process.env.DATA_DIR!, staffer.email, 'ล้างการยืนยันตัวตนสองขั้นตอน');
    expect(sent?.text).toContain(owner.email);
    expect(sent?.text).toContain('/admin/two-step');

    // The password alone signs the member in again (no lock left over), and a second reset has nothing to clear.
    const login = await new TestClient('203.0.113.50').call(loginRoute, 'POST', '/api/auth/login', { body: { login: staffer.email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect((login.body.data as { user: { email: string } | null }).user?.email).toBe(staffer.email);
    expect((await asOwner.call(resetTwoStepRoute, 'POST', path, jsonForm({ member_id: staffer.id, password: PASSWORD }))).status).toBe(409);
  });
});

function jsonForm(fields: Record<string, string>): CallOptions {
  return { rawBody: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded', headers: { accept: 'application/json' } };
}
