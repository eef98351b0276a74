/**
 * The edge of the built server (needs `astro build`): refusals answer in the shop's envelope, not
 * Astro's English text, and a bounded fuzz of the pages (fast-check) never gets a 5xx or a hang.
 * The API families are fuzzed in process on both databases: tests/integration/fuzz.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { fuzzPages } from '../fixtures/page-fuzz';
import { demoShopForFile } from '../fixtures/server-process';

const PORT = 4534;
const PAGE_CASES = Number(process.env.FUZZ_PAGE_CASES ?? 1000);
const THAI = /[\u0E00-\u0E7F]/;
const server = demoShopForFile(PORT);

describe('refusals at the edge', () => {
  it('a cross-site form post gets the Thai envelope under /api and the shop’s error page elsewhere', async () => {
    const api = await fetch(`${server.base}/api/auth/login`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'login=a%40b.c&password=x',
    });
    expect(api.status).toBe(403);
    expect(api.headers.get('content-type')).toContain('application/json');
    const body = (await api.json()) as { message: string; code: string };
    expect(body.code).toBe('cross_origin');
    expect(body.message).toMatch(THAI);

    const page = await fetch(`${server.base}/login`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'login=a%40b.c&password=x',
    });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('lang="th"');
    expect(html).toMatch(/กลับหน้าแรก/);
    expect(html).not.toContain('Cross-site');

    // A form post without any Origin is refused too, as Astro's own check did.
    const bare = await fetch(`${server.base}/logout`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(bare.status).toBe(403);
  });

  it.each(['/api/product/%00', '/api/product-include-bycode/%00', '/api/product-include-name/%00', '/api/category-name/%00', '/api/product-sub-img/%00', '/api/search-suggest?q=%00'])(
    '%s → Thai 400 envelope',
    async (url) => {
      const response = await fetch(`${server.base}${url}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid_characters', message: expect.stringMatching(THAI) });
    },
  );

  it.each(['/search/%00', '/product/%00', '/search/a%FFb', '/product/category/%1B'])('%s → the Thai error page with 400', async (url) => {
    const response = await fetch(`${server.base}${url}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toMatch(/อักขระที่ระบบไม่รองรับ/);
  });

  it('JSON and form bodies with NUL are refused before the route runs', async () => {
    const json = await fetch(`${server.base}/api/member-insert`, {
      method: 'POST',
      headers: { Origin: server.base, 'Content-Type': 'application/json' },
      body: JSON.stringify({ firstName: 'สม\u0000ชาย' }),
    });
    expect(json.status).toBe(400);
    const form = await fetch(`${server.base}/login`, {
      method: 'POST',
      headers: { Origin: server.base, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'login=a%00b&password=x',
    });
    expect(form.status).toBe(400);
  });
});

describe('fuzz: pages never answer 5xx', () => {
  it(`${PAGE_CASES} page requests`, async () => {
    const result = await fuzzPages(server.base, PAGE_CASES);
    console.log(`page fuzz (PGlite): ${result.requests} requests, ${result.failures.length} answers of 5xx; statuses ${JSON.stringify(result.statuses)}`);
    expect(result.failures).toEqual([]);
  }, 300_000);
});
