/**
 * A shopper's path with no break (issue 29), against the built server (needs `astro build`): sign-up
 * from checkout comes back to checkout, odd search words reach their results, error pages keep the
 * shop around them, order pages without a number and listings past their end say something true.
 * The same sign-up with JavaScript: tests/e2e/shopper-path.spec.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMemberInput } from '../fixtures/api-client';
import { startServer, stopServer, waitReady, type ServerProcess } from '../fixtures/server-process';

const PORT = 4537;
let server: ServerProcess;
let dataDir = '';

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'shop-path-'));
  server = startServer(PORT, { DATABASE_URL: 'memory://', DATA_DIR: dataDir, SEED_DEMO: 'true', MAIL_POLL_SECONDS: '0', ORDER_SWEEP_SECONDS: '0' });
  await waitReady(server);
}, 120_000);

afterAll(async () => {
  await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

/** The sign-up form as a browser without JavaScript sends it. */
function signUp(action: string, input: ReturnType<typeof newMemberInput>): Promise<Response> {
  const body = new URLSearchParams({ ...input, acceptTerms: 'true' });
  return fetch(`${server.base}${action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Origin: server.base, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
  });
}

describe('sign-up from checkout comes back to checkout', () => {
  it('the login page sends a newcomer to sign-up with next, and sign-up back to login with it', async () => {
    const login = await (await fetch(`${server.base}/login?next=/order`)).text();
    expect(login).toContain('href="/register?next=%2Forder"');
    const register = await (await fetch(`${server.base}/register?next=/order`)).text();
    expect(register).toContain('href="/login?next=%2Forder"');
    expect(register).toContain('action="/register?next=%2Forder"');
  });

  it('a sign-up without JavaScript lands on next', async () => {
    const response = await signUp('/register?next=%2Forder', newMemberInput());
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/order');
  });

  it.each(['//evil.example/order', 'https://evil.example/', '/%2F%2Fevil.example', '/\\evil.example', '/login'])(
    'next=%s ends at home',
    async (next) => {
      const register = await (await fetch(`${server.base}/register?next=${encodeURIComponent(next)}`)).text();
      expect(register).toContain('action="/register"');
      expect(register).not.toContain('evil.example');
      const response = await signUp(`/register?next=${encodeURIComponent(next)}`, newMemberInput());
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/');
    },
  );

  it('an email already signed up offers login and password reset, both keeping next', async () => {
    const first = newMemberInput();
    expect((await signUp('/register?next=%2Forder', first)).status).toBe(303);
    const again = await signUp('/register?next=%2Forder', newMemberInput({ email: first.email }));
    expect(again.status).toBe(409);
    const html = await again.text();
    expect(html).toContain('อีเมลนี้ถูกใช้สมัครสมาชิกแล้ว');
    expect(html).toMatch(/<a href="\/login\?next=%2Forder"[^>]*>เข้าสู่ระบบ<\/a>/);
    expect(html).toMatch(/<a href="\/resetpassword\?next=%2Forder"[^>]*>ลืมรหัสผ่าน<\/a>/);
    const reset = await (await fetch(`${server.base}/resetpassword?next=%2Forder`)).text();
    expect(reset).toContain('href="/login?next=%2Forder"');
  });
});
