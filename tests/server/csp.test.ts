/**
 * Security 7 of issue 32: the Content-Security-Policy allows no inline script but by its hash. Every page
 * the built server (needs `astro build`) sends, as a visitor, a member and staff, and its cached copy,
 * carries a script-src without 'unsafe-inline' that lists the hash of every inline script in its HTML;
 * other responses carry the same directives and no inline script at all (docs/decisions/198).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { demoShopForFile } from '../fixtures/server-process';

const PORT = 4850;
const STAFF_EMAIL = 'csp-staff@example.com';
const server = demoShopForFile(PORT, { SHOP_ADMIN_EMAILS: STAFF_EMAIL });

async function signUp(email: string, phone: string): Promise<string> {
  const response = await fetch(`${server.base}/api/member-insert`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.base },
    body: JSON.stringify({ firstName: 'ทดสอบ', lastName: 'นโยบาย', email, phone, password: 'Pa55word!xyzQ', confirmPassword: 'Pa55word!xyzQ', acceptTerms: true }),
  });
  expect(response.status).toBe(201);
  return response.headers.getSetCookie().find((line) => !line.includes('Max-Age=0'))!.split(';')[0]!;
}

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The bodies of the inline scripts a browser would run: no src, and no data block type. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/\bsrc=/.test(attributes!) && !/\btype="(?!module"|text\/javascript")/.test(attributes!))
    .map(([, , body]) => body!);
}

const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

async function checkPage(path: string, cookie?: string, status = 200): Promise<{ policy: string; scripts: number }> {
  const response = await fetch(`${server.base}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: 'manual' });
  expect(response.status, path).toBe(status);
  const policy = response.headers.get('content-security-policy') ?? '';
  const rules = directives(policy);
  const scriptSrc = rules.get('script-src') ?? [];
  expect(scriptSrc, path).toContain("'self'");
  expect(scriptSrc, path).not.toContain("'unsafe-inline'");
  expect(scriptSrc, path).not.toContain("'unsafe-eval'");
  for (const name of ['default-src', 'object-src', 'base-uri', 'frame-ancestors', 'form-action']) expect(rules.has(name), `${path} ${name}`).toBe(true);
  expect(rules.get('object-src')).toEqual(["'none'"]);
  const html = await response.text();
  const scripts = inlineScripts(html);
  for (const script of scripts) expect(scriptSrc, `${path}: an inline script without its hash: ${script.slice(0, 80)}`).toContain(hashOf(script));
  // No inline event handlers either: a hash does not cover onclick="…".
  expect(html.match(/<[^>]+\son[a-z]+=["']/g) ?? [], path).toEqual([]);
  return { policy, scripts: scripts.length };
}

describe('Content-Security-Policy', () => {
  it('every page lists the hash of each inline script it sends, and never allows inline script otherwise', async () => {
    const home = await (await fetch(`${server.base}/`)).text();
    const product = home.match(/href="(\/product\/P\d+)"/)?.[1];
    expect(product).toBeTruthy();
    const member = await signUp('csp-member@example.com', '0891240001');
    const staff = await signUp(STAFF_EMAIL, '0891240002');
    let inline = 0;
    for (const path of ['/', '/product', product!, '/search/%E0%B8%A5%E0%B8%B4%E0%B8%9B', '/promotions', '/gallery', '/contact', '/login', '/register', '/cart']) {
      inline += (await checkPage(path)).scripts;
    }
    for (const path of ['/user/account/profile', '/user/purchase', '/order']) inline += (await checkPage(path, member)).scripts;
    for (const path of ['/admin', '/admin/orders', '/admin/products', '/admin/products/new', '/admin/import', '/admin/promotions', '/admin/pages', '/admin/two-step']) {
      inline += (await checkPage(path, staff)).scripts;
    }
    // The error pages, the edge's refusal included, have the shop's layout and its islands.
    inline += (await checkPage('/no-such-page', undefined, 404)).scripts;
    inline += (await checkPage('/product/NO-SUCH-PRODUCT', undefined, 404)).scripts;
    // Islands are on these pages: their loader is an inline script, and it is covered.
    expect(inline).toBeGreaterThan(0);
  });

  it('a page served again from the finished-page cache carries the same policy as when it was rendered', async () => {
    const first = await checkPage('/promotions');
    const again = await fetch(`${server.base}/promotions`);
    expect(again.headers.get('x-astro-cache')).toBe('HIT');
    expect(again.headers.get('content-security-policy')).toBe(first.policy);
  });

  it('other responses carry the same directives and no inline script at all', async () => {
    const page = directives((await checkPage('/')).policy);
    for (const path of ['/api/category', '/healthz', '/robots.txt']) {
      const response = await fetch(`${server.base}${path}`);
      const rules = directives(response.headers.get('content-security-policy') ?? '');
      expect(rules.get('script-src'), path).toEqual(["'self'"]);
      for (const name of ['default-src', 'img-src', 'font-src', 'connect-src', 'object-src', 'base-uri', 'frame-ancestors', 'form-action']) {
        expect(rules.get(name), `${path} ${name}`).toEqual(page.get(name));
      }
    }
  });
});
