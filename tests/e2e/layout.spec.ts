import { expect, test } from '@playwright/test';
import { keepScreenshot, waitForIslands, withShopWideState } from './helpers';

/** The layouts of docs/design.md section 4 with the words of section 5, on desktop and phone. */

async function openMenuIfCollapsed(page: import('@playwright/test').Page) {
  const toggler = page.getByRole('button', { name: 'เปิดเมนู' });
  if (await toggler.isVisible()) await toggler.click();
}

test.describe('layouts', { tag: '@phone' }, () => {
  test('home page has the navbar, side menu, advantage strip and footer from the company record', async ({ page, request }) => {
    // The shop's phone and address are shop-wide: the owner's settings test changes them for a moment.
    await withShopWideState(async () => {
      const companyResponse = await request.get('/readyz');
      expect(companyResponse.ok()).toBeTruthy();
      const response = await page.goto('/');
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(/ยิ้มละไม/);

      await expect(page.getByPlaceholder('ค้นหาสินค้า')).toBeVisible();
      await expect(page.getByRole('button', { name: 'ค้นหา' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'ตะกร้าสินค้า' }).or(page.getByRole('button', { name: 'ตะกร้าสินค้า' })).first()).toBeVisible();

      await openMenuIfCollapsed(page);
      const nav = page.getByRole('navigation', { name: 'เมนูหลัก' });
      for (const label of ['หน้าแรก', 'สินค้าทั้งหมด', 'เกี่ยวกับเรา', 'วิธีการสั่งซื้อ', 'ติดต่อเรา']) {
        await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
      }
      await expect(nav.getByRole('link', { name: '081-234-5678' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'เข้าสู่ระบบ' }).first()).toBeVisible();
      await expect(page.getByRole('link', { name: 'สมัครสมาชิก' }).first()).toBeVisible();

      const footer = page.getByTestId('footer');
      await expect(footer.getByTestId('footer-phone')).toHaveText('081-234-5678');
      await expect(footer.getByTestId('footer-line')).toHaveText('@yimlamai');
      await expect(footer.getByTestId('footer-facebook')).toHaveAttribute('href', 'https://www.facebook.com/yimlamai.giftshop');
      await expect(footer.getByTestId('footer-map')).toHaveAttribute('href', /google\.com\/maps/);
      await expect(footer.getByTestId('footer-address')).toContainText('กรุงเทพมหานคร 10500');

      const floating = page.getByTestId('floating-menu');
      await expect(floating.getByTestId('floating-facebook')).toHaveAttribute('href', 'https://www.facebook.com/yimlamai.giftshop');
      await expect(floating.getByTestId('floating-phone')).toHaveAttribute('href', 'tel:0812345678');
      await expect(floating.getByTestId('floating-map')).toHaveAttribute('href', /google\.com\/maps/);
      await expect(floating.getByTestId('floating-line')).toHaveAttribute('href', 'https://line.me/R/ti/p/%40yimlamai');
      await expect(floating.getByTestId('floating-contact')).toHaveAttribute('href', '/contact');

      await expect(page.getByLabel('จุดเด่นของร้าน')).toBeVisible();
      await expect(page.locator('#nav-progress')).toHaveCount(1);
    });
  });

  test('the category dropdown lists every category', async ({ page }) => {
    await page.goto('/');
    await openMenuIfCollapsed(page);
    await page.getByRole('button', { name: 'ประเภทสินค้า' }).or(page.getByRole('link', { name: 'ประเภทสินค้า' })).first().click();
    const menu = page.locator('.dropdown-menu.category-list');
    await expect(menu).toBeVisible();
    for (const name of ['ของขวัญ', 'สกินแคร์', 'เครื่องสำอาง', 'น้ำหอม', 'เครื่องเขียน', 'จิวเวลรี่', 'กระเป๋า', 'ของชำร่วย']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    expect(await menu.getByRole('link').count()).toBeGreaterThanOrEqual(13);
  });

  test('an unknown route answers 404 with the right texts and a link home', async ({ page }) => {
    const response = await page.goto('/this/route/does/not/exist');
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle(/ไม่พบหน้าที่คุณต้องการ/);
    await expect(page.getByRole('heading', { name: 'ไม่พบหน้าที่คุณต้องการ' })).toBeVisible();
    await expect(page.getByRole('search')).toBeVisible();
    await page.getByRole('link', { name: 'กลับหน้าแรก' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the empty search alert shows and keeps the page', async ({ page }) => {
    await page.goto('/');
    await waitForIslands(page);
    await page.getByRole('button', { name: 'ค้นหา' }).click();
    await expect(page.getByRole('heading', { name: 'แจ้งเตือน' })).toBeVisible();
    await expect(page.getByText('กรุณาป้อนข้อมูลเพื่อค้นหา')).toBeVisible();
    await page.getByRole('button', { name: 'ตกลง' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('pages use the Thai web fonts served by the shop itself', async ({ page }) => {
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('http://127.0.0.1') && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    await page.goto('/');
    await page.evaluate(() => document.fonts.ready);
    const loadedThaiFaces = await page.evaluate(() =>
      [...document.fonts].filter((face) => face.family.includes('Kanit') && face.status === 'loaded' && face.unicodeRange.includes('E01')).length,
    );
    expect(loadedThaiFaces).toBeGreaterThan(0);
    expect(foreign).toEqual([]);
  });

  test('Latin letters and digits of body text come from Roboto, Thai from Kanit (docs/design.md visual identity)', async ({ page }) => {
    await page.goto('/product/P00003');
    await page.evaluate(() => document.fonts.ready);
    const faces = await page.evaluate(() =>
      [...document.fonts].filter((face) => face.status === 'loaded').map((face) => ({ family: face.family.replaceAll('"', ''), weight: face.weight, latin: /U\+0+-0*FF\b/i.test(face.unicodeRange) })),
    );
    // The product code, the price and the brand are Latin text on this page.
    expect(faces).toContainEqual({ family: 'Roboto', weight: '400', latin: true });
    expect(faces).toContainEqual({ family: 'Roboto', weight: '500', latin: true });
    // Kanit's Latin files are for headings only; this page's headings are all Thai.
    expect(faces.filter((face) => face.family === 'Kanit' && face.latin)).toEqual([]);
    const priceFont = await page.locator('.text-price').first().evaluate((element) => getComputedStyle(element).fontFamily);
    const bodyFont = await page.locator('main').evaluate((element) => getComputedStyle(element).fontFamily);
    expect(priceFont).toMatch(/^"?Roboto/);
    expect(bodyFont).toMatch(/^"?Roboto"?, "?Kanit/);
  });

  test('layouts look right (screenshots kept for review with E2E_SHOTS)', async ({ page }, testInfo) => {
    await page.goto('/');
    await page.evaluate(() => document.fonts.ready);
    await keepScreenshot(page, `home-${testInfo.project.name}`, { fullPage: false });
    await page.goto('/nope-404');
    await keepScreenshot(page, `404-${testInfo.project.name}`, { fullPage: false });
    // Nothing overflows horizontally on this viewport.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
