/**
 * เข้าสู่ระบบด้วย LINE end to end against the built server (needs `astro build`) and a real OpenID Connect
 * provider (`oidc-provider`, tests/fixtures/line-provider.ts) standing where LINE would, driven with plain
 * HTTP as a browser would: redirects followed by hand, one cookie jar per browser (docs/decisions/211).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMemberInput } from '../fixtures/api-client';
import { startLineProvider, type LineProvider } from '../fixtures/line-provider';
import { demoShopForFile } from '../fixtures/server-process';

const SHOP_PORT = 4900;
const PROVIDER_PORT = 4901;
const CHANNEL = { id: '1650000000', secret: 'line-channel-secret-for-tests-0123456789abcdef' };
const server = demoShopForFile(SHOP_PORT, {
  LINE_CHANNEL_ID: CHANNEL.id,
  LINE_CHANNEL_SECRET: CHANNEL.secret,
  LINE_ISSUER_URL: `http://127.0.0.1:${PROVIDER_PORT}`,
});
const shopOrigin = server.base;
let line: LineProvider;

beforeAll(async () => {
  line = await startLineProvider(PROVIDER_PORT, { ...CHANNEL, redirectUri: `${shopOrigin}/auth/line/callback` });
});
afterAll(async () => {
  await line?.close();
});

/** One browser: cookies per host and port, redirects followed by hand. */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  async get(url: string): Promise<Response> {
    return this.send(url, { method: 'GET' });
  }

  async postForm(url: string, fields: Record<string, string>): Promise<Response> {
    return this.send(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: shopOrigin },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Follows redirects from `url` until `stop` says so (by default: until back at the shop's callback) or a non-redirect answer. */
  async follow(url: string, stop: (next: URL) => boolean = (next) => next.pathname === '/auth/line/callback'): Promise<{ response: Response; url: URL }> {
    let current = new URL(url, shopOrigin);
    for (let hop = 0; hop < 12; hop += 1) {
      const response = await this.get(current.href);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
      await response.body?.cancel();
      current = new URL(location, current);
      if (stop(current)) return { response, url: current };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  hasCookie(name: string): boolean {
    return this.jar.get(new URL(shopOrigin).host)?.has(name) ?? false;
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const target = new URL(url, shopOrigin);
    const cookies = this.jar.get(target.host);
    const headers = new Headers(init.headers);
    if (cookies && cookies.size > 0) headers.set('Cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const gone = value === '' || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute) || /^\s*expires=thu, 01 jan 1970/i.test(attribute));
      const kept = this.jar.get(target.host) ?? new Map<string, string>();
      if (gone) kept.delete(name);
      else kept.set(name, value);
      this.jar.set(target.host, kept);
    }
    return response;
  }
}

/** The shop's start of a LINE trip up to LINE's answer at the callback (not yet opened). */
async function toLineAndBack(browser: Browser, start: string): Promise<URL> {
  const { url, response } = await browser.follow(start);
  if (url.pathname !== '/auth/line/callback') throw new Error(`ended at ${url.href} (${response.status}): ${(await response.text()).slice(0, 2000)}`);
  return url;
}

async function me(browser: Browser): Promise<{ email: string; firstName: string } | null> {
  const response = await browser.get('/api/auth/me');
  if (response.status !== 200) return null;
  const body = (await response.json()) as { data: { user: { email: string; firstName: string } } };
  return body.data.user;
}

async function signUpWithPassword(browser: Browser): Promise<ReturnType<typeof newMemberInput>> {
  const input = newMemberInput();
  const response = await browser.postForm('/register', { ...input, acceptTerms: 'true' });
  expect(response.status).toBe(303);
  return input;
}

let userCounter = 0;
function newLineUser(overrides: { name?: string; email?: string } = {}) {
  userCounter += 1;
  return { sub: `U${Date.now().toString(16)}${userCounter.toString().padStart(4, '0')}`, name: overrides.name ?? 'มะลิ ใจดี', email: overrides.email };
}

const pagesToValidate: { path: string; html: string }[] = [];

describe('a new LINE user', () => {
  const user = newLineUser({ email: 'mali.line@example.com' });
  const browser = new Browser();
  let callback: URL;

  it('the login page offers เข้าสู่ระบบด้วย LINE, which goes to LINE with state, nonce and PKCE', async () => {
    const login = await (await browser.get('/login?next=%2Fcart')).text();
    expect(login).toContain('href="/auth/line/login?next=%2Fcart"');
    expect(login).toContain('เข้าสู่ระบบด้วย LINE');
    pagesToValidate.push({ path: '/login', html: login });

    const start = await browser.get('/auth/line/login?next=%2Fcart');
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin).toBe(line.issuer);
    expect(authorize.searchParams.get('client_id')).toBe(CHANNEL.id);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${shopOrigin}/auth/line/callback`);
    expect(authorize.searchParams.get('scope')).toBe('openid profile email');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['state', 'nonce', 'code_challenge']) expect(authorize.searchParams.get(name)?.length ?? 0).toBeGreaterThanOrEqual(43);
    expect(browser.hasCookie('shop_line')).toBe(true);

    line.nextUser(user);
    const { url } = await browser.follow(authorize.href);
    callback = url;
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
  });

  it('comes back to the sign-up form, filled with what LINE said; no member exists yet', async () => {
    const back = await browser.get(callback.href);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/auth/line/signup?next=%2Fcart');
    expect(await me(browser)).toBeNull();
    const form = await browser.get('/auth/line/signup?next=%2Fcart');
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('สมัครสมาชิกด้วย LINE');
    expect(html).toContain('value="มะลิ"');
    expect(html).toContain('value="ใจดี"');
    expect(html).toContain('value="mali.line@example.com"');
    pagesToValidate.push({ path: '/auth/line/signup', html });
  });

  it('the same answer from LINE again (a replayed code) is refused in Thai with 400', async () => {
    const again = await browser.get(callback.href);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('หมดเวลาหรือถูกใช้ไปแล้ว');
  });

  it('asks for the terms and a phone before a member exists', async () => {
    const { phone } = newMemberInput();
    const refused = await browser.postForm('/auth/line/signup?next=%2Fcart', { firstName: 'มะลิ', lastName: 'ใจดี', email: 'mali.line@example.com', phone });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain('กรุณายอมรับข้อตกลงและเงื่อนไข');
    pagesToValidate.push({ path: '/auth/line/signup (errors)', html });
    expect(await me(browser)).toBeNull();

    const done = await browser.postForm('/auth/line/signup?next=%2Fcart', { firstName: 'มะลิ', lastName: 'ใจดี', email: 'mali.line@example.com', phone, acceptTerms: 'true' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/cart');
    expect(await me(browser)).toMatchObject({ email: 'mali.line@example.com', firstName: 'มะลิ' });
    expect(browser.hasCookie('shop_line')).toBe(false);
  });

  it('next time, LINE alone signs them in (in another browser), and the profile says LINE is linked with no password yet', async () => {
    const other = new Browser();
    line.nextUser(user);
    const back = await other.get((await toLineAndBack(other, '/auth/line/login?next=%2Fuser%2Fpurchase')).href);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/user/purchase');
    expect(await me(other)).toMatchObject({ email: 'mali.line@example.com' });
    const profile = await (await other.get('/user/account/profile')).text();
    expect(profile).toContain('มะลิ ใจดี');
    expect(profile).toContain('ยังไม่มีรหัสผ่าน');
    expect(profile).not.toContain('action="/auth/line/unlink"');
    // A password sign-in with anything does not open the LINE-only account.
    const password = await fetch(`${shopOrigin}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: shopOrigin },
      body: JSON.stringify({ login: 'mali.line@example.com', password: '!line' }),
    });
    expect(password.status).toBe(401);
  });
});

describe('an existing member links LINE from their profile', () => {
  const browser = new Browser();
  const user = newLineUser({ name: 'ชบา' });
  let member: ReturnType<typeof newMemberInput>;

  it('a LINE account with the member’s e-mail is not signed in as them: it goes to sign-up, and that e-mail is refused there', async () => {
    member = await signUpWithPassword(browser);
    const stranger = new Browser();
    line.nextUser(newLineUser({ email: member.email }));
    const back = await stranger.get((await toLineAndBack(stranger, '/auth/line/login')).href);
    expect(back.headers.get('location')).toBe('/auth/line/signup');
    expect(await me(stranger)).toBeNull();
    const refused = await stranger.postForm('/auth/line/signup', { firstName: 'คนอื่น', lastName: 'ไลน์', email: member.email, phone: newMemberInput().phone, acceptTerms: 'true' });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('เชื่อมต่อ LINE จากหน้าข้อมูลของฉัน');
    expect(await me(stranger)).toBeNull();
  });

  it('links from the profile and comes back to it, linked', async () => {
    const before = await (await browser.get('/user/account/profile')).text();
    expect(before).toContain('href="/auth/line/link"');
    line.nextUser(user);
    const back = await browser.get((await toLineAndBack(browser, '/auth/line/link')).href);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/user/account/profile?line=linked');
    const profile = await (await browser.get('/user/account/profile?line=linked')).text();
    expect(profile).toContain('เชื่อมต่อ LINE กับบัญชีนี้แล้ว');
    expect(profile).toContain('data-testid="line-name">ชบา<');
    expect(profile).toContain('action="/auth/line/unlink"');
    pagesToValidate.push({ path: '/user/account/profile (LINE linked)', html: profile });
  });

  it('then LINE signs that member in, in another browser', async () => {
    const other = new Browser();
    line.nextUser(user);
    const back = await other.get((await toLineAndBack(other, '/auth/line/login')).href);
    expect(back.headers.get('location')).toBe('/');
    expect(await me(other)).toMatchObject({ email: member.email });
  });

  it('the same LINE account cannot be linked to a second member', async () => {
    const second = new Browser();
    await signUpWithPassword(second);
    line.nextUser(user);
    const back = await second.get((await toLineAndBack(second, '/auth/line/link')).href);
    expect(back.status).toBe(409);
    expect(await back.text()).toContain('เชื่อมกับสมาชิกอีกคนหนึ่งอยู่แล้ว');
  });

  it('unlinks it; LINE then leads to sign-up again, not to the member', async () => {
    const unlinked = await browser.postForm('/auth/line/unlink', {});
    expect(unlinked.status).toBe(303);
    expect(unlinked.headers.get('location')).toBe('/user/account/profile?line=unlinked');
    expect(await (await browser.get('/user/account/profile?line=unlinked')).text()).toContain('ยกเลิกการเชื่อมต่อ LINE แล้ว');
    const other = new Browser();
    line.nextUser(user);
    const back = await other.get((await toLineAndBack(other, '/auth/line/login')).href);
    expect(back.headers.get('location')).toBe('/auth/line/signup');
    expect(await me(other)).toBeNull();
  });

  it('an unlink from another site is refused at the edge', async () => {
    const response = await fetch(`${shopOrigin}/auth/line/unlink`, { method: 'POST', headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(response.status).toBe(403);
  });
});

describe('what goes wrong says so in Thai with a 4xx', () => {
  it('a refused consent at LINE', async () => {
    const browser = new Browser();
    line.nextUser('refuse');
    const callback = await toLineAndBack(browser, '/auth/line/login');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const back = await browser.get(callback.href);
    expect(back.status).toBe(400);
    const html = await back.text();
    expect(html).toContain('คุณไม่ได้อนุญาตให้ร้านใช้บัญชี LINE');
    pagesToValidate.push({ path: '/auth/line/callback (refused)', html });
    expect(await me(browser)).toBeNull();
  });

  it('a state that is not the one sent', async () => {
    const browser = new Browser();
    line.nextUser(newLineUser());
    const callback = await toLineAndBack(browser, '/auth/line/login');
    callback.searchParams.set('state', 'x'.repeat(43));
    const back = await browser.get(callback.href);
    expect(back.status).toBe(400);
    expect(await back.text()).toContain('ไม่ตรงกับที่ร้านส่งไป');
    expect(await me(browser)).toBeNull();
  });

  it('an answer from LINE in a browser that never went there (no trip cookie)', async () => {
    const browser = new Browser();
    line.nextUser(newLineUser());
    const callback = await toLineAndBack(browser, '/auth/line/login');
    const stranger = new Browser();
    const back = await stranger.get(callback.href);
    expect(back.status).toBe(400);
    expect(await back.text()).toContain('หมดเวลาหรือถูกใช้ไปแล้ว');
  });

  it('a code already redeemed, replayed with a fresh trip’s state: LINE refuses it, the shop says so', async () => {
    const browser = new Browser();
    const user = newLineUser();
    line.nextUser(user);
    const first = await toLineAndBack(browser, '/auth/line/login');
    expect((await browser.get(first.href)).status).toBe(303);
    // A new trip in the same browser: LINE remembers the consent and answers at once with a new code.
    const second = await toLineAndBack(browser, '/auth/line/login');
    const replay = new URL(second);
    replay.searchParams.set('code', first.searchParams.get('code')!);
    const back = await browser.get(replay.href);
    expect(back.status).toBe(400);
    expect(await back.text()).toContain('LINE ไม่รับรหัสยืนยันนี้');
  });

  it('the sign-up form with no LINE answer behind it', async () => {
    const browser = new Browser();
    const form = await browser.get('/auth/line/signup');
    expect(form.status).toBe(302);
    expect(form.headers.get('location')).toBe('/login');
    const post = await browser.postForm('/auth/line/signup', { firstName: 'ก', lastName: 'ข', email: 'nobody@example.com', phone: '0812345670', acceptTerms: 'true' });
    expect(post.status).toBe(400);
    expect(await post.text()).toContain('หมดเวลาหรือถูกใช้ไปแล้ว');
  });
});

describe('LINE on product pages and in the contact menu', () => {
  it('แชร์ผ่าน LINE shares the product’s address; the floating menu adds the shop’s Official Account', async () => {
    const home = await (await fetch(`${shopOrigin}/`)).text();
    const product = home.match(/href="(\/product\/P\d+)"/)?.[1];
    expect(product).toBeTruthy();
    const html = await (await fetch(`${shopOrigin}${product}`)).text();
    // The canonical address the page gives itself (PUBLIC_SITE_URL at build time) is the one shared.
    const canonical = html.match(/<link rel="canonical" href="([^"]+)"/)?.[1];
    expect(canonical).toMatch(new RegExp(`${product}$`));
    const share = `https://social-plus.line.me/lineit/share?url=${encodeURIComponent(canonical!)}`;
    expect(html).toContain(`href="${share.replace(/&/g, '&amp;')}"`);
    expect(html).toContain('แชร์ผ่าน LINE');
    expect(html).toContain('href="https://line.me/R/ti/p/%40yimlamai"');
  });
});

describe('W3C Nu checker', () => {
  const vnuJar = path.join(path.dirname(createRequire(import.meta.url).resolve('vnu-jar')), 'build/dist/vnu.jar');

  it('finds no error on the LINE pages: login with the button, sign-up (and its errors), the linked profile, a refusal', async () => {
    expect(pagesToValidate.length).toBeGreaterThanOrEqual(5);
    const folder = mkdtempSync(path.join(tmpdir(), 'shop-line-pages-'));
    try {
      pagesToValidate.forEach((page, index) => writeFileSync(path.join(folder, `${index}.html`), page.html));
      const run = await promisify(execFile)('java', ['-jar', vnuJar, '--errors-only', '--format', 'json', folder], { maxBuffer: 16 * 1024 * 1024 }).catch(
        (error: { stderr?: string; code?: number }) => {
          if (error.code !== 1 || !error.stderr) throw error;
          return { stderr: error.stderr };
        },
      );
      const report = JSON.parse(run.stderr) as { messages: { url: string; message: string; extract?: string }[] };
      const errors = report.messages.map((message) => `${pagesToValidate[Number(path.basename(message.url, '.html'))]?.path}: ${message.message} ${message.extract ?? ''}`);
      expect(errors).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
