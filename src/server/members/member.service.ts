import type { z } from 'zod';
import type { changePasswordSchema, profileSchema, registerSchema } from '../../lib/account-schemas.ts';
import { isThaiPhone, normalizeThaiPhone } from '../../lib/phone.ts';
import { getDb } from '../db/client.ts';
import { AppError, conflict, notFound, tooManyRequests } from '../http/errors.ts';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from '../auth/password.ts';
import { endOtherSessions, startSession } from '../auth/session.service.ts';
import { countEvent } from '../metrics/counted-events.ts';
import { clear, consume, ensureBelow, hit, LIMITS, RATE_LIMIT_MESSAGE, window as rateWindow } from '../security/rate-limit.ts';
import { signedInFrom } from '../auth/session.repo.ts';
import { findByEmail, findById, findByPhone, insertMember, phoneUsedByOther, toProfile, updatePasswordHash, updateProfile } from './member.repo.ts';
import type { AuthUserShape, MemberProfile } from './member.types.ts';
import { roleOf } from '../admin/role.ts';
import { isMemberDisabled } from '../admin/members-admin.service.ts';
import { markAwaitingSecondStep, twoFactorEnabled } from '../auth/two-factor.service.ts';
import { hashToken } from '../auth/tokens.ts';

export const INVALID_LOGIN_MESSAGE = 'อีเมล/เบอร์โทรศัพท์ หรือรหัสผ่านไม่ถูกต้อง';

export interface RequestMeta {
  ip: string;
  userAgent: string;
}

export function toAuthUser(member: { id: string; firstName: string; lastName: string; email: string; phone: string; scopes: string[] }): AuthUserShape {
  return {
    id: member.id,
    firstName: member.firstName,
    lastName: member.lastName,
    email: member.email,
    phone: member.phone,
    scopes: member.scopes,
    role: roleOf(member),
  };
}

/** Postgres unique violation (23505) from either driver: the constraint's name, or null. */
export function isUniqueViolation(error: unknown): string | null {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const record = current as { code?: unknown; constraint?: unknown; constraint_name?: unknown; cause?: unknown };
    if (record.code === '23505') return String(record.constraint ?? record.constraint_name ?? '');
    current = record.cause;
  }
  return null;
}

const emailTaken = () => conflict('email_taken', 'อีเมลนี้ถูกใช้สมัครสมาชิกแล้ว');
const phoneTaken = () => conflict('phone_taken', 'เบอร์โทรศัพท์นี้ถูกใช้สมัครสมาชิกแล้ว');

export async function register(input: z.output<typeof registerSchema>, meta: RequestMeta): Promise<{ token: string; user: AuthUserShape }> {
  await consume(LIMITS.registerPerIp, meta.ip);
  const db = await getDb();
  if (await findByEmail(db, input.email)) throw withField(emailTaken(), 'email');
  if (await findByPhone(db, input.phone)) throw withField(phoneTaken(), 'phone');
  const passwordHash = await hashPassword(input.password);
  let row;
  try {
    row = await insertMember(db, { firstName: input.firstName, lastName: input.lastName, email: input.email, phone: input.phone, passwordHash });
  } catch (error) {
    // Two sign-ups racing for the same email or phone: the unique indexes decide.
    const constraint = isUniqueViolation(error);
    if (constraint === null) throw error;
    throw constraint.includes('phone') ? withField(phoneTaken(), 'phone') : withField(emailTaken(), 'email');
  }
  const { token } = await startSession(row.id, meta);
  return { token, user: toAuthUser(row) };
}

function withField(error: AppError, field: string): AppError {
  return new AppError(error.status, error.code, error.message, { [field]: error.message });
}

/** Email when it has an @, otherwise a Thai phone number. */
export function loginIdentifier(login: string): { kind: 'email' | 'phone'; value: string } {
  const trimmed = login.trim();
  if (trimmed.includes('@')) return { kind: 'email', value: trimmed.toLowerCase() };
  return { kind: 'phone', value: normalizeThaiPhone(trimmed) };
}

async function findByLogin(login: string) {
  const db = await getDb();
  const id = loginIdentifier(login);
  if (id.kind === 'email') return findByEmail(db, id.value);
  return isThaiPhone(id.value) ? findByPhone(db, id.value) : null;
}

/**
 * Checks the credentials and opens a new session (docs/decisions/144). Failures count per address,
 * per account-and-address, and per account. The first two refuse with 429 before any password is
 * checked; the looser per-account one refuses only addresses the member never signed in from, so a
 * stranger guessing from many addresses cannot lock the member out of their own.
 */
export async function login(
  input: { login: string; password: string },
  meta: RequestMeta,
): Promise<{ token: string; user: AuthUserShape; twoFactorRequired: boolean }> {
  const account = loginIdentifier(input.login).value;
  const pair = `${account}|${meta.ip}`;
  try {
    await ensureBelow(LIMITS.loginFailPerIp, meta.ip);
    await ensureBelow(LIMITS.loginFailPerAccountAndIp, pair);
  } catch (error) {
    countEvent('login_refused');
    throw error;
  }
  const member = await findByLogin(input.login);
  const accountWindow = await rateWindow(LIMITS.loginFailPerAccount, account);
  if (accountWindow.count >= LIMITS.loginFailPerAccount.max && !(member && (await signedInFrom(await getDb(), member.id, meta.ip)))) {
    countEvent('login_refused');
    throw tooManyRequests(RATE_LIMIT_MESSAGE, accountWindow.secondsLeft);
  }
  const valid = member ? await verifyPassword(member.passwordHash, input.password) : (await verifyAgainstDummy(input.password), false);
  if (!member || !valid) {
    countEvent('login_failed');
    await Promise.all([hit(LIMITS.loginFailPerAccount, account), hit(LIMITS.loginFailPerAccountAndIp, pair), hit(LIMITS.loginFailPerIp, meta.ip)]);
    throw new AppError(401, 'invalid_credentials', INVALID_LOGIN_MESSAGE);
  }
  await clear(LIMITS.loginFailPerAccountAndIp, pair);
  // Told only after the right password, so the message does not reveal which accounts exist.
  await refuseDisabled(member.id);
  if (needsRehash(member.passwordHash)) await updatePasswordHash(await getDb(), member.id, await hashPassword(input.password));
  return openProvenSession(member, meta);
}

async function refuseDisabled(memberId: string): Promise<void> {
  if (await isMemberDisabled(memberId)) {
    throw new AppError(403, 'account_disabled', 'บัญชีนี้ถูกระงับการใช้งาน กรุณาติดต่อร้าน');
  }
}

type ProvenMember = Parameters<typeof toAuthUser>[0];

/** A new session for a member whose identity is proven; back-office people with TOTP on still owe the second step (/login/two-step). */
async function openProvenSession(member: ProvenMember, meta: RequestMeta): Promise<{ token: string; user: AuthUserShape; twoFactorRequired: boolean }> {
  const { token } = await startSession(member.id, meta);
  const twoFactorRequired = roleOf(member) !== null && (await twoFactorEnabled(member.id));
  if (twoFactorRequired) await markAwaitingSecondStep(hashToken(token));
  return { token, user: toAuthUser(member), twoFactorRequired };
}

/**
 * Signs in a member proven another way than their password (LINE Login, docs/decisions/211): the same
 * session, the same refusal of a disabled account, the same second step as login().
 */
export async function signInProvenMember(memberId: string, meta: RequestMeta): Promise<{ token: string; user: AuthUserShape; twoFactorRequired: boolean }> {
  const member = await findById(await getDb(), memberId);
  if (!member || member.closedAt) throw new AppError(401, 'invalid_credentials', INVALID_LOGIN_MESSAGE);
  await refuseDisabled(member.id);
  return openProvenSession(member, meta);
}

export async function emailAvailable(email: string, ip: string): Promise<boolean> {
  await consume(LIMITS.availabilityPerIp, ip);
  return !(await findByEmail(await getDb(), email));
}

export async function phoneAvailable(phone: string, ip: string): Promise<boolean> {
  await consume(LIMITS.availabilityPerIp, ip);
  return !(await findByPhone(await getDb(), phone));
}

export async function memberExists(login: string, ip: string): Promise<boolean> {
  await consume(LIMITS.availabilityPerIp, ip);
  return Boolean(await findByLogin(login));
}

export async function getProfile(memberId: string): Promise<MemberProfile> {
  const row = await findById(await getDb(), memberId);
  if (!row) throw notFound('member_not_found', 'ไม่พบข้อมูลสมาชิก');
  return toProfile(row);
}

export async function saveProfile(memberId: string, input: z.output<typeof profileSchema>): Promise<MemberProfile> {
  const db = await getDb();
  if (await phoneUsedByOther(db, input.phone, memberId)) throw withField(phoneTaken(), 'phone');
  let row;
  try {
    row = await updateProfile(db, memberId, input);
  } catch (error) {
    if (isUniqueViolation(error) !== null) throw withField(phoneTaken(), 'phone');
    throw error;
  }
  if (!row) throw notFound('member_not_found', 'ไม่พบข้อมูลสมาชิก');
  return toProfile(row);
}

/** Changes the password after checking the current one; every other session of the member ends. */
export async function changePassword(memberId: string, currentTokenHash: string, input: z.output<typeof changePasswordSchema>): Promise<void> {
  await ensureBelow(LIMITS.passwordChangeFail, memberId);
  const db = await getDb();
  const row = await findById(db, memberId);
  if (!row) throw notFound('member_not_found', 'ไม่พบข้อมูลสมาชิก');
  if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
    await hit(LIMITS.passwordChangeFail, memberId);
    throw new AppError(400, 'wrong_password', 'รหัสผ่านปัจจุบันไม่ถูกต้อง', { currentPassword: 'รหัสผ่านปัจจุบันไม่ถูกต้อง' });
  }
  await updatePasswordHash(db, memberId, await hashPassword(input.newPassword));
  await clear(LIMITS.passwordChangeFail, memberId);
  await endOtherSessions(memberId, currentTokenHash);
}
