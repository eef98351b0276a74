import { expect, test } from '@playwright/test';
import { waitForIslands } from './helpers';

/** Search (issue 3): Thai keywords, Latin brand names, typos, the empty-keyword alert, escaping. */

test.describe('search', () => {
  test('Thai keyword from the navbar goes to /search/{keyword} with ranked results', { tag: '@phone' }, async ({ page }) => {
    await page.goto('/');
    await waitForIslands(page);
    const box = page.getByPlaceholder('ค้นหาสินค้า');
    await box.fill('ลิป');
    await box.press('Enter');
    await expect(page).toHaveURL(`/search/${encodeURIComponent('ลิป')}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('ลิป');
    await expect(page.getByTestId('result-count')).toContainText('พบสินค้า');
    await expect(page.locator('.product-card h3').first()).toHaveText(/^ลิป/);
    await expect(page.getByPlaceholder('ค้นหาสินค้า')).toHaveValue('ลิป');
  });

  test('a brand name in Latin letters finds that brand, whatever the case', async ({ page }) => {
    await page.goto(`/search/${encodeURIComponent('glow LAB')}`);
    const brands = await page.locator('.product-card .text-secondary.text-truncate').allTextContents();
    expect(brands.length).toBeGreaterThan(0);
    expect(brands.every((brand) => brand === 'Glow Lab')).toBe(true);
  });

  test('a keyword with a typo still finds the product', async ({ page }) => {
    await page.goto(`/search/${encodeURIComponent('ลิปสติด')}`);
    await expect(page.getByRole('status').filter({ hasText: 'สินค้าที่ใกล้เคียง' })).toBeVisible();
    await expect(page.locator('.product-card h3').first()).toContainText('ลิปสติก');
  });

  test('an empty keyword shows the alert and stays on the page', async ({ page }) => {
    await page.goto('/product/category/gifts');
    await waitForIslands(page);
    await page.getByPlaceholder('ค้นหาสินค้า').fill('   ');
    await page.getByRole('button', { name: 'ค้นหา', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('แจ้งเตือน')).toBeVisible();
    await expect(dialog.getByText('กรุณาป้อนข้อมูลเพื่อค้นหา')).toBeVisible();
    await expect(page).toHaveURL(/\/product\/category\/gifts$/);
  });

  test('a keyword with <script> is shown as text, never run', async ({ page }) => {
    let dialogs = 0;
    page.on('dialog', async (dialog) => {
      dialogs++;
      await dialog.dismiss();
    });
    const keyword = '<script>alert(1)</script>';
    const response = await page.goto(`/search/${encodeURIComponent(keyword)}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(keyword);
    await expect(page.getByTestId('empty-state')).toBeVisible();
    expect(await page.locator('main script').count()).toBe(0);
    expect(dialogs).toBe(0);
  });

  test('suggestions appear while typing and work with the keyboard', async ({ page }) => {
    await page.goto('/');
    await waitForIslands(page);
    const box = page.getByPlaceholder('ค้นหาสินค้า');
    await box.click();
    await box.pressSequentially('เซรั่ม', { delay: 30 });
    const list = page.getByRole('listbox', { name: 'คำแนะนำการค้นหา' });
    await expect(list.getByRole('option').first()).toBeVisible();
    await box.press('ArrowDown');
    await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    const label = (await list.getByRole('option').first().locator('span').first().textContent()) ?? '';
    await box.press('Enter');
    await expect(page).toHaveURL(/\/product\/P\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(label);
  });

  test('the search script is fetched on first focus only, and what was typed before it arrived is suggested', async ({ page }) => {
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') fetched.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await waitForIslands(page);
    expect(fetched.filter((path) => path.includes('search-box'))).toEqual([]);
    // fill() focuses and types in one step, before the module can arrive.
    await page.getByPlaceholder('ค้นหาสินค้า').fill('เซรั่ม');
    await expect(page.getByRole('listbox', { name: 'คำแนะนำการค้นหา' }).getByRole('option').first()).toBeVisible();
    expect(fetched.filter((path) => path.includes('search-box'))).toHaveLength(1);
  });

  test('Enter at once after typing, before the script arrived, still goes to the results', async ({ page }) => {
    await page.goto('/');
    await waitForIslands(page);
    const box = page.getByPlaceholder('ค้นหาสินค้า');
    await box.fill('ลิป');
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/search/${encodeURIComponent('ลิป')}$`));
  });

  test('without JavaScript the search form redirects to /search/{keyword}', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByPlaceholder('ค้นหาสินค้า').fill('ของชำร่วย');
    await page.getByPlaceholder('ค้นหาสินค้า').press('Enter');
    await expect(page).toHaveURL(`/search/${encodeURIComponent('ของชำร่วย')}`);
    await expect(page.locator('.product-card').first()).toBeVisible();
    await page.getByRole('navigation', { name: 'เลขหน้า' }).getByRole('link', { name: 'หน้า 2' }).click();
    await expect(page).toHaveURL(new RegExp(`/search/page/2\\?q=${encodeURIComponent('ของชำร่วย')}`));
    await expect(page.locator('.product-card').first()).toBeVisible();
    await context.close();
  });
});
