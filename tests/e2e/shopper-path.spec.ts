import { expect, test, type Page } from '@playwright/test';
import { keepScreenshot, waitForIslands } from './helpers';

/**
 * A shopper's path with no break (issue 29): a newcomer sent from checkout to login signs up and is
 * back at checkout, with and without JavaScript. The server's side of it: tests/server/shopper-path.test.ts.
 */
function newcomer(project: string, salt: number) {
  const stamp = `${(Date.now() + salt) % 100_000_000}`.padStart(8, '0');
  return { email: `path-${project}-${salt}-${stamp}@example.com`, phone: `06${String((Number(stamp) * 7 + salt) % 100_000_000).padStart(8, '0')}` };
}

async function fillSignUp(page: Page, who: { email: string; phone: string }) {
  await page.getByLabel('ชื่อ', { exact: true }).fill('ทางตรง');
  await page.getByLabel('นามสกุล').fill('ไม่หลงทาง');
  await page.getByLabel('อีเมล').fill(who.email);
  await page.getByLabel('เบอร์โทรศัพท์').fill(who.phone);
  await page.getByLabel('รหัสผ่าน', { exact: true }).fill('ทะเลสีครามที่ภูเก็ต');
  await page.getByLabel('ยืนยันรหัสผ่าน').fill('ทะเลสีครามที่ภูเก็ต');
  await page.getByLabel(/ฉันยอมรับข้อตกลง/).check();
}

test('sign-up from checkout comes back to checkout', { tag: '@phone' }, async ({ page }, testInfo) => {
  const who = newcomer(testInfo.project.name, 1);
  await page.goto('/login?next=/order');
  await page.locator('#main').getByRole('link', { name: 'สมัครสมาชิก' }).click();
  await expect(page).toHaveURL(/\/register\?next=%2Forder$/);
  await waitForIslands(page);
  await fillSignUp(page, who);
  await page.locator('#main').getByRole('button', { name: 'สมัครสมาชิก' }).click();
  await expect(page).toHaveURL(/\/order$/);
  await expect(page.getByRole('heading', { name: 'สั่งซื้อสินค้า' })).toBeVisible();

  // The same email again, as someone who forgot they had signed up: the ways in keep the checkout.
  await page.context().clearCookies();
  await page.goto('/register?next=/order');
  await waitForIslands(page);
  await fillSignUp(page, { ...who, phone: newcomer(testInfo.project.name, 2).phone });
  await expect(page.getByText('อีเมลนี้ถูกใช้สมัครสมาชิกแล้ว')).toBeVisible();
  const form = page.getByRole('form', { name: 'สมัครสมาชิก' });
  await expect(form.getByRole('link', { name: 'ลืมรหัสผ่าน' })).toHaveAttribute('href', '/resetpassword?next=%2Forder');
  await keepScreenshot(page, 'register-email-taken');
  await form.getByRole('link', { name: 'เข้าสู่ระบบ' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Forder$/);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('sign-up from checkout comes back to checkout', async ({ page }, testInfo) => {
    const who = newcomer(testInfo.project.name, 3);
    await page.goto('/login?next=/order');
    await page.locator('#main').getByRole('link', { name: 'สมัครสมาชิก' }).click();
    await fillSignUp(page, who);
    await page.locator('#main').getByRole('button', { name: 'สมัครสมาชิก' }).click();
    await expect(page).toHaveURL(/\/order$/);
    await expect(page.getByRole('heading', { name: 'สั่งซื้อสินค้า' })).toBeVisible();
  });
});

test('a search for “ลด 50%” reaches its results, and error pages keep the shop around them', { tag: '@phone' }, async ({ page }) => {
  await page.goto('/');
  await waitForIslands(page);
  const box = page.getByRole('combobox', { name: 'ค้นหาสินค้า' });
  await box.fill('ลด 50%');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\/%E0%B8%A5%E0%B8%94%2050%25$/);
  await expect(page.getByRole('heading', { name: 'ผลการค้นหา “ลด 50%”' })).toBeVisible();

  for (const [url, status, heading, shot] of [
    ['/no-such-page', 404, 'ไม่พบหน้าที่คุณต้องการ', 'error-404'],
    ['/product/%01', 400, 'ข้อมูลไม่ถูกต้อง', 'error-400-refused'],
  ] as const) {
    const response = await page.goto(url);
    expect(response?.status()).toBe(status);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await expect(page.getByRole('search').getByRole('combobox', { name: 'ค้นหาสินค้า' })).toBeVisible();
    await expect(page.locator('#main').getByRole('link', { name: 'กลับหน้าแรก' })).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/Kanit|Roboto/);
    await keepScreenshot(page, shot);
  }
});

test('a listing past its last page says how many there are and leads to the last one', { tag: '@phone' }, async ({ page }) => {
  const response = await page.goto('/product?page=999');
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId('result-count')).not.toContainText('แสดง');
  await keepScreenshot(page, 'listing-past-the-end');
  // Other tests add products to the shared e2e shop, so the last page is read, not assumed (15 at 360).
  const toLast = page.getByRole('link', { name: /ไปหน้าสุดท้าย/ });
  const lastPage = Number((await toLast.textContent())?.match(/หน้า ([\d,]+)/)?.[1]?.replace(/,/g, ''));
  expect(lastPage).toBeGreaterThanOrEqual(15);
  await toLast.click();
  await expect(page).toHaveURL(new RegExp(`/product/category/page/${lastPage}$`));
  // The range is a possible one: it ends at the total, and starts on the last page's first card.
  const count = (await page.getByTestId('result-count').textContent()) ?? '';
  const [, total, from, to] = (count.match(/([\d,]+) รายการ \(แสดง ([\d,]+)–([\d,]+)\)/) ?? []).map((part) => Number(part?.replace(/,/g, '')));
  expect(to).toBe(total);
  expect(from).toBe((lastPage - 1) * 24 + 1);
  expect(from).toBeLessThanOrEqual(to!);
});
