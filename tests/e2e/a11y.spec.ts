import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { grantRole } from './fixtures/roles';
import { waitForIslands } from './helpers';
import { seriousAxeViolations } from './axe';

/**
 * docs/design.md section 9: axe (WCAG 2.1 A and AA rules) finds no serious or critical violation on the
 * public and account pages, on a desktop and a phone.
 */

// axe reads colours as they are painted: in the middle of a button's colour transition (an island
// marking its state as it starts) it would measure a blend no one reads. Bootstrap leaves transitions
// out for reduced motion, so the pages are checked as they settle.
test.use({ contextOptions: { reducedMotion: 'reduce' } });
async function seriousViolations(page: Page) {
  await waitForIslands(page);
  return (await seriousAxeViolations(page)).map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.length,
      first: violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')} — ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
    }));
}

/** Serious or critical violations on each page, by path (an empty object when there are none). */
async function violationsOn(page: Page, paths: string[], { expectOk = false } = {}): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  for (const path of paths) {
    const response = await page.goto(path);
    if (expectOk) expect(response?.status(), path).toBe(200);
    const violations = await seriousViolations(page);
    if (violations.length > 0) found[path] = violations;
  }
  return found;
}

async function firstHref(page: Page, selector: string): Promise<string> {
  const href = await page.locator(selector).first().getAttribute('href');
  expect(href, selector).toBeTruthy();
  return href!;
}

/**
 * The public pages, in three parts run as three tests: one test for all of them held one worker for a
 * minute or more while the others waited at the end (playwright.config.ts shares out tests, not files).
 */
async function publicPages(page: Page): Promise<string[]> {
  await page.goto('/');
  const product = await firstHref(page, 'a[href^="/product/P"]');
  const category = await firstHref(page, 'a[href^="/product/category/"]');
  await page.goto('/promotions');
  const promotion = await firstHref(page, 'a[href^="/promotions/"]');
  return ['/', '/product', category, product, '/search/ตุ๊กตา', '/cart', '/login', '/register', '/resetpassword', '/aboutus', '/howtoorder', '/contact', '/address', '/privacy', '/terms', '/promotions', promotion, '/gallery', '/this-page-does-not-exist', '/product/%01', '/search/%E0%B8%A5%E0%B8%94%2050%25', '/product?page=999', `/search/${encodeURIComponent('ลิปติก')}?brand=moji`, '/product/category/makeup?brand=minty', '/product/P00354-03'];
}

const PARTS = 3;
/** The part-th of PARTS nearly equal slices of a list. */
function partOf<T>(list: T[], part: number): T[] {
  const size = Math.ceil(list.length / PARTS);
  return list.slice(part * size, (part + 1) * size);
}

for (let part = 0; part < PARTS; part += 1) {
  test(`public pages (part ${part + 1} of ${PARTS}) have no serious or critical axe violations`, { tag: '@phone' }, async ({ page }) => {
    test.setTimeout(120_000);
    const pages = partOf(await publicPages(page), part);
    expect(pages.length).toBeGreaterThan(0);
    expect(await violationsOn(page, pages)).toEqual({});
  });
}

test('account and checkout pages have no serious or critical axe violations', { tag: '@phone' }, async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const stamp = `${Date.now() % 100_000_000}`.padStart(8, '0');
  const member = {
    firstName: 'เข้าถึง',
    lastName: 'ได้ทุกคน',
    email: `a11y-${testInfo.project.name}-${stamp}@example.com`,
    phone: `09${String((Number(stamp) * 11 + (testInfo.project.name === 'phone' ? 3 : 0)) % 100_000_000).padStart(8, '0')}`,
    password: 'ดวงดาวบนฟ้ากว้าง',
  };
  await page.goto('/');
  const origin = new URL(page.url()).origin;
  const registered = await page.request.post('/api/member-insert/', {
    data: { ...member, confirmPassword: member.password, acceptTerms: true },
    headers: { Origin: origin },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const address = await page.request.post('/api/user/addresses', {
    data: { recipientName: 'เข้าถึง ได้ทุกคน', phone: '0812345678', line1: '1 ถนนพระราม 4', subdistrict: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' },
    headers: { Origin: origin },
  });
  expect(address.status()).toBe(201);
  // Something in the cart, so checkout shows its form.
  await page.goto('/');
  const product = await firstHref(page, 'a[href^="/product/P"]');
  await page.goto(product);
  await waitForIslands(page);
  await page.getByRole('button', { name: /หยิบใส่ตะกร้า|เพิ่มลงตะกร้า|ใส่ตะกร้า/ }).first().click();
  // And an order waiting for payment, for the payment and order status pages.
  const addressId = ((await address.json()) as { data: { id: string } }).data.id;
  const placed = await page.request.post('/api/orders', {
    data: { idempotency_key: `a11y-${stamp}-${testInfo.project.name}`, lines: [{ product_code: product.split('/').pop(), amount: 1 }], address_id: addressId, delivery_code: 'kerry', payment_method: 'promptpay' },
    headers: { Origin: origin },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const orderNo = ((await placed.json()) as { data: { order_no: string } }).data.order_no;
  // A product on the wishlist, so its page has a row to check (docs/decisions/209).
  const wished = await page.request.post('/api/user/wishlist', { data: { code: product.split('/').pop() }, headers: { Origin: origin } });
  expect(wished.status()).toBe(200);
  const pages = ['/order', `/order/payment?no=${orderNo}`, `/order/delivery?no=${orderNo}`, '/user/purchase', '/user/account/profile', '/user/account/address', '/user/account/address?new=1&next=%2Forder', '/user/account/password', '/user/wishlist', '/cart'];
  expect(await violationsOn(page, pages)).toEqual({});
});

/** An owner signed in, an order waiting for payment, and the back-office pages to check, in order. */
async function backOfficePages(page: Page, testInfo: TestInfo, part: number): Promise<string[]> {
  const stamp = `${Date.now() % 100_000_000}`.padStart(8, '0');
  const email = `a11y-owner-${testInfo.project.name}-${part}-${stamp}@example.com`;
  const password = 'ดวงดาวบนฟ้ากว้าง';
  await page.goto('/');
  const origin = new URL(page.url()).origin;
  const product = await firstHref(page, 'a[href^="/product/P"]');
  const registered = await page.request.post('/api/member-insert/', {
    data: {
      firstName: 'เจ้าของ',
      lastName: 'เข้าถึงได้',
      email,
      phone: `08${String((Number(stamp) * 7 + (testInfo.project.name === 'phone' ? 5 : 0) + part * 1_009) % 100_000_000).padStart(8, '0')}`,
      password,
      confirmPassword: password,
      acceptTerms: true,
    },
    headers: { Origin: origin },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  await grantRole(email, 'owner');
  const address = await page.request.post('/api/user/addresses', {
    data: { recipientName: 'เจ้าของ เข้าถึงได้', phone: '0812345678', line1: '1 ถนนพระราม 4', subdistrict: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' },
    headers: { Origin: origin },
  });
  expect(address.status()).toBe(201);
  const code = product.split('/').pop()!;
  const placed = await page.request.post('/api/orders', {
    data: { idempotency_key: `a11y-admin-${stamp}-${part}-${testInfo.project.name}`, lines: [{ product_code: code, amount: 1 }], address_id: ((await address.json()) as { data: { id: string } }).data.id, delivery_code: 'kerry', payment_method: 'promptpay' },
    headers: { Origin: origin },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const orderNo = ((await placed.json()) as { data: { order_no: string } }).data.order_no;

  await page.goto('/admin/gallery');
  const album = await firstHref(page, 'main a[href^="/admin/gallery/"]');
  await page.goto('/admin/promotions');
  const promotion = await firstHref(page, 'main a[href^="/admin/promotions/"]:not([href$="/new"])');
  await page.goto('/admin/members');
  const member = await firstHref(page, 'main a[href^="/admin/members/"]');
  return [
    '/admin',
    '/admin/orders',
    '/admin/orders?tab=review',
    `/admin/orders/${orderNo}`,
    '/admin/orders/import-tracking',
    '/admin/products',
    '/admin/products/new',
    `/admin/products/${code}`,
    `/admin/products/${code}/stock`,
    '/admin/categories',
    '/admin/brands',
    '/admin/search',
    '/admin/import',
    '/admin/pages',
    '/admin/pages/aboutus',
    '/admin/settings',
    '/admin/promotions',
    '/admin/promotions/new',
    promotion,
    '/admin/gallery',
    album,
    '/admin/recruitment',
    '/admin/staff',
    '/admin/members',
    member,
    '/admin/audit',
    '/admin/two-step',
  ];
}

// docs/design.md section 10: the back office is used on phones too, by the same rules as the shop.
for (let part = 0; part < PARTS; part += 1) {
  test(`back-office pages (part ${part + 1} of ${PARTS}) have no serious or critical axe violations`, { tag: '@phone' }, async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const pages = partOf(await backOfficePages(page, testInfo, part), part);
    expect(pages.length).toBeGreaterThan(0);
    expect(await violationsOn(page, pages, { expectOk: true })).toEqual({});
  });
}
