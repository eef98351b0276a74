import { expect, test, type Page } from '@playwright/test';
import { waitForIslands, withShopWideState } from './helpers';

/** Catalog pages of docs/design.md section 4 (issue 3), on desktop and phone. */

async function openFilters(page: Page) {
  const toggle = page.locator('label.filters-toggle-label');
  if (await toggle.isVisible()) await toggle.click();
}

function bahtOf(text: string): number {
  return Number(text.replace(/[^0-9.]/g, ''));
}

test.describe('catalog', () => {
  test('home → category → brand and price filter → sort → page 2 → product → related product', { tag: '@phone' }, async ({ page }) => {
    await page.goto('/');
    await page.getByRole('region', { name: 'ประเภทสินค้า' }).getByRole('link', { name: 'เครื่องสำอาง' }).click();
    await expect(page).toHaveURL(/\/product\/category\/makeup$/);
    await expect(page.getByRole('heading', { level: 1, name: 'เครื่องสำอาง' })).toBeVisible();

    await openFilters(page);
    await page.getByLabel('Moji').check();
    await page.getByLabel('Glow Lab').check();
    await page.getByLabel('ราคาต่ำสุด').fill('50');
    await page.getByLabel('ราคาสูงสุด').fill('700');
    await page.getByRole('button', { name: 'กรองสินค้า' }).click();
    await expect(page).toHaveURL(/brand=moji/);
    await expect(page).toHaveURL(/brand=glow-lab/);
    await expect(page).toHaveURL(/min=50&max=700/);
    await expect(page.getByTestId('result-count')).toContainText('พบสินค้า 25 รายการ');

    await page.getByRole('navigation', { name: 'เรียงลำดับ' }).getByRole('link', { name: 'ราคาต่ำไปสูง' }).click();
    await expect(page).toHaveURL(/sort=price_asc/);
    await expect(page).toHaveURL(/brand=moji/);
    const prices = (await page.locator('.product-card .text-price').allTextContents()).map(bahtOf);
    expect(prices.length).toBe(24);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(prices.every((price) => price >= 50 && price <= 700)).toBe(true);
    const brands = await page.locator('.product-card .text-secondary.text-truncate').allTextContents();
    expect(brands.every((brand) => brand === 'Moji' || brand === 'Glow Lab')).toBe(true);

    await page.getByRole('navigation', { name: 'เลขหน้า' }).getByRole('link', { name: 'หน้า 2' }).click();
    await expect(page).toHaveURL(/\/product\/category\/page\/2\?/);
    await expect(page).toHaveURL(/category=makeup/);
    await expect(page).toHaveURL(/sort=price_asc/);
    await expect(page).toHaveURL(/min=50/);
    await expect(page.getByTestId('result-count')).toContainText('พบสินค้า 25 รายการ');
    const lastPrice = bahtOf((await page.locator('.product-card .text-price').first().textContent()) ?? '');
    expect(lastPrice).toBeGreaterThanOrEqual(prices[prices.length - 1] as number);

    const card = page.locator('.product-card').first();
    const name = (await card.locator('h3').textContent())?.trim() ?? '';
    await card.locator('h3 a').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await expect(page.getByRole('navigation', { name: 'breadcrumb' }).getByRole('link', { name: 'เครื่องสำอาง' })).toBeVisible();

    const related = page.getByRole('region', { name: 'สินค้าที่เกี่ยวข้อง' }).locator('.product-card h3 a').first();
    const relatedName = (await related.textContent())?.trim() ?? '';
    await related.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(relatedName);
  });

  test('the product page shows tiers, stock, JSON-LD and adds the chosen quantity to the cart', { tag: '@phone' }, async ({ page }) => {
    const response = await page.goto('/product/P00003');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['set-cookie']).toBeUndefined();
    // (Generated as a tint in berry; the tint is one product in shades now, so this one took its category's next free name.)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('พาเลตต์อายแชโดว์ สีชมพูนู้ด');
    await expect(page.getByTestId('product-price')).toContainText('฿250');
    const tiers = page.locator('table.tier-table tbody tr');
    await expect(tiers).toHaveCount(3);
    await expect(tiers.nth(0)).toContainText('1–11');
    await expect(tiers.nth(2)).toContainText('ขึ้นไป');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/product\/P00003$/);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'product');
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '[]') as { '@type': string }[];
    expect(ld.map((item) => item['@type'])).toEqual(['Product', 'BreadcrumbList']);

    await expect(page.locator('.gallery-image-0')).toBeVisible();
    await page.locator('label.gallery-thumb-1').click();
    await expect(page.locator('.gallery-image-1')).toBeVisible();
    await expect(page.locator('.gallery-image-0')).toBeHidden();

    await waitForIslands(page);
    await page.getByRole('button', { name: 'เพิ่มจำนวน' }).click();
    await page.getByRole('button', { name: 'เพิ่มจำนวน' }).click();
    await expect(page.getByLabel('จำนวน', { exact: true })).toHaveValue('3');
    await page.getByRole('button', { name: 'ลดจำนวน' }).click();
    await expect(page.getByLabel('จำนวน', { exact: true })).toHaveValue('2');
    await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
    // The badge counts lines (one product), like Shopee and Lazada (decision 041).
    await expect(page.getByTestId('cart-count').first()).toHaveText('1');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('shoppingCart') ?? '[]'));
    expect(stored).toEqual([expect.objectContaining({ product_code: 'P00003', amount: 2, product_price: 250 })]);
  });

  test('a typed amount counts without leaving the field, and the price line follows the wholesale tiers', async ({ page }) => {
    await page.goto('/product/P00003');
    await page.evaluate(() => localStorage.removeItem('shoppingCart'));
    const amount = page.getByLabel('จำนวน', { exact: true });
    const priceLine = page.getByTestId('add-to-cart-price');
    await expect(amount).toBeEnabled();
    // Retail 250 for 1–11; the first tier starts at 12.
    await expect(priceLine).toContainText('ซื้อเพิ่มอีก 11 ชิ้น');
    await amount.fill('12');
    await amount.press('Enter');
    // The next note is about the following tier now.
    await expect(priceLine).not.toContainText('ซื้อเพิ่มอีก 11 ชิ้น');
    await expect(priceLine).toContainText(/ซื้อเพิ่มอีก \d+ ชิ้น ราคาชิ้นละ/);
    const unit = bahtOf((await priceLine.locator('.text-price').first().textContent()) ?? '');
    expect(unit).toBeLessThan(250);
    expect(bahtOf((await priceLine.locator('strong').textContent()) ?? '')).toBe(unit * 12);
    await expect(page.getByRole('button', { name: 'ลดจำนวน' })).toBeEnabled();

    // Letters are not an amount: the field keeps the last one.
    await amount.fill('abc');
    await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'จำนวน 12 ชิ้น ลงตะกร้าแล้ว' })).toBeVisible();
    await amount.fill('3');
    await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'จำนวน 3 ชิ้น ลงตะกร้าแล้ว' })).toBeVisible();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('shoppingCart') ?? '[]'));
    expect(stored).toEqual([expect.objectContaining({ product_code: 'P00003', amount: 15, product_price: unit })]);
    const toastSlot = page.locator('.cart-toast-slot');
    await toastSlot.getByRole('button', { name: 'ปิด' }).click();
    await expect(toastSlot.locator('.toast')).toHaveCount(0);
  });

  test('a sold-out product cannot be bought', async ({ page }) => {
    await page.goto('/product/P00216');
    await expect(page.getByRole('button', { name: 'สินค้าหมด' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'หยิบใส่ตะกร้า' })).toHaveCount(0);
  });

  test('listings work without JavaScript: GET filters keep each other across pages', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    // The demo's 360 products and 28 gifts, plus any the back-office tests have added meanwhile.
    const found = async () => Number((await page.getByTestId('result-count').textContent())?.match(/พบสินค้า ([\d,]+) รายการ/)?.[1]?.replace(/,/g, '') ?? NaN);
    await page.goto('/product');
    expect(await found()).toBeGreaterThanOrEqual(360);
    await openFilters(page);
    await page.getByRole('combobox', { name: 'ประเภทสินค้า' }).selectOption('gifts');
    await page.getByRole('button', { name: 'กรองสินค้า' }).click();
    await expect(page).toHaveURL(/\/product\?category=gifts&min=&max=$/);
    const gifts = await found();
    expect(gifts).toBeGreaterThanOrEqual(28);
    expect(gifts).toBeLessThanOrEqual(48);
    await page.getByRole('navigation', { name: 'เลขหน้า' }).getByRole('link', { name: 'หน้า 2' }).click();
    await expect(page).toHaveURL(/\/product\/category\/page\/2\?category=gifts$/);
    await expect(page.locator('.product-card')).toHaveCount(gifts - 24);
    await context.close();
  });

  test('an empty result helps: clear filters and other categories', async ({ page }) => {
    await page.goto('/product/category/makeup?min=5000');
    await expect(page.getByTestId('empty-state')).toBeVisible();
    await expect(page.getByTestId('result-count')).toHaveText('ไม่พบสินค้า');
    await page.getByTestId('empty-state').getByRole('link', { name: 'ล้างตัวกรอง' }).click();
    await expect(page).toHaveURL(/\/product\/category\/makeup$/);
    await expect(page.locator('.product-card').first()).toBeVisible();
  });

  test('malformed filters answer 400 with a Thai message, never 500', async ({ page }) => {
    const response = await page.goto('/product?min=abc');
    expect(response?.status()).toBe(400);
    await expect(page.getByRole('alert')).toContainText('ราคาต่ำสุด');
    const range = await page.goto('/product?min=500&max=100');
    expect(range?.status()).toBe(400);
  });

  test('promotions: active first, then upcoming; ended and used-up marked; used-up not on the home page', async ({ page }) => {
    await page.goto('/promotions');
    const states = await page.locator('[data-promotion]').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-state')));
    expect(states.slice(0, 3)).toEqual(['active', 'active', 'active']);
    expect(states[3]).toBe('upcoming');
    await expect(page.locator('[data-promotion="SONGKRAN"]')).toContainText('สิ้นสุดแล้ว');
    await expect(page.locator('[data-promotion="FLASH99"]')).toContainText('สิทธิ์เต็มแล้ว');
    await page.locator('[data-promotion="GIFT50"] h2 a').click();
    await expect(page).toHaveURL(/\/promotions\/GIFT50$/);
    await expect(page.locator('.product-card').first()).toBeVisible();
    await page.goto('/');
    const banners = page.getByRole('region', { name: 'โปรโมชั่น' });
    await expect(banners.locator('a[href="/promotions/GIFT50"]')).toHaveCount(1);
    await expect(banners.locator('a[href="/promotions/FLASH99"]')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'แกลเลอรีผลงาน' }).locator('a.card')).toHaveCount(4);
  });

  test('content pages come from Markdown with company values filled in', async ({ page }) => {
    test.setTimeout(150_000);
    await withShopWideState(async () => {
      await page.goto('/aboutus');
      await expect(page.getByText('เริ่มจากร้านเล็ก ๆ ย่านบางรัก')).toBeVisible();
      await expect(page.locator('.content-body')).toContainText('โทร 081-234-5678 · LINE @yimlamai');
      await expect(page.locator('.content-body')).not.toContainText('{{');
      await expect(page.locator('.job-post')).toHaveCount(2);
      await page.goto('/address');
      await expect(page.locator('.content-body')).toContainText('123/45 ถนนพระรามที่ 4');
      await expect(page.getByRole('link', { name: 'เปิดแผนที่ Google Maps' })).toHaveAttribute('href', /google\.com\/maps/);
      await page.goto('/contact');
      await expect(page.locator('.content-body').getByRole('link', { name: '081-234-5678' })).toHaveAttribute('href', 'tel:0812345678');
      await page.goto('/howtoorder');
      await expect(page.getByRole('heading', { level: 1, name: 'วิธีการสั่งซื้อ' })).toBeVisible();
    });
  });

  test('every catalog route answers 200, unknown codes 404', async ({ request }) => {
    const ok = [
      '/', '/home', '/product', '/product/category', '/product/category/gifts', '/product/category/page', '/product/category/page/2?category=gifts',
      '/product/P00001', `/search/${encodeURIComponent('ลิป')}`, '/search', `/search/page/2?q=${encodeURIComponent('ของ')}`, '/search/page',
      '/promotions', '/promotions/WELCOME10', '/promotions/SONGKRAN', '/gallery', '/gallery/our-shop',
      '/aboutus', '/howtoorder', '/contact', '/address', '/sitemap.xml', '/sitemaps/pages.xml', '/sitemaps/products-1.xml', '/robots.txt',
    ];
    for (const path of ok) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      expect(response.headers()['set-cookie'], path).toBeUndefined();
    }
    for (const path of ['/product/NOPE', '/product/category/nope', '/promotions/NOPE', '/gallery/nope', '/sitemaps/products-99.xml', '/product/category/page/2?category=nope']) {
      expect((await request.get(path)).status(), path).toBe(404);
    }
    const sitemap = await (await request.get('/sitemaps/pages.xml')).text();
    expect(sitemap).toContain('/product/category/makeup</loc>');
    expect(sitemap).toContain('/promotions/WELCOME10</loc>');
    const products = await (await request.get('/sitemaps/products-1.xml')).text();
    expect(products.match(/<url>/g)?.length).toBeGreaterThanOrEqual(360);
    expect(products).toContain('/product/P00001</loc>');
    expect(products).toContain('/product/P00360</loc>');
    expect(await (await request.get('/robots.txt')).text()).toMatch(/Sitemap: http.*\/sitemap\.xml/);
  });

  test('catalog pages are served from the route cache the second time', async ({ request }) => {
    const path = '/product/category/dolls?sort=name';
    const first = await request.get(path);
    expect(first.status()).toBe(200);
    const second = await request.get(path);
    expect(['HIT', 'STALE']).toContain(second.headers()['x-astro-cache']);
  });
});
