import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { grantRole } from './fixtures/roles';
import { keepScreenshot, projectContext, withShopWideState } from './helpers';
import { statusLabels } from '../../src/lib/orders';

/**
 * Issue 32, screens 3, 5, 6, 8 and 10 in the browser, on a desktop and a 390 px phone: the dashboard as a
 * to-do list, the audit trail in Thai, the banner's text choice with its preview, the settings page's
 * unsaved-changes guard and carrier list, and the lists that turn into cards on a phone.
 */
const PASSWORD = 'Owner-Password-2569!';

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

async function owner(browser: Browser, testInfo: TestInfo): Promise<Page & { email: string }> {
  // The issue measured a 390 px phone (the phone project's Pixel 7 is 412 px wide).
  const context = await projectContext(browser, testInfo, testInfo.project.name === 'phone' ? { viewport: { width: 390, height: 844 } } : {});
  const page = await context.newPage();
  const email = `screens-${testInfo.project.name}-${unique()}@e2e.test`;
  const phone = `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const response = await page.request.post('/api/member-insert', {
    data: { firstName: 'สมหญิง', lastName: 'เจ้าของร้าน', email, phone, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true },
  });
  expect(response.status(), await response.text()).toBe(201);
  await grantRole(email, 'owner');
  return Object.assign(page, { email });
}

/** Nothing on the page is wider than the screen (a phone never scrolls sideways). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(width);
}

test.describe('back-office screens (issue 32)', { tag: '@phone' }, () => {
  test('the dashboard is a to-do list: every number and row a link, stock split, chart dates at body size', async ({ browser }, testInfo) => {
    const page = await owner(browser, testInfo);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'สิ่งที่ต้องทำ' })).toBeVisible();
    for (const label of [statusLabels.payment_review, statusLabels.paid, statusLabels.pending_payment, statusLabels.shipped, 'สินค้าหมด', 'ใกล้หมด']) {
      const card = page.getByTestId('waiting-card').filter({ has: page.locator(`[data-count="${label}"]`) });
      await expect(card).toHaveAttribute('href', /^\/admin\/(orders|products)/);
    }
    await expect(page.getByTestId('expiring-today').getByRole('heading', { name: /หมดเวลาชำระวันนี้/ })).toBeVisible();
    // The axis dates are HTML at the body's size, not SVG text shrunk with the chart.
    const sizes = await page.evaluate(() => ({
      axis: getComputedStyle(document.querySelector('.sales-chart-axis span')!).fontSize,
      body: getComputedStyle(document.body).fontSize,
    }));
    expect(sizes.axis).toBe(sizes.body);
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, `admin-dashboard-${testInfo.project.name}`);
    // The order list's tabs say the same words as the to-do list.
    await page.goto('/admin/orders?tab=closed');
    await expect(page.getByRole('link', { name: new RegExp(`${statusLabels.cancelled}/${statusLabels.expired}`) })).toBeVisible();
    await keepScreenshot(page, `admin-orders-tabs-${testInfo.project.name}`, { fullPage: false });
    await page.goto('/admin');
    // A low-stock row opens that product's stock page; its "ดูทั้งหมด" the product list filtered the same way.
    const low = page.getByTestId('stock-low');
    await expect(low.getByRole('link', { name: 'ดูทั้งหมด' })).toHaveAttribute('href', '/admin/products?stock=low&active=1&sort=stock_asc');
    const row = low.locator('a[data-product]').first();
    const code = await row.getAttribute('data-product');
    await row.click();
    await expect(page).toHaveURL(new RegExp(`/admin/products/${code}/stock$`));
    await expect(page.getByRole('heading', { name: 'สต็อกสินค้า' })).toBeVisible();
    await page.context().close();
  });

  test('the audit trail speaks Thai with a link to the thing changed; the raw record opens on demand', async ({ browser }, testInfo) => {
    const page = await owner(browser, testInfo);
    // A change to find: a stock adjustment on a product picked from the list.
    await page.goto('/admin/products?stock=in&sort=stock_desc');
    const href = await page.locator('a[href^="/admin/products/"][href$="/stock"]').first().getAttribute('href');
    await page.goto(href!);
    // A product in shades or sizes asks which one (docs/decisions/205).
    const variantChoice = page.getByLabel('ตัวเลือก', { exact: true });
    if ((await variantChoice.count()) > 0) await variantChoice.selectOption({ index: 1 });
    await page.getByLabel('จำนวน').fill('2');
    await page.getByLabel('เหตุผล').fill('ตรวจนับสต็อก');
    await page.getByRole('button', { name: 'บันทึก' }).click();
    await expect(page.getByTestId('admin-flash')).toHaveClass(/alert-success/);
    const productName = (await page.locator('#stock-now').textContent())!.trim();
    await keepScreenshot(page, `admin-stock-history-${testInfo.project.name}`);

    await page.goto('/admin/audit');
    await page.getByLabel('ใครทำ').selectOption({ label: `สมหญิง เจ้าของร้าน (${page.email})` });
    await page.getByRole('button', { name: 'กรอง' }).click();
    const entry = page.getByRole('listitem').filter({ has: page.getByTestId('audit-sentence') }).first();
    await expect(entry.getByTestId('audit-sentence')).toContainText(`สมหญิง ปรับสต็อก ${productName}`);
    await expect(entry.getByRole('link', { name: productName })).toHaveAttribute('href', href!);
    await expect(entry.getByText('product.stock_adjust')).toBeHidden();
    await entry.getByText('ข้อมูลดิบ').click();
    await expect(entry.getByText(/product\.stock_adjust/)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, `admin-audit-${testInfo.project.name}`);
    await page.context().close();
  });

  test('a banner shows its text over the picture or the picture alone, previewed at phone and desktop width', async ({ browser }, testInfo) => {
    const page = await owner(browser, testInfo);
    await withShopWideState(async () => {
      await page.goto('/admin/promotions/WELCOME10');
      const preview = page.getByTestId('banner-preview');
      await expect(preview.locator('[data-preview="phone"] .banner-preview-set:visible .home-banner-name')).toHaveText('สมาชิกใหม่ลด 10%');
      // The desktop frame keeps the desktop layout (its description shows) even when zoomed out on a phone.
      await expect(preview.locator('[data-preview="desktop"] .banner-preview-set:visible .home-banner-desc')).toBeVisible();
      await expect(preview.locator('[data-preview="phone"] .banner-preview-set:visible .home-banner-desc')).toBeHidden();
      await expectNoSidewaysScroll(page);
      await preview.scrollIntoViewIfNeeded();
      await keepScreenshot(page, `admin-banner-preview-text-${testInfo.project.name}`, { fullPage: false });
      await page.getByLabel(/รูปอย่างเดียว/).check();
      // The preview follows the choice before saving.
      await expect(preview.locator('[data-preview="phone"] .banner-preview-set:visible .home-banner-name')).toHaveCount(0);
      await keepScreenshot(page, `admin-banner-preview-${testInfo.project.name}`);
      await page.getByTestId('promotion-form').getByRole('button', { name: 'บันทึก' }).click();
      await expect(page.getByTestId('admin-flash')).toHaveClass(/alert-success/);
      await page.goto('/');
      // WELCOME10 ends last of the running promotions, so it is one of the small banners beside the big one.
      const banner = page.locator('a.home-banner[href="/promotions/WELCOME10"]');
      await expect(banner).toHaveAttribute('data-text-over', 'false');
      await expect(banner.locator('.home-banner-text')).toHaveCount(0);
      await expect(banner).toHaveAccessibleName(/สมาชิกใหม่ลด 10%/);
      await keepScreenshot(page, `home-banner-picture-only-${testInfo.project.name}`, { fullPage: false });
      await page.goto('/admin/promotions/WELCOME10');
      await page.getByLabel(/ข้อความบนรูป/).check();
      await page.getByTestId('promotion-form').getByRole('button', { name: 'บันทึก' }).click();
      await expect(page.getByTestId('admin-flash')).toHaveClass(/alert-success/);
    });
    await page.goto('/admin/promotions');
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, `admin-promotions-${testInfo.project.name}`);
    await page.context().close();
  });

  test('settings: a section not saved is marked and asked about before another is saved; carriers come from a list', async ({ browser }, testInfo) => {
    const page = await owner(browser, testInfo);
    await page.goto('/admin/settings');
    const carrier = page.locator('#code-0');
    await expect(carrier.locator('option', { hasText: 'Kerry Express' })).toHaveCount(1);
    await expect(carrier.locator('option', { hasText: 'Flash Express' })).toHaveCount(1);
    await page.getByLabel('คำโปรย (แถบบนสุด)').fill(`คำโปรยที่ยังไม่บันทึก ${unique()}`);
    await expect(page.locator('#company-title [data-unsaved-badge]')).toBeVisible();
    await expect(page.locator('[data-unsaved-bar]')).toContainText('ข้อมูลร้าน');
    await page.locator('#delivery').getByRole('button', { name: 'บันทึก' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('มีส่วนที่ยังไม่ได้บันทึก');
    await expect(dialog).toContainText('"ข้อมูลร้าน"');
    await keepScreenshot(page, `admin-settings-unsaved-${testInfo.project.name}`, { fullPage: false });
    await dialog.getByRole('button', { name: 'กลับไปแก้ไข' }).click();
    await expect(page).toHaveURL(/\/admin\/settings$/);
    await expect(page.getByLabel('คำโปรย (แถบบนสุด)')).toBeFocused();
    // The question stopped the save before the page's progress bar took it for a navigation.
    await expect(page.locator('#nav-progress')).not.toHaveClass(/is-loading/);
    await keepScreenshot(page, `admin-settings-${testInfo.project.name}`);
    await expectNoSidewaysScroll(page);
    await page.context().close();
  });
});
