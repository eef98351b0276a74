/**
 * A shopper's path with no break (issue 29), against the built server (needs `astro build`): sign-up
 * from checkout comes back to checkout, odd search words reach their results, error pages keep the
 * shop around them, order pages without a number and listings past their end say something true.
 * The same sign-up with JavaScript: tests/e2e/shopper-path.spec.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { newMemberInput } from '../fixtures/api-client';
import { demoShopForFile } from '../fixtures/server-process';

const PORT = 4537;
const server = demoShopForFile(PORT);

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
    // No LINE Login channel configured here: no LINE button (tests/server/line-login.test.ts has one).
    expect(login).not.toContain('/auth/line/login');
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

/** What every error page of the shop carries: its layout and web font, the search box, a way home. */
function expectShopErrorPage(html: string) {
  expect(html).toContain('lang="th"');
  expect(html).toMatch(/<link rel="stylesheet" href="\/_astro\/[^"]+\.css"/);
  expect(html).toMatch(/<form[^>]+role="search"[^>]+action="\/search"/);
  expect(html).toMatch(/<a href="\/"[^>]*>กลับหน้าแรก<\/a>/);
  expect(html).not.toMatch(/not found|An error occurred/i);
}

describe('every word the search box takes reaches its results', () => {
  const words = ['ลด 50%', '100% cotton', '%', '50%41', 'C# & C++ / "ทดสอบ" ?', 'มี #แฮชแท็ก', 'ของขวัญ 🎁', 'ก'.repeat(100)];

  it.each(words)('%s', async (word) => {
    const fromForm = await fetch(`${server.base}/search?q=${encodeURIComponent(word)}`, { redirect: 'manual' });
    expect(fromForm.status).toBe(303);
    const location = fromForm.headers.get('location')!;
    expect(location).toBe(`/search/${encodeURIComponent(word)}`);
    const results = await fetch(`${server.base}${location}`);
    expect(results.status).toBe(200);
    const html = await results.text();
    const shown = word.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    expect(html).toContain(`ผลการค้นหา “${shown}”`);
  });

  it('a keyword longer than a search allows is cut as the search box cuts it', async () => {
    const fromForm = await fetch(`${server.base}/search?q=${encodeURIComponent('ข'.repeat(200))}`, { redirect: 'manual' });
    expect(fromForm.headers.get('location')).toBe(`/search/${encodeURIComponent('ข'.repeat(100))}`);
    const direct = await fetch(`${server.base}/search/${encodeURIComponent('ข'.repeat(200))}`);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toContain(`ผลการค้นหา “${'ข'.repeat(100)}”`);
  });

  it.each(['/search/a%2500', '/search/%2501x', '/search/50%25%00'])('%s is still refused: no control character hides behind a second decode', async (url) => {
    const response = await fetch(`${server.base}${url}`);
    expect(response.status).toBe(400);
    expectShopErrorPage(await response.text());
  });
});

describe('error pages keep the shop around them', () => {
  it('an unknown page: 404 in Thai', async () => {
    const response = await fetch(`${server.base}/no-such-page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expectShopErrorPage(html);
    expect(html).toContain('ไม่พบหน้าที่คุณต้องการ');
  });

  it('the control-character refusal', async () => {
    const response = await fetch(`${server.base}/product/%01`);
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toContain('no-store');
    const html = await response.text();
    expectShopErrorPage(html);
    expect(html).toContain('อักขระที่ระบบไม่รองรับ');
  });

  it('a cross-site form post', async () => {
    const response = await fetch(`${server.base}/login`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'login=a%40b.c&password=x',
    });
    expect(response.status).toBe(403);
    expectShopErrorPage(await response.text());
  });

  it('a refused request under /api keeps its JSON envelope', async () => {
    const response = await fetch(`${server.base}/api/product/%01`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_characters' });
  });
});

describe('order pages without a usable number', () => {
  let cookie = '';
  beforeAll(async () => {
    const response = await signUp('/register', newMemberInput());
    expect(response.status).toBe(303);
    cookie = response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  });
  const asMember = (url: string) => fetch(`${server.base}${url}`, { redirect: 'manual', headers: { Cookie: cookie } });

  it.each(['/order/payment', '/order/success', '/order/cancel', '/order/delivery', '/order/delivery?no='])('%s sends a member to My Purchase', async (url) => {
    const response = await asMember(url);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/user/purchase');
  });

  it.each(['/order/delivery?no=OR-NOPE-0001', '/order/payment?no=%3Cb%3E', '/order/success?no=ORD000000000'])(
    '%s: the Thai not-found page with a way to My Purchase',
    async (url) => {
      const response = await asMember(url);
      expect(response.status).toBe(404);
      const html = await response.text();
      expectShopErrorPage(html);
      expect(html).toContain('ไม่พบคำสั่งซื้อ');
      expect(html).toMatch(/<a href="\/user\/purchase"[^>]*>การสั่งซื้อของฉัน<\/a>/);
      expect(html).not.toContain('&lt;b&gt;');
    },
  );
});

describe('a listing past its last page', () => {
  async function firstMatch(url: string, pattern: RegExp): Promise<string> {
    const match = pattern.exec(await (await fetch(`${server.base}${url}`)).text());
    expect(match, `${pattern} on ${url}`).not.toBeNull();
    return match![1]!;
  }

  /** The numbers of "พบสินค้า N รายการ (แสดง a–b)", checked to be possible. */
  function expectPossibleRange(html: string) {
    const count = /พบสินค้า\s*(?:มากกว่า )?([\d,]+) รายการ(?: \(แสดง ([\d,]+)–([\d,]+)\))?/.exec(html);
    expect(count).not.toBeNull();
    const [total, from, to] = count!.slice(1).map((text) => (text === undefined ? undefined : Number(text.replace(/,/g, ''))));
    if (from !== undefined) {
      expect(from).toBeLessThanOrEqual(to!);
      expect(to).toBeLessThanOrEqual(total!);
    }
  }

  async function expectPastTheEnd(url: string) {
    const response = await fetch(`${server.base}${url}`);
    expect(response.status, url).toBe(404);
    const html = await response.text();
    const promotion = url.startsWith('/promotions/');
    if (!promotion) expectPossibleRange(html);
    expect(html).not.toContain('(แสดง');
    const last = /<a[^>]+href="([^"]+)"[^>]*>ไปหน้าสุดท้าย \(หน้า ([\d,]+)\)<\/a>/.exec(html);
    expect(last, `a link to the last page on ${url}`).not.toBeNull();
    const lastPage = await fetch(`${server.base}${last![1]!.replace(/&amp;/g, '&')}`);
    expect(lastPage.status).toBe(200);
    const lastHtml = await lastPage.text();
    expect(lastHtml).not.toContain('ไปหน้าสุดท้าย');
    if (!promotion) expectPossibleRange(lastHtml);
  }

  it('all products', () => expectPastTheEnd('/product?page=999'));

  it('a category, by its address and by the paged address', async () => {
    const category = await firstMatch('/product', /href="\/product\/category\/([^"/?]+)"/);
    await expectPastTheEnd(`/product/category/${category}?page=999`);
    await expectPastTheEnd(`/product/category/page/999?category=${category}`);
  });

  it('a brand', async () => {
    const brand = await firstMatch('/product', /name="brand" value="([^"]+)"/);
    await expectPastTheEnd(`/product?brand=${brand}&page=999`);
  });

  it('a search, by its address and by the paged address', async () => {
    await expectPastTheEnd(`/search/${encodeURIComponent('ตุ๊กตา')}?page=999`);
    await expectPastTheEnd(`/search/page/999?q=${encodeURIComponent('ตุ๊กตา')}`);
  });

  it('a promotion', async () => {
    const promotion = await firstMatch('/promotions', /href="\/promotions\/([^"/?]+)"/);
    await expectPastTheEnd(`/promotions/${promotion}?page=999`);
  });

  it('the last page itself is a page like any other', async () => {
    const response = await fetch(`${server.base}/product?page=15`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('(แสดง 337–360)');
  });
});
