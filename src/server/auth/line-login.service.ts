import type { z } from 'zod';
import type { lineSignUpSchema } from '../../lib/account-schemas.ts';
import { safeNextPath } from '../../lib/safe-redirect.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { getDb } from '../db/client.ts';
import { AppError, conflict } from '../http/errors.ts';
import { findByEmail, findById, findByPhone, insertMember } from '../members/member.repo.ts';
import { isUniqueViolation, signInProvenMember, type RequestMeta } from '../members/member.service.ts';
import { consume, LIMITS } from '../security/rate-limit.ts';
import { hashToken, looksLikeToken, newToken } from './tokens.ts';
import { newLineTrip, redeemLineCode } from './line-oidc.ts';
import * as repo from './line-login.repo.ts';

/**
 * Signing in with LINE, linking LINE to a member and unlinking it (issue 31 §7, docs/decisions/211).
 * A LINE account becomes a member only through the sign-up form, and joins an existing member only from
 * that member's own signed-in profile: never because an e-mail address matches.
 */

/** A trip to LINE must come back within this time. */
const TRIP_MS = 10 * 60 * 1000;
/** The sign-up form after LINE said who the user is. */
const SIGN_UP_MS = 30 * 60 * 1000;

export type LinePurpose = 'login' | 'link';

const tripGone = () =>
  new AppError(400, 'line_state_missing', 'การเข้าสู่ระบบด้วย LINE นี้หมดเวลาหรือถูกใช้ไปแล้ว กรุณาเริ่มใหม่อีกครั้ง');
const stateMismatch = () => new AppError(400, 'line_state_mismatch', 'ข้อมูลที่ LINE ส่งกลับมาไม่ตรงกับที่ร้านส่งไป กรุณาเริ่มใหม่อีกครั้ง');
const consentRefused = () =>
  new AppError(400, 'line_consent_refused', 'คุณไม่ได้อนุญาตให้ร้านใช้บัญชี LINE จึงยังไม่ได้เข้าสู่ระบบ หากต้องการ กรุณาลองใหม่และกดอนุญาต');
const lineTaken = () =>
  conflict('line_taken', 'บัญชี LINE นี้เชื่อมกับสมาชิกอีกคนหนึ่งอยู่แล้ว กรุณาเข้าสู่ระบบด้วย LINE หรือยกเลิกการเชื่อมต่อจากบัญชีนั้นก่อน');

/** Starts a trip to LINE: the value for this browser's `shop_line` cookie and the address to send it to. */
export async function startLineTrip(purpose: LinePurpose, options: { memberId?: string; next?: string | null; ip: string }): Promise<{ cookieToken: string; url: string }> {
  await consume(LIMITS.lineStartPerIp, options.ip);
  const trip = await newLineTrip();
  const cookieToken = newToken();
  const db = await getDb();
  const now = new Date();
  await repo.insertLineSignIn(db, {
    tokenHash: hashToken(cookieToken),
    purpose,
    state: trip.state,
    nonce: trip.nonce,
    codeVerifier: trip.codeVerifier,
    memberId: purpose === 'link' ? (options.memberId ?? null) : null,
    nextPath: safeNextPath(options.next),
    expiresAt: new Date(now.getTime() + TRIP_MS),
  });
  // Housekeeping rides on starts, as session housekeeping rides on logins.
  if (Math.random() < 0.05) await repo.deleteExpiredLineSignIns(db, now);
  return { cookieToken, url: trip.url };
}

export type LineOutcome =
  | { kind: 'signed_in'; token: string; twoFactorRequired: boolean; next: string }
  | { kind: 'sign_up'; cookieToken: string; next: string }
  | { kind: 'linked'; next: string };

/**
 * LINE's answer at the callback. The trip is taken out of the table first, so a second use of the same
 * answer (a replayed code) finds nothing; then its state must match, LINE must not have said no, and the
 * code must give an ID token with the trip's nonce (the PKCE verifier goes with it).
 */
export async function finishLineTrip(
  cookieToken: string | undefined,
  query: URLSearchParams,
  signedIn: { memberId: string; email: string } | null,
  meta: RequestMeta,
): Promise<LineOutcome> {
  if (!looksLikeToken(cookieToken)) throw tripGone();
  const db = await getDb();
  const trip = await repo.takeLineSignIn(db, hashToken(cookieToken), ['login', 'link'], new Date());
  if (!trip) throw tripGone();
  if (query.get('state') !== trip.state) throw stateMismatch();
  const error = query.get('error');
  if (error !== null) {
    if (error === 'access_denied') throw consentRefused();
    throw new AppError(400, 'line_error', 'LINE ไม่สามารถยืนยันตัวตนได้ในครั้งนี้ กรุณาลองใหม่อีกครั้ง');
  }
  const identity = await redeemLineCode(query, trip);
  const owner = await repo.memberIdForLineSubject(db, identity.subject);

  if (trip.purpose === 'link') {
    // The answer belongs to the member who asked, in the browser that asked.
    if (!signedIn || signedIn.memberId !== trip.memberId) {
      throw new AppError(401, 'line_link_session', 'กรุณาเข้าสู่ระบบบัญชีของร้านก่อน แล้วเชื่อมต่อ LINE จากหน้าข้อมูลของฉันอีกครั้ง');
    }
    if (owner === signedIn.memberId) return { kind: 'linked', next: '/user/account/profile?line=linked' };
    if (owner !== null) throw lineTaken();
    if (await repo.lineAccountOf(db, signedIn.memberId)) {
      throw conflict('line_already_linked', 'บัญชีของคุณเชื่อมกับ LINE อีกบัญชีหนึ่งอยู่แล้ว กรุณายกเลิกการเชื่อมต่อเดิมก่อน');
    }
    await db.transaction(async (tx) => {
      try {
        await repo.insertLineAccount(tx, { memberId: signedIn.memberId, subject: identity.subject, displayName: identity.displayName });
      } catch (error) {
        if (isUniqueViolation(error) !== null) throw lineTaken();
        throw error;
      }
      await recordAudit(tx, memberActor(signedIn, meta), {
        action: 'member.line_link',
        entityType: 'member',
        entityId: signedIn.memberId,
        after: { line: identity.displayName || 'LINE' },
      });
    });
    return { kind: 'linked', next: '/user/account/profile?line=linked' };
  }

  if (owner !== null) {
    const { token, twoFactorRequired } = await signInProvenMember(owner, meta);
    return { kind: 'signed_in', token, twoFactorRequired, next: trip.nextPath };
  }
  // Nobody has this LINE account yet: the sign-up form comes first, with what LINE said kept for it.
  const signUpToken = newToken();
  await repo.insertLineSignIn(db, {
    tokenHash: hashToken(signUpToken),
    purpose: 'signup',
    nextPath: trip.nextPath,
    subject: identity.subject,
    displayName: identity.displayName,
    email: identity.email,
    expiresAt: new Date(Date.now() + SIGN_UP_MS),
  });
  return { kind: 'sign_up', cookieToken: signUpToken, next: trip.nextPath };
}

export interface PendingLineSignUp {
  displayName: string;
  email: string;
  next: string;
}

/** The sign-up waiting in this browser, if any: what LINE said, to fill the form. */
export async function pendingLineSignUp(cookieToken: string | undefined): Promise<PendingLineSignUp | null> {
  if (!looksLikeToken(cookieToken)) return null;
  const row = await repo.findLineSignIn(await getDb(), hashToken(cookieToken), new Date());
  if (!row || row.purpose !== 'signup') return null;
  return { displayName: row.displayName, email: row.email, next: row.nextPath };
}

const emailTaken = () =>
  new AppError(409, 'email_taken', 'อีเมลนี้เป็นของสมาชิกอยู่แล้ว หากเป็นบัญชีของคุณ กรุณาเข้าสู่ระบบด้วยอีเมล แล้วเชื่อมต่อ LINE จากหน้าข้อมูลของฉัน', {
    email: 'อีเมลนี้ถูกใช้สมัครสมาชิกแล้ว',
  });
const phoneTaken = () =>
  new AppError(409, 'phone_taken', 'เบอร์โทรศัพท์นี้เป็นของสมาชิกอยู่แล้ว หากเป็นบัญชีของคุณ กรุณาเข้าสู่ระบบ แล้วเชื่อมต่อ LINE จากหน้าข้อมูลของฉัน', {
    phone: 'เบอร์โทรศัพท์นี้ถูกใช้สมัครสมาชิกแล้ว',
  });

/**
 * The sign-up form of a new LINE user: the member, their LINE link and their first session, in one go.
 * The member has no password until they set one through ลืมรหัสผ่าน.
 */
export async function completeLineSignUp(
  cookieToken: string | undefined,
  input: z.output<typeof lineSignUpSchema>,
  meta: RequestMeta,
): Promise<{ token: string; twoFactorRequired: boolean; next: string }> {
  if (!looksLikeToken(cookieToken)) throw tripGone();
  const db = await getDb();
  const tokenHash = hashToken(cookieToken);
  const pending = await repo.findLineSignIn(db, tokenHash, new Date());
  if (!pending || pending.purpose !== 'signup' || !pending.subject) throw tripGone();
  await consume(LIMITS.registerPerIp, meta.ip);
  // Checked before the trip is used up, so a taken e-mail or phone can be corrected on the same form.
  if (await findByEmail(db, input.email)) throw emailTaken();
  if (await findByPhone(db, input.phone)) throw phoneTaken();
  const memberId = await db.transaction(async (tx) => {
    const taken = await repo.takeLineSignIn(tx, tokenHash, ['signup'], new Date());
    if (!taken?.subject) throw tripGone();
    if (await repo.memberIdForLineSubject(tx, taken.subject)) throw lineTaken();
    let member;
    try {
      member = await insertMember(tx, {
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        phone: input.phone,
        passwordHash: repo.NO_PASSWORD_YET,
      });
      await repo.insertLineAccount(tx, { memberId: member.id, subject: taken.subject, displayName: taken.displayName });
    } catch (error) {
      const constraint = isUniqueViolation(error);
      if (constraint === null) throw error;
      if (constraint.includes('phone')) throw phoneTaken();
      if (constraint.includes('email')) throw emailTaken();
      throw lineTaken();
    }
    await recordAudit(tx, memberActor({ memberId: member.id, email: member.email }, meta), {
      action: 'member.line_sign_up',
      entityType: 'member',
      entityId: member.id,
      after: { line: taken.displayName || 'LINE' },
    });
    return member.id;
  });
  const { token, twoFactorRequired } = await signInProvenMember(memberId, meta);
  return { token, twoFactorRequired, next: pending.nextPath };
}

export interface LineLinkView {
  linked: boolean;
  displayName: string;
  linkedAt: Date | null;
  hasPassword: boolean;
}

export async function lineLinkOf(memberId: string): Promise<LineLinkView> {
  const db = await getDb();
  const account = await repo.lineAccountOf(db, memberId);
  if (account) return { linked: true, displayName: account.displayName, linkedAt: account.linkedAt, hasPassword: account.hasPassword };
  const member = await findById(db, memberId);
  return { linked: false, displayName: '', linkedAt: null, hasPassword: member ? repo.hasPassword(member.passwordHash) : false };
}

/**
 * Unlinks LINE from a member. A member who signed up with LINE and never set a password would be left
 * with no way in, so they set one first.
 */
export async function unlinkLine(member: { memberId: string; email: string }, meta: RequestMeta): Promise<void> {
  const db = await getDb();
  const account = await repo.lineAccountOf(db, member.memberId);
  if (!account) throw conflict('line_not_linked', 'บัญชีของคุณยังไม่ได้เชื่อมต่อกับ LINE');
  if (!account.hasPassword) {
    throw conflict('line_only_way_in', 'บัญชีนี้ยังไม่มีรหัสผ่าน กรุณาตั้งรหัสผ่านจาก “ลืมรหัสผ่าน” ก่อน แล้วจึงยกเลิกการเชื่อมต่อ LINE');
  }
  await db.transaction(async (tx) => {
    if (!(await repo.deleteLineAccount(tx, member.memberId))) return;
    await recordAudit(tx, memberActor(member, meta), {
      action: 'member.line_unlink',
      entityType: 'member',
      entityId: member.memberId,
      before: { line: account.displayName || 'LINE' },
    });
  });
}

function memberActor(member: { memberId: string; email: string }, meta: RequestMeta) {
  return { id: member.memberId, email: member.email, role: 'member', via: 'web' as const, ip: meta.ip };
}
