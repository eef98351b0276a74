/**
 * The pages of the built server (needs `astro build`) validate with the W3C Nu checker (npm vnu-jar, run
 * with the machine's Java) with no errors: the shop's public pages, a member's account pages and the back
 * office as staff, as a browser receives them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { demoShopForFile } from '../fixtures/server-process';
import { latestMailTo } from '../fixtures/outbox';

const PORT = 4536;
const STAFF_EMAIL = 'html-valid-staff@example.com';
const vnuJar = path.join(path.dirname(createRequire(import.meta.url).resolve('vnu-jar')), 'build/dist/vnu.jar');
// The mail worker on, so a visitor's back-in-stock confirmation reaches DATA_DIR/outbox with its link.
const server = demoShopForFile(PORT, { SHOP_ADMIN_EMAILS: STAFF_EMAIL, MAIL_POLL_SECONDS: '1' });

/** The shop's command line makes a signed-up member the owner (the settings page is the owner's alone). */
async function grantOwner(email: string): Promise<void> {
  const env = { PATH: process.env.PATH ?? '', DATABASE_URL: 'memory://', DATA_DIR: server.dataDir, LOG_LEVEL: 'error' };
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/shop.ts', 'grant', 'owner', email], { env, timeout: 60_000 });
  expect(stdout).toContain('role owner');
}

/** A visitor's back-in-stock request for a sold-out demo shade, and the token its confirmation mail links to. */
async function backInStockToken(email: string): Promise<string> {
  const asked = await fetch(`${server.base}/api/back-in-stock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.base },
    body: JSON.stringify({ variant: 'P00263-06', email }),
  });
  expect(asked.status, await asked.clone().text()).toBe(200);
  await expect.poll(() => latestMailTo(server.dataDir, email)?.text ?? '', { timeout: 20_000 }).toMatch(/\/back-in-stock\/confirm\?token=/);
  return /\/back-in-stock\/confirm\?token=([^\s&"<>]+)/.exec(latestMailTo(server.dataDir, email)!.text)![1]!;
}

/** Signs up (staff by SHOP_ADMIN_EMAILS) and answers the session cookie. */
async function signUp(email: string, phone: string): Promise<string> {
  const response = await fetch(`${server.base}/api/member-insert`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.base },
    body: JSON.stringify({ firstName: 'ทดสอบ', lastName: 'หน้าเว็บ', email, phone, password: 'Pa55word!xyzQ', confirmPassword: 'Pa55word!xyzQ', acceptTerms: true }),
  });
  expect(response.status).toBe(201);
  const cookie = response.headers.getSetCookie().find((line) => !line.includes('Max-Age=0'));
  expect(cookie).toBeTruthy();
  return cookie!.split(';')[0]!;
}

/**
 * The member orders a variant of each product, staff deliver the order, and the member reviews the first
 * line (docs/decisions/224): answers the member's review pages to check.
 */
async function memberWithReview(member: string, staff: string, productCodes: string[]): Promise<string[]> {
  const post = async (path: string, cookie: string, body: unknown) => {
    const response = await fetch(`${server.base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: server.base, Cookie: cookie }, body: JSON.stringify(body) });
    expect(response.status, `${path} ${await response.clone().text()}`).toBeLessThan(300);
    return (await response.json()) as { data: Record<string, unknown> };
  };
  const codes: string[] = [];
  for (const code of productCodes) {
    const answer = (await (await fetch(`${server.base}/api/product/${code}`)).json()) as { data: { variants: { variant_code: string; stock: number; active: boolean }[] } };
    codes.push(answer.data.variants.find((variant) => variant.active && variant.stock > 0)!.variant_code);
  }
  const address = await post('/api/user/addresses', member, { recipientName: 'ทดสอบ หน้าเว็บ', phone: '0812345678', line1: '88/8 ถนนพระราม 9', subdistrict: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' });
  const placed = await post('/api/orders', member, { idempotency_key: `html-valid-${Date.now()}`, lines: codes.map((code) => ({ product_code: code, amount: 1 })), address_id: address.data.id, delivery_code: 'kerry', payment_method: 'promptpay' });
  const no = placed.data.order_no as string;
  for (const step of [{ action: 'confirm_payment' }, { action: 'ship', tracking_no: 'KEX123456789' }, { action: 'deliver' }]) await post('/api/order-status-update', staff, { no, ...step });
  const waiting = (await (await fetch(`${server.base}/api/user/reviews/reviewable`, { headers: { Cookie: member } })).json()) as { data: { line: number; product_code: string }[] };
  const reviewed = waiting.data.find((line) => line.product_code === 'P00354')!;
  const other = waiting.data.find((line) => line !== reviewed)!;
  const form = new FormData();
  form.set('line', String(reviewed.line));
  form.set('rating', '4');
  form.set('body', 'สีสวย ติดทน\nแนะนำค่ะ');
  const written = await fetch(`${server.base}/api/user/reviews`, { method: 'POST', headers: { Origin: server.base, Cookie: member }, body: form });
  expect(written.status, await written.clone().text()).toBe(201);
  return ['/user/reviews', `/user/reviews/new?line=${other.line}`, '/user/purchase?tab=completed'];
}

async function pageHtml(pagePath: string, cookie?: string): Promise<string> {
  const response = await fetch(`${server.base}${pagePath}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: 'manual' });
  expect(response.status, pagePath).toBe(200);
  return response.text();
}

/** A back-office form posted as a browser would (the answer is a redirect with the flash). */
async function postForm(formPath: string, cookie: string, fields: Record<string, string>): Promise<void> {
  const response = await fetch(`${server.base}${formPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.base, Cookie: cookie },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  expect(response.status, formPath).toBe(303);
}

/**
 * The review pages in each state a review can be in (docs/decisions/224, 226), taken as they are then:
 * the member's review published with the shop's answer, another waiting while the shop moderates first,
 * then the first hidden with a reason. Answers each page with the HTML it had.
 */
async function reviewStates(member: string, staff: string, owner: string, pages: string[]): Promise<{ path: string; html: string }[]> {
  const taken: { path: string; html: string }[] = [];
  const take = async (pagePath: string, cookie?: string) => taken.push({ path: pagePath, html: await pageHtml(pagePath, cookie) });
  const mine = (await (await fetch(`${server.base}/api/user/reviews`, { headers: { Cookie: member } })).json()) as { data: { id: number; product_code: string }[] };
  const published = mine.data.find((review) => review.product_code === 'P00354')!;
  await postForm(`/admin/reviews/${published.id}/answer`, staff, { answer: 'ขอบคุณที่รีวิวค่ะ <b>ร้านยิ้มละไม</b>' });
  for (const pagePath of ['/product/P00354', '/admin/reviews?status=published', `/admin/reviews?review=${published.id}`, '/admin/reviews?status=all&product=P00354']) {
    await take(pagePath, pagePath.startsWith('/admin') ? staff : undefined);
  }
  for (const pagePath of pages) await take(pagePath, member);
  // The shop moderates first: the member's next review waits (the write page was taken above).
  await postForm('/admin/settings/reviews', owner, { reviewsNeedApproval: 'on', reviewInvites: 'on' });
  const line = /[?&]line=(\d+)/.exec(pages.find((pagePath) => pagePath.includes('line=')) ?? '')![1]!;
  const form = new FormData();
  form.set('line', line);
  form.set('rating', '2');
  form.set('body', 'ส่งช้าไปหน่อย แต่ของดี');
  const written = await fetch(`${server.base}/api/user/reviews`, { method: 'POST', headers: { Origin: server.base, Cookie: member }, body: form });
  expect(written.status, await written.clone().text()).toBe(201);
  const statuses = async () =>
    ((await (await fetch(`${server.base}/api/user/reviews`, { headers: { Cookie: member } })).json()) as { data: { status: string }[] }).data.map((review) => review.status).sort();
  expect(await statuses()).toEqual(['pending', 'published']);
  // The dashboard and the settings page are taken at the end, with this review still waiting.
  await take('/admin/reviews', staff);
  await postForm(`/admin/reviews/${published.id}/hide`, staff, { reason: 'มีเบอร์โทรศัพท์ในรีวิว' });
  expect(await statuses()).toEqual(['hidden', 'pending']);
  for (const pagePath of ['/admin/reviews?status=hidden', '/admin/reviews?status=all']) await take(pagePath, staff);
  for (const pagePath of ['/user/reviews', '/user/purchase?tab=completed']) await take(pagePath, member);
  return taken;
}

/** Each page's HTML written to a folder, then one run of the checker over all of them. */
async function nuErrors(pages: { path: string; cookie?: string; html?: string }[]): Promise<string[]> {
  const folder = mkdtempSync(path.join(tmpdir(), 'shop-html-pages-'));
  try {
    for (const [index, page] of pages.entries()) {
      writeFileSync(path.join(folder, `${String(index).padStart(2, '0')}.html`), page.html ?? (await pageHtml(page.path, page.cookie)));
    }
    // The checker exits 1 when it reports an error; its JSON report is on stderr either way.
    const run = await promisify(execFile)('java', ['-jar', vnuJar, '--errors-only', '--format', 'json', folder], { maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: { stderr?: string; code?: number }) => {
        if (error.code !== 1 || !error.stderr) throw error;
        return { stderr: error.stderr };
      },
    );
    const report = JSON.parse(run.stderr) as { messages: { url: string; message: string; extract?: string }[] };
    return report.messages.map((message) => {
      const page = pages[Number(path.basename(message.url, '.html'))]?.path;
      return `${page}: ${message.message} ${message.extract ?? ''}`.trim();
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('W3C Nu checker', () => {
  it('finds no error on the public pages, a member’s pages and the back office', async () => {
    const home = await (await fetch(`${server.base}/`)).text();
    const product = home.match(/href="(\/product\/P\d+)"/)?.[1];
    const gallery = home.match(/href="(\/gallery\/[\w-]+)"/)?.[1];
    expect(product && gallery).toBeTruthy();
    const member = await signUp('html-valid-member@example.com', '0891230001');
    const staff = await signUp(STAFF_EMAIL, '0891230002');
    // A product on the member's wishlist, so /user/wishlist shows a row (docs/decisions/209).
    const wished = await fetch(`${server.base}/api/user/wishlist`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.base, Cookie: member },
      body: JSON.stringify({ code: product!.split('/').pop() }),
    });
    expect(wished.status).toBe(200);
    // A saved cart, so the back office's member page shows it (docs/decisions/218).
    const saved = await fetch(`${server.base}/api/user/cart`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json', Origin: server.base, Cookie: member },
      body: JSON.stringify({ changes: [{ code: 'P00354-03', quantity: 2, updated_at: new Date().toISOString() }] }),
    });
    expect(saved.status).toBe(200);
    const memberList = await (await fetch(`${server.base}/admin/members?q=html-valid-member`, { headers: { Cookie: staff } })).text();
    const memberPage = memberList.match(/href="(\/admin\/members\/[0-9a-f-]{36})"/)?.[1];
    expect(memberPage).toBeTruthy();
    const owner = await signUp('html-valid-owner@example.com', '0891230003');
    await grantOwner('html-valid-owner@example.com');
    const token = await backInStockToken('html-valid-visitor@example.com');
    const reviewPages = await memberWithReview(member, staff, [product!.split('/').pop()!, 'P00354']);
    const errors = await nuErrors([
      ...['/', '/product', product!, '/search/%E0%B8%A5%E0%B8%B4%E0%B8%9B', `/search/${encodeURIComponent('ลิปติก')}?brand=moji`, '/product/category/makeup?brand=minty', `/product/category/home?option=${encodeURIComponent('สี:ขาว')}&option=${encodeURIComponent('ขนาด:ใหญ่')}`, '/product/P00354?variant=P00354-03', '/promotions', '/gallery', gallery!, '/contact', '/aboutus', '/howtoorder', '/privacy', '/terms', '/login', '/register', '/cart'].map((page) => ({ path: page })),
      ...['/user/account/profile', '/user/purchase', '/user/account/address?new=1&next=%2Forder', '/order', '/quotation/new', '/user/wishlist'].map((page) => ({ path: page, cookie: member })),
      // issue 31 part 3: the review pages with a review in each state: the product page, the member's pages and the queue.
      ...(await reviewStates(member, staff, owner, reviewPages)),
      ...['/admin', '/admin/orders', '/admin/products', '/admin/products/new', '/admin/search', '/admin/import', '/admin/promotions', '/admin/members', '/admin/audit', '/admin/pages', '/admin/pages/aboutus', '/admin/two-step'].map((page) => ({ path: page, cookie: staff })),
      // issue 32: the banner preview and the stock history as cards.
      ...['/admin/promotions/WELCOME10', `${product!.replace('/product/', '/admin/products/')}/stock`, '/admin/products/P00354', '/admin/products/P00354/stock'].map((page) => ({ path: page, cookie: staff })),
      // issue 31: the product form with its wishlist count.
      { path: product!.replace('/product/', '/admin/products/'), cookie: staff },
      // issue 31: a member's page with their saved cart.
      { path: memberPage!, cookie: staff },
      // issue 31 part 6: the settings page with the gift wrapping form (its pictures and upload fields).
      { path: '/admin/settings', cookie: owner },
      // issue 31 part 4: the back-in-stock confirm and cancel pages a mail links to (opening them changes nothing).
      ...['confirm', 'cancel'].map((page) => ({ path: `/back-in-stock/${page}?token=${token}` })),
    ]);
    expect(errors).toEqual([]);
  });
});
