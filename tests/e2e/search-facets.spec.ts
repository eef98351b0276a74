import { expect, test, type Page } from '@playwright/test';
import { grantRole } from './fixtures/roles';
import { keepScreenshot, waitForIslands } from './helpers';

/**
 * Issue 29 items 4 and 6 (docs/decisions/179, 180): a search with a typo finds the product, the brand
 * filter lists only the brands of what was found with their counts, choosing one narrows the page, and
 * every chosen filter is one click from gone, even on a page that found nothing. Issue 30 (217): the
 * same for a shade family in the option facet.
 */

/** On a phone the filters fold behind a toggle; on a desktop they are open. */
async function openFilters(page: Page): Promise<void> {
  const toggle = page.locator('label[for="filters-toggle"]');
  if (await toggle.isVisible()) await toggle.click();
}

test.describe('search that forgives, filters of what was found', () => {
  test('a typo finds lipsticks; the brand filter lists their brands with counts; choosing one narrows the page', { tag: '@phone' }, async ({ page }, testInfo) => {
    const shots = `search-${testInfo.project.name}`;
    await page.goto('/');
    await waitForIslands(page);
    const box = page.getByPlaceholder('ค้นหาสินค้า');
    await box.fill('ลิปติก');
    await box.press('Enter');
    await expect(page).toHaveURL(`/search/${encodeURIComponent('ลิปติก')}`);
    await expect(page.getByRole('status').filter({ hasText: 'สินค้าที่ใกล้เคียง' })).toBeVisible();
    await expect(page.getByTestId('near-words').getByRole('link', { name: 'ลิปสติก' })).toHaveAttribute('href', `/search/${encodeURIComponent('ลิปสติก')}`);
    const names = await page.locator('.product-card h3').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => name.includes('ลิปสติก'))).toBe(true);
    await keepScreenshot(page, `${shots}-1-typo`);

    await openFilters(page);
    const facets = page.getByTestId('brand-facets');
    await expect(facets).toBeVisible();
    const labels = await facets.locator('label').allTextContents();
    // Only the brands of makeup (Moji, Glow Lab), never all twelve, each with its count.
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.length).toBeLessThanOrEqual(2);
    for (const label of labels) expect(label).toMatch(/^(Moji|Glow Lab) \(\d+\)$/);
    const moji = labels.find((label) => label.startsWith('Moji')) ?? labels[0]!;
    const brand = moji.replace(/ \(\d+\)$/, '');
    const count = Number(/\((\d+)\)/.exec(moji)![1]);
    await expect(page.getByTestId('price-range')).toContainText('฿');
    await keepScreenshot(page, `${shots}-2-filters`);

    await facets.getByLabel(moji).check();
    await page.getByRole('button', { name: 'กรองสินค้า' }).click();
    await expect(page).toHaveURL(/brand=/);
    await expect(page.getByTestId('result-count')).toContainText(`พบสินค้า ${count} รายการ`);
    const brands = await page.locator('.product-card .text-secondary.text-truncate').allTextContents();
    expect(brands.length).toBe(Math.min(count, 24));
    expect(brands.every((name) => name === brand)).toBe(true);
    await keepScreenshot(page, `${shots}-3-brand`);

    // One click takes the brand off again.
    await page.getByRole('link', { name: `เอาแบรนด์ ${brand} ออก` }).click();
    await expect(page).toHaveURL(`/search/${encodeURIComponent('ลิปติก')}`);
    await expect(page.locator('.product-card').first()).toBeVisible();
  });

  test('a shade family ticked in the option facet narrows the cards, kept by the sort links, one click from gone', { tag: '@phone' }, async ({ page }, testInfo) => {
    const shots = `search-${testInfo.project.name}`;
    await page.goto('/product/category/makeup');
    const before = await page.getByTestId('result-count').textContent();
    await openFilters(page);
    const colour = page.locator('[data-testid="option-facets"][data-option="สี"]');
    await expect(colour.locator('legend')).toHaveText('สี');
    const peach = colour.getByLabel(/^ส้ม \(\d+\)$/);
    const label = (await colour.locator('label').filter({ hasText: /^ส้ม \(/ }).textContent()) ?? '';
    const count = Number(/\((\d+)\)/.exec(label)![1]);
    expect(count).toBeGreaterThan(0);
    await keepScreenshot(page, `${shots}-6-options`);

    await peach.check();
    await page.getByRole('button', { name: 'กรองสินค้า' }).click();
    await expect(page).toHaveURL(/option=/);
    expect(new URL(page.url()).searchParams.getAll('option')).toEqual(['สี:ส้ม']);
    await expect(page.getByTestId('result-count')).toContainText(`พบสินค้า ${count} รายการ`);
    expect(await page.getByTestId('result-count').textContent()).not.toBe(before);
    await expect(page.locator('.product-card')).toHaveCount(count);
    // Every card left is a product sold in shades (its colour dots), which makeup's single products are not.
    await expect(page.locator('.product-card .card-dots')).toHaveCount(count);
    await keepScreenshot(page, `${shots}-7-shade`);

    // The sort keeps the chosen shade.
    await page.getByRole('link', { name: 'ราคาต่ำไปสูง' }).click();
    expect(new URL(page.url()).searchParams.getAll('option')).toEqual(['สี:ส้ม']);
    await expect(page.locator('.product-card')).toHaveCount(count);

    await page.getByRole('link', { name: 'เอาสี ส้ม ออก' }).click();
    await expect(page).toHaveURL(/\/product\/category\/makeup\?sort=price_asc$/);
    await expect(page.getByTestId('result-count')).toHaveText(before ?? '');
  });

  test('English and marks typed in another order find the Thai products', async ({ page }) => {
    await page.goto('/search/LIPSTICK');
    await expect(page.locator('.product-card h3').first()).toContainText('ลิปสติก');
    const typed = await page.goto(`/search/${encodeURIComponent('นำ้หอม')}`);
    expect(typed?.status()).toBe(200);
    const typedCount = await page.getByTestId('result-count').textContent();
    await page.goto(`/search/${encodeURIComponent('น้ำหอม')}`);
    await expect(page.getByTestId('result-count')).toHaveText(typedCount ?? '');
  });

  test('a brand from an old link that this category does not carry: an empty page with a one-click way back', { tag: '@phone' }, async ({ page }, testInfo) => {
    await page.goto('/product/category/makeup?brand=minty');
    await expect(page.getByTestId('empty-state')).toBeVisible();
    await keepScreenshot(page, `search-${testInfo.project.name}-4-empty`);
    await page.getByRole('link', { name: 'เอาแบรนด์ Minty ออก' }).click();
    await expect(page).toHaveURL('/product/category/makeup');
    await expect(page.locator('.product-card').first()).toBeVisible();
  });

  test('staff keep the synonyms at /admin/search; a new pair works in the shop at once', async ({ page }, testInfo) => {
    const stamp = `${Date.now() % 100_000_000}`.padStart(8, '0');
    const email = `synonyms-${testInfo.project.name}-${stamp}@e2e.test`;
    const password = 'คำพ้องความหมาย-2569';
    await page.goto('/');
    const origin = { Origin: new URL(page.url()).origin };
    const registered = await page.request.post('/api/member-insert/', {
      data: { firstName: 'พนักงาน', lastName: 'ค้นหา', email, phone: `08${String((Number(stamp) * 13 + (testInfo.project.name === 'phone' ? 7 : 0)) % 100_000_000).padStart(8, '0')}`, password, confirmPassword: password, acceptTerms: true },
      headers: origin,
    });
    expect(registered.status(), await registered.text()).toBe(201);
    await grantRole(email, 'staff');
    const login = await page.request.post('/api/auth/login', { data: { login: email, password }, headers: origin });
    expect(login.status()).toBe(200);

    const word = `ดาวตก${testInfo.project.name === 'phone' ? 'มือถือ' : 'จอใหญ่'}`;
    await page.goto('/admin/search');
    await expect(page.getByTestId('synonyms-table')).toContainText('lipstick');
    await page.getByLabel('คำค้น', { exact: true }).fill(word);
    await page.getByLabel('คำที่มีความหมายเดียวกัน').fill('ลูกโป่ง');
    await page.getByRole('button', { name: 'เพิ่ม', exact: true }).click();
    await expect(page.getByTestId('admin-flash')).toContainText(`เพิ่มคู่คำ “${word}” ⇄ “ลูกโป่ง” แล้ว`);
    await keepScreenshot(page, `search-${testInfo.project.name}-5-admin`);

    await page.goto(`/search/${encodeURIComponent(word)}`);
    await expect(page.locator('.product-card h3').first()).toContainText('ลูกโป่ง');

    await page.goto(`/admin/search?q=${encodeURIComponent(word)}`);
    await page.getByRole('button', { name: `ลบคู่คำ ${word} ⇄ ลูกโป่ง` }).click();
    await expect(page.getByTestId('admin-flash')).toContainText('ลบคู่คำ');
    await page.goto(`/search/${encodeURIComponent(word)}`);
    await expect(page.getByTestId('result-count')).toBeVisible();
    await expect(page.locator('.product-card h3').filter({ hasText: 'ลูกโป่ง' })).toHaveCount(0);
  });
});
