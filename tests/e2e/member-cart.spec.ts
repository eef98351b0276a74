import { expect, test, type Page } from '@playwright/test';
import { demoVariantPlans } from '../../src/server/db/demo-variants';
import { signUp, type SignedUpMember } from './fixtures/member';
import { staffPage } from './fixtures/roles';
import { keepScreenshot, projectContext, waitForIslands } from './helpers';

/**
 * issue 31 part 1 in the browser (docs/decisions/218): a member adds two shades on "device A", logs in on
 * "device B" and finds the same cart; a visitor's cart merges into the member's at login with a Thai
 * note; staff see the saved cart on the member's page; logging out clears the cart in the browser.
 */

const lipstick = demoVariantPlans(360).find((plan) => plan.name === 'ลิปสติกเนื้อแมตต์')!;

test.use({ contextOptions: { reducedMotion: 'reduce' } });

async function addShade(page: Page, value: string): Promise<void> {
  await page.getByRole('group', { name: /^สี/ }).locator('label', { hasText: value }).click();
  await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
  await expect(page.getByRole('status').filter({ hasText: `ลิปสติกเนื้อแมตต์ — สี${value}` })).toBeVisible();
}

/** The saved cart as the server holds it, read with the page's own session. */
async function savedCodes(page: Page): Promise<string[]> {
  const answer = await page.request.get('/api/user/cart');
  const body = (await answer.json()) as { data: { lines: { code: string; quantity: number }[] } };
  return body.data.lines.map((line) => `${line.code}×${line.quantity}`).sort();
}

async function localCart(page: Page): Promise<string[]> {
  const lines = await page.evaluate(() => JSON.parse(localStorage.getItem('shoppingCart') ?? '[]') as { product_code: string; amount: number }[]);
  return lines.map((line) => `${line.product_code}×${line.amount}`).sort();
}

async function logIn(page: Page, member: SignedUpMember, next: string): Promise<void> {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await waitForIslands(page);
  await page.getByLabel('อีเมลหรือเบอร์โทรศัพท์').fill(member.email);
  await page.getByLabel('รหัสผ่าน').fill(member.password);
  await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
}

async function logOut(page: Page): Promise<void> {
  await waitForIslands(page);
  const toggler = page.getByRole('button', { name: 'เปิดเมนู' });
  if ((await toggler.isVisible()) && (await toggler.getAttribute('aria-expanded')) !== 'true') await toggler.click();
  await page.getByRole('button', { name: /^เมนูสมาชิก/ }).filter({ visible: true }).click();
  await page.getByRole('button', { name: 'ออกจากระบบ' }).filter({ visible: true }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('a member’s cart follows them to a second device, a visitor’s cart merges at login, logout clears it', { tag: '@phone' }, async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const phone = testInfo.project.name === 'phone';
  const onSale = lipstick.values.filter((value) => value.stock > 0);
  const [first, second, third] = phone ? [onSale[0]!, onSale[2]!, onSale[4]!] : [onSale[1]!, onSale[3]!, onSale[5]!];

  // Device A: signed up (and so signed in), two shades into the cart; the server has them soon after.
  const member = await signUp(page, testInfo, 'member-cart');
  await page.goto(`/product/${lipstick.code}`);
  await waitForIslands(page);
  await addShade(page, first.value);
  await addShade(page, second.value);
  await expect.poll(() => savedCodes(page)).toEqual([`${first.code}×1`, `${second.code}×1`].sort());

  // Device B: a browser of its own logs in and finds the same cart, with the note saying what came.
  const deviceB = await (await projectContext(browser, testInfo)).newPage();
  await logIn(deviceB, member, '/cart');
  await expect(deviceB.getByText('รวมตะกร้าจากบัญชีของคุณแล้ว: เพิ่ม 2 รายการ')).toBeVisible();
  await expect(deviceB.locator('.cart-line')).toHaveCount(2);
  for (const shade of [first, second]) await expect(deviceB.locator(`.cart-line[data-product-code="${shade.code}"]`)).toContainText(`ลิปสติกเนื้อแมตต์ — สี${shade.value}`);
  await keepScreenshot(deviceB, `member-cart-device-b-${testInfo.project.name}`, { fullPage: false });

  // Device B changes the amount of one line; device A's next visit takes it.
  await deviceB.locator(`.cart-line[data-product-code="${first.code}"]`).getByRole('button', { name: 'เพิ่มจำนวน', exact: true }).click();
  await expect.poll(() => savedCodes(deviceB)).toEqual([`${first.code}×2`, `${second.code}×1`].sort());

  // Logging out on device B clears the cart in that browser; the saved cart stays.
  await logOut(deviceB);
  expect(await localCart(deviceB)).toEqual([]);
  expect(await savedCodes(page)).toEqual([`${first.code}×2`, `${second.code}×1`].sort());

  // A visitor on device B puts a third shade in, then logs in: the carts merge, and the note says so.
  await deviceB.goto(`/product/${lipstick.code}`);
  await waitForIslands(deviceB);
  await addShade(deviceB, third.value);
  await logIn(deviceB, member, '/cart');
  await expect(deviceB.getByText('รวมตะกร้าจากบัญชีของคุณแล้ว: เพิ่ม 2 รายการ · บันทึกสินค้าในตะกร้าของเครื่องนี้ไว้กับบัญชีของคุณ 1 รายการ')).toBeVisible();
  await expect(deviceB.locator('.cart-line')).toHaveCount(3);
  await keepScreenshot(deviceB, `member-cart-merged-${testInfo.project.name}`, { fullPage: false });
  const merged = [`${first.code}×2`, `${second.code}×1`, `${third.code}×1`].sort();
  expect(await localCart(deviceB)).toEqual(merged);
  expect(await savedCodes(deviceB)).toEqual(merged);

  // Staff helping on the phone see the same lines on the member's page, read-only.
  const me = (await (await page.request.get('/api/auth/me')).json()) as { data: { user: { id: string } } };
  const staff = await staffPage(browser, testInfo);
  await staff.goto(`/admin/members/${me.data.user.id}`);
  const table = staff.getByTestId('saved-cart');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await expect(table).toContainText(`ลิปสติกเนื้อแมตต์ — สี${third.value}`);
  await keepScreenshot(staff, `member-cart-admin-${testInfo.project.name}`);

  // Device A, a new visit: it takes the cart as saved.
  await page.evaluate(() => sessionStorage.clear());
  await page.goto('/cart');
  await waitForIslands(page);
  await expect(page.locator('.cart-line')).toHaveCount(3);
  expect(await localCart(page)).toEqual(merged);
  await logOut(page);
  expect(await localCart(page)).toEqual([]);
});
