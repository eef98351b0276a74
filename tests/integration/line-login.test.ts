import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { auditLog, memberLineAccounts, members } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/auth/password';
import { insertLineAccount, memberIdForLineSubject, NO_PASSWORD_YET } from '../../src/server/auth/line-login.repo';
import { lineLinkOf, unlinkLine } from '../../src/server/auth/line-login.service';
import { resolveAwaitingSession, resolveSession } from '../../src/server/auth/session.service';
import { beginTwoFactorSetup, enableTwoFactor } from '../../src/server/auth/two-factor.service';
import { closeAccount, exportMemberData } from '../../src/server/members/account-data.service';
import { signInProvenMember } from '../../src/server/members/member.service';
import { createMember } from '../fixtures/orders';

/**
 * The rules under LINE Login (docs/decisions/211) on both databases; the whole trip through a real
 * OpenID Connect provider is tests/server/line-login.test.ts.
 */
const meta = { ip: '203.0.113.31', userAgent: 'vitest' };
let subjects = 0;
const newSubject = () => `U${process.pid.toString(16)}${Date.now().toString(16)}${(subjects += 1)}`;

describe('a LINE account belongs to one member, and a member has one LINE account', () => {
  it('a second member cannot take a linked LINE account, nor a member a second one', async () => {
    const db = await getDb();
    const [first, second] = [await createMember(), await createMember()];
    const subject = newSubject();
    await insertLineAccount(db, { memberId: first.id, subject, displayName: 'ชบา' });
    expect(await memberIdForLineSubject(db, subject)).toBe(first.id);
    await expect(insertLineAccount(db, { memberId: second.id, subject, displayName: 'ชบา' })).rejects.toThrow();
    await expect(insertLineAccount(db, { memberId: first.id, subject: newSubject(), displayName: 'อีกบัญชี' })).rejects.toThrow();
    expect(await lineLinkOf(first.id)).toMatchObject({ linked: true, displayName: 'ชบา' });
    expect(await lineLinkOf(second.id)).toMatchObject({ linked: false });
  });
});

describe('signing in through LINE is the existing login', () => {
  it('a back-office member with two-step sign-in on still owes the second step', async () => {
    const staffer = await createMember({ scopes: ['staff'] });
    const setup = await beginTwoFactorSetup(staffer);
    const now = Date.now();
    await enableTwoFactor({ id: staffer.id, email: staffer.email, role: 'staff', via: 'web' }, staffer.id, TOTP.generate({ secret: Secret.fromBase32(setup.secret), timestamp: now }), now);
    await insertLineAccount(await getDb(), { memberId: staffer.id, subject: newSubject(), displayName: 'ทีมงาน' });

    const signedIn = await signInProvenMember(staffer.id, meta);
    expect(signedIn.twoFactorRequired).toBe(true);
    expect(await resolveSession(signedIn.token)).toBeNull();
    expect((await resolveAwaitingSession(signedIn.token))?.member.id).toBe(staffer.id);
  });

  it('a shopper is signed in at once', async () => {
    const shopper = await createMember();
    const signedIn = await signInProvenMember(shopper.id, meta);
    expect(signedIn.twoFactorRequired).toBe(false);
    expect((await resolveSession(signedIn.token))?.member.id).toBe(shopper.id);
  });
});

describe('unlinking', () => {
  it('is refused while LINE is the member’s only way in, then allowed once they have a password, and audited', async () => {
    const db = await getDb();
    const member = await createMember();
    await db.update(members).set({ passwordHash: NO_PASSWORD_YET }).where(eq(members.id, member.id));
    await insertLineAccount(db, { memberId: member.id, subject: newSubject(), displayName: 'มะลิ' });
    expect(await lineLinkOf(member.id)).toMatchObject({ linked: true, hasPassword: false });
    await expect(unlinkLine({ memberId: member.id, email: member.email }, meta)).rejects.toMatchObject({ status: 409, code: 'line_only_way_in' });

    await db.update(members).set({ passwordHash: await hashPassword('ดอกไม้บานที่เชียงใหม่') }).where(eq(members.id, member.id));
    await unlinkLine({ memberId: member.id, email: member.email }, meta);
    expect(await lineLinkOf(member.id)).toMatchObject({ linked: false });
    const [row] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, member.id), eq(auditLog.action, 'member.line_unlink')));
    expect(row).toMatchObject({ actorId: member.id, actorRole: 'member', before: { line: 'มะลิ' } });
    await expect(unlinkLine({ memberId: member.id, email: member.email }, meta)).rejects.toMatchObject({ status: 409, code: 'line_not_linked' });
  });

  it('the member’s data download names the LINE account; closing the account removes the link, so the LINE account is free again', async () => {
    const db = await getDb();
    const member = await createMember();
    await db.update(members).set({ passwordHash: await hashPassword('ดอกไม้บานที่เชียงใหม่') }).where(eq(members.id, member.id));
    const subject = newSubject();
    await insertLineAccount(db, { memberId: member.id, subject, displayName: 'ปิดบัญชี' });
    expect((await exportMemberData(member.id)).lineAccount).toMatchObject({ displayName: 'ปิดบัญชี' });
    await closeAccount(member.id, 'ดอกไม้บานที่เชียงใหม่', meta);
    expect(await memberIdForLineSubject(db, subject)).toBeNull();
    expect(await db.select().from(memberLineAccounts).where(eq(memberLineAccounts.memberId, member.id))).toEqual([]);
  });
});
