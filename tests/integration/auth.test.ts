import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as login from '../../src/pages/api/auth/login';
import * as logout from '../../src/pages/api/auth/logout';
import * as me from '../../src/pages/api/auth/me';
import * as resetPassword from '../../src/pages/api/auth/reset-password';
import * as resetRequest from '../../src/pages/api/auth/reset-request';
import * as checkEmail from '../../src/pages/api/check-email';
import * as checkMember from '../../src/pages/api/check-member';
import * as checkPhone from '../../src/pages/api/check-phone';
import * as credentialsInPath from '../../src/pages/api/login/[...credentials]';
import * as memberInsert from '../../src/pages/api/member-insert';
import * as user from '../../src/pages/api/user/index';
import * as password from '../../src/pages/api/user/password';
import * as logoutPage from '../../src/pages/logout';
import { ARGON2_OPTIONS } from '../../src/server/auth/password';
import { getDb } from '../../src/server/db/client';
import { members, passwordResetTokens, sessions } from '../../src/server/db/schema';
import { env } from '../../src/server/env';
import { TestClient, newMemberInput } from '../fixtures/api-client';
import { latestMailTo, resetTokenFrom } from '../fixtures/outbox';

async function registered(overrides: Record<string, unknown> = {}, ip?: string) {
  const client = new TestClient(ip);
  const input = newMemberInput(overrides);
  const response = await client.call(memberInsert, 'POST', '/api/member-insert/', { body: input });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { client, input, token: response.body.token as string, id: (response.body.data as { user: { id: string } }).user.id };
}

async function waitForMail(to: string) {
  for (let i = 0; i < 50; i++) {
    const mail = latestMailTo(env().DATA_DIR, to);
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to}`);
}

describe('register', () => {
  it('creates the member, logs them in with a hashed opaque session and a safe cookie', async () => {
    const client = new TestClient();
    const input = newMemberInput({ email: 'Mixed.Case@Example.com', phone: '+66 81 111 2222' });
    const response = await client.call(memberInsert, 'POST', '/api/member-insert/', { body: input });
    expect(response.status).toBe(201);
    const token = response.body.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(response.body.data).toEqual({ user: expect.objectContaining({ email: 'mixed.case@example.com', phone: '0811112222', firstName: 'สมหญิง' }) });
    expect(JSON.stringify(response.body)).not.toContain('password');
    const cookie = response.cookies.get('shop_session');
    expect(cookie?.value).toBe(token);
    expect(cookie?.options).toMatchObject({ httpOnly: true, sameSite: 'lax', path: '/' });
    expect(response.headers.get('cache-control')).toContain('no-store');

    const db = await getDb();
    const stored = await db.select().from(sessions).where(eq(sessions.tokenHash, createHash('sha256').update(token).digest('hex')));
    expect(stored).toHaveLength(1);
    const raw = await db.select({ n: sql<number>`count(*)` }).from(sessions).where(eq(sessions.tokenHash, token));
    expect(Number(raw[0]?.n)).toBe(0);
    const [row] = await db.select({ hash: members.passwordHash }).from(members).where(eq(members.email, 'mixed.case@example.com'));
    expect(row?.hash).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}\\$`));

    const who = await client.call(me, 'GET', '/api/auth/me');
    expect(who.status).toBe(200);
    expect(who.body.data).toEqual({ user: expect.objectContaining({ email: 'mixed.case@example.com' }) });
  });

  it('refuses a taken email (any case) or phone (any spelling) with a Thai field message', async () => {
    const { input } = await registered();
    const client = new TestClient();
    const sameEmail = await client.call(memberInsert, 'POST', '/api/member-insert/', { body: newMemberInput({ email: input.email.toUpperCase() }) });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.code).toBe('email_taken');
    expect(sameEmail.body.fields?.email).toMatch(/อีเมล/);
    const phone = String(input.phone);
    const samePhone = await client.call(memberInsert, 'POST', '/api/member-insert/', {
      body: newMemberInput({ phone: `${phone.slice(0, 3)}-${phone.slice(3, 6)}-${phone.slice(6)}` }),
    });
    expect(samePhone.status).toBe(409);
    expect(samePhone.body.code).toBe('phone_taken');
  });

  it('applies the password rules: 8 to 128 characters, no common passwords, confirmation matches', async () => {
    const client = new TestClient();
    const attempt = (pw: string, confirm = pw) =>
      client.call(memberInsert, 'POST', '/api/member-insert/', { body: newMemberInput({ password: pw, confirmPassword: confirm }) });
    for (const weak of ['short', 'password', '12345678', 'Qwertyuiop', 'x'.repeat(129)]) {
      const response = await attempt(weak);
      expect(response.status, weak).toBe(400);
      expect(response.body.fields?.password, weak).toMatch(/รหัสผ่าน/);
    }
    expect((await attempt('a perfectly fine passphrase', 'another one')).body.fields?.confirmPassword).toMatch(/ไม่ตรงกัน/);
    expect((await attempt('ก'.repeat(128))).status).toBe(201);
    const missingTerms = await client.call(memberInsert, 'POST', '/api/member-insert/', { body: newMemberInput({ acceptTerms: false }) });
    expect(missingTerms.status).toBe(400);
    expect(missingTerms.body.fields?.acceptTerms).toBeTruthy();
  });

  it('answers availability and existence checks', async () => {
    const { input } = await registered();
    const client = new TestClient('198.51.100.99');
    expect((await client.call(checkEmail, 'POST', '/api/check-email/', { body: { email: input.email } })).body.data).toEqual({ available: false });
    expect((await client.call(checkEmail, 'POST', '/api/check-email/', { body: { email: 'nobody-here@example.com' } })).body.data).toEqual({ available: true });
    expect((await client.call(checkPhone, 'POST', '/api/check-phone/', { body: { phone: input.phone } })).body.data).toEqual({ available: false });
    expect((await client.call(checkPhone, 'POST', '/api/check-phone/', { body: { phone: '0899999990' } })).body.data).toEqual({ available: true });
    expect((await client.call(checkMember, 'POST', '/api/check-member/', { body: { login: input.email } })).body.data).toEqual({ exists: true });
    const bad = await client.call(checkPhone, 'POST', '/api/check-phone/', { body: { phone: '12' } });
    expect(bad.status).toBe(400);
  });

  it('rate limits availability checks per address with a Thai 429', async () => {
    const client = new TestClient('198.51.100.200');
    let last = 0;
    for (let i = 0; i < 61; i++) last = (await client.call(checkEmail, 'POST', '/api/check-email/', { body: { email: `probe${i}@example.com` } })).status;
    expect(last).toBe(429);
    const refused = await client.call(checkEmail, 'POST', '/api/check-email/', { body: { email: 'probe@example.com' } });
    expect(refused.body.message).toMatch(/บ่อยเกินไป/);
    expect(refused.body.code).toBe('rate_limited');
  });
});

describe('login and logout', () => {
  it('logs in by email or phone with a new token each time; wrong credentials get one generic answer', async () => {
    const { input, token: registrationToken } = await registered();
    const client = new TestClient();
    const started = performance.now();
    const byEmail = await client.call(login, 'POST', '/api/auth/login', { body: { login: input.email, password: input.password } });
    const elapsed = performance.now() - started;
    console.log(`one login (argon2id m=${ARGON2_OPTIONS.memoryCost} KiB, t=${ARGON2_OPTIONS.timeCost}, p=${ARGON2_OPTIONS.parallelism}): ${elapsed.toFixed(1)} ms`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(byEmail.body.token).not.toBe(registrationToken);
    expect(byEmail.body.data).toEqual({ user: expect.objectContaining({ email: input.email }) });
    const byPhone = await new TestClient().call(login, 'POST', '/api/auth/login', { body: { login: input.phone, password: input.password } });
    expect(byPhone.status).toBe(200);
    expect(byPhone.body.token).not.toBe(byEmail.body.token);

    const wrongPassword = await new TestClient().call(login, 'POST', '/api/auth/login', { body: { login: input.email, password: 'not the password' } });
    const unknownAccount = await new TestClient().call(login, 'POST', '/api/auth/login', { body: { login: 'ghost@example.com', password: 'not the password' } });
    expect(wrongPassword.status).toBe(401);
    expect(unknownAccount.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownAccount.body);
    expect(wrongPassword.body.message).toBe('อีเมล/เบอร์โทรศัพท์ หรือรหัสผ่านไม่ถูกต้อง');
  });

  it('serves Bearer clients with the same token and ends the session on the server at logout', async () => {
    const { input } = await registered();
    const browser = new TestClient();
    const response = await browser.call(login, 'POST', '/api/auth/login', { body: { login: input.email, password: input.password } });
    const app = new TestClient();
    app.bearer = response.body.token as string;
    expect((await app.call(user, 'GET', '/api/user')).status).toBe(200);
    const out = await browser.call(logout, 'POST', '/api/auth/logout');
    expect(out.status).toBe(200);
    expect(out.cookies.get('shop_session')?.deleted).toBe(true);
    expect((await app.call(user, 'GET', '/api/user')).status).toBe(401);
    expect((await app.call(me, 'GET', '/api/auth/me')).status).toBe(401);
  });

  it('logs out through the account menu form and lands on /login', async () => {
    const { client, token } = await registered();
    const response = await client.call(logoutPage, 'POST', '/logout', { rawBody: '', contentType: 'application/x-www-form-urlencoded' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/login');
    const app = new TestClient();
    app.bearer = token;
    expect((await app.call(me, 'GET', '/api/auth/me')).status).toBe(401);
  });

  it('does not accept an expired session', async () => {
    const { client, token } = await registered();
    const db = await getDb();
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, createHash('sha256').update(token).digest('hex')));
    expect((await client.call(me, 'GET', '/api/auth/me')).status).toBe(401);
  });

  it('refuses credentials in the URL path with 400', async () => {
    const response = await new TestClient().call(credentialsInPath, 'POST', '/api/login/a@example.com,secret', { params: { credentials: 'a@example.com,secret' } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('credentials_in_path');
    expect(JSON.stringify(response.body)).not.toContain('secret');
  });
});

describe('password change and reset', () => {
  it('changes the password after checking the current one and ends the other sessions', async () => {
    const { client, input } = await registered();
    const other = new TestClient();
    await other.call(login, 'POST', '/api/auth/login', { body: { login: input.email, password: input.password } });
    const wrong = await client.call(password, 'POST', '/api/user/password', {
      body: { currentPassword: 'not it at all', newPassword: 'ภูเขาทะเลและสายลม', confirmPassword: 'ภูเขาทะเลและสายลม' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields?.currentPassword).toBeTruthy();
    const changed = await client.call(password, 'POST', '/api/user/password', {
      body: { currentPassword: input.password, newPassword: 'ภูเขาทะเลและสายลม', confirmPassword: 'ภูเขาทะเลและสายลม' },
    });
    expect(changed.status).toBe(200);
    expect((await client.call(me, 'GET', '/api/auth/me')).status).toBe(200);
    expect((await other.call(me, 'GET', '/api/auth/me')).status).toBe(401);
    expect((await new TestClient().call(login, 'POST', '/api/auth/login', { body: { login: input.email, password: input.password } })).status).toBe(401);
    expect((await new TestClient().call(login, 'POST', '/api/auth/login', { body: { login: input.email, password: 'ภูเขาทะเลและสายลม' } })).status).toBe(200);
  });

  it('resets by mail with a single-use token; every session ends; same answer for unknown emails', async () => {
    const { client, input } = await registered();
    const anonymous = new TestClient('198.51.100.50');
    const known = await anonymous.call(resetRequest, 'POST', '/api/auth/reset-request', { body: { email: input.email } });
    const unknown = await anonymous.call(resetRequest, 'POST', '/api/auth/reset-request', { body: { email: 'no-such-member@example.com' } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const mail = await waitForMail(input.email);
    const token = resetTokenFrom(mail.text);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(latestMailTo(env().DATA_DIR, 'no-such-member@example.com')).toBeNull();

    const [stored] = await (await getDb()).select().from(passwordResetTokens).where(eq(passwordResetTokens.tokenHash, createHash('sha256').update(token!).digest('hex')));
    const ttl = stored!.expiresAt.getTime() - stored!.createdAt.getTime();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000 + 5_000);

    const body = { token, password: 'ลมหนาวมาแล้วที่ดอยสุเทพ', confirmPassword: 'ลมหนาวมาแล้วที่ดอยสุเทพ' };
    const first = await anonymous.call(resetPassword, 'POST', '/api/auth/reset-password', { body });
    expect(first.status).toBe(200);
    const second = await anonymous.call(resetPassword, 'POST', '/api/auth/reset-password', { body: { ...body, password: 'อีกรหัสหนึ่งที่ยาวพอ', confirmPassword: 'อีกรหัสหนึ่งที่ยาวพอ' } });
    expect(second.status).toBe(400);
    expect(second.body.code).toBe('reset_token_invalid');
    expect((await client.call(me, 'GET', '/api/auth/me')).status).toBe(401);
    expect((await new TestClient().call(login, 'POST', '/api/auth/login', { body: { login: input.email, password: input.password } })).status).toBe(401);
    expect((await new TestClient().call(login, 'POST', '/api/auth/login', { body: { login: input.email, password: body.password } })).status).toBe(200);
  });

  it('refuses an expired reset token', async () => {
    const { input } = await registered();
    const anonymous = new TestClient('198.51.100.51');
    await anonymous.call(resetRequest, 'POST', '/api/auth/reset-request', { body: { email: input.email } });
    const token = resetTokenFrom((await waitForMail(input.email)).text)!;
    await (await getDb()).update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResetTokens.tokenHash, createHash('sha256').update(token).digest('hex')));
    const response = await anonymous.call(resetPassword, 'POST', '/api/auth/reset-password', { body: { token, password: 'หมดเวลาแล้วจริงๆนะ', confirmPassword: 'หมดเวลาแล้วจริงๆนะ' } });
    expect(response.status).toBe(400);
  });
});
