import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { grantRole } from './fixtures/roles';
import { keepScreenshot, waitForIslands } from './helpers';

/**
 * The catalog back office end to end (issue 10): staff add a product with two pictures and three
 * wholesale tiers; it shows in its category, in Thai search and on its page (WebP + srcset, the tier
 * table); a price change is on the page at the next load; hiding it makes the page 404.
 */
const PASSWORD = 'ต้นไม้ใหญ่ให้ร่มเงา';
// Apart per worker too: tests of one file run side by side now (playwright.config.ts).
let sequence = Number(process.env.TEST_PARALLEL_INDEX ?? 0) * 1_000;

async function memberWithRole(page: Page, project: string, role: 'staff' | 'editor' | null) {
  sequence += 1;
  const stamp = `${Date.now() % 100_000_000}`.padStart(8, '0');
  const email = `admin-${project}-${stamp}-${sequence}@e2e.test`;
  const phone = `06${`${(Number(stamp) * 3 + sequence * 17 + (project === 'phone' ? 7 : 0)) % 100_000_000}`.padStart(8, '0')}`;
  const origin = { Origin: new URL(test.info().project.use.baseURL as string).origin };
  const registered = await page.request.post('/api/member-insert/', {
    data: { firstName: 'สมศรี', lastName: 'หลังร้าน', email, phone, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true },
    headers: origin,
  });
  expect(registered.status(), await registered.text()).toBe(201);
  await page.context().clearCookies();
  if (role) await grantRole(email, role);
  const login = await page.request.post('/api/auth/login', { data: { login: email, password: PASSWORD }, headers: origin });
  expect(login.status(), await login.text()).toBe(200);
  return email;
}

async function picture(colour: string, width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#fff"/></svg>`) }])
    .jpeg()
    .toBuffer();
}

test.describe('catalog back office', () => {
  test('staff add a product with two pictures and three tiers; the shop shows it; price change; hide → 404', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const project = testInfo.project.name;
    await memberWithRole(page, project, 'staff');
    const code = `E2E-${project.toUpperCase()}-${Date.now() % 1_000_000}`;
    // A Thai word no demo product uses, so search finds exactly this one.
    const keyword = project === 'phone' ? 'ช้างเผือกมือถือ' : 'ช้างเผือกเดสก์ท็อป';
    const name = `แก้วมัคลาย${keyword}`;

    await page.goto('/admin/products/new');
    await waitForIslands(page);
    await page.getByLabel('ชื่อสินค้า', { exact: true }).fill(name);
    await page.getByLabel('รหัสสินค้า').fill(code);
    await expect(page.locator('#product-code-feedback')).toHaveText('ใช้รหัสนี้ได้');
    await page.getByLabel('หมวดหมู่').selectOption({ label: 'ของขวัญ' });
    await page.getByLabel('ราคา (บาท)').fill('250');
    await page.getByLabel('คงเหลือ').fill('40');
    await page.getByLabel('รายละเอียด').fill('แก้วมัคเซรามิก ลายช้างเผือก สกรีนชื่อได้');
    for (const [index, [min, price]] of [['10', '230'], ['50', '210'], ['100', '190']].entries()) {
      await page.getByRole('button', { name: '+ เพิ่มขั้นราคาส่ง' }).click();
      await page.getByLabel(`ราคาส่งแถวที่ ${index + 1} ตั้งแต่จำนวน`).fill(min as string);
      await page.getByLabel(`ราคาส่งแถวที่ ${index + 1} ราคาต่อหน่วย`).fill(price as string);
    }
    await page.locator('#picture-files').setInputFiles([
      { name: 'front.jpg', mimeType: 'image/jpeg', buffer: await picture('#ffd000', 1600, 1200) },
      { name: 'side.jpg', mimeType: 'image/jpeg', buffer: await picture('#408de5', 900, 900) },
    ]);
    const thumbs = page.getByTestId('picture-manager').locator('ol img');
    await expect(thumbs).toHaveCount(2);
    await page.getByLabel('คำอธิบายรูปที่ 1').fill('แก้วมัคด้านหน้า');
    await keepScreenshot(page, `product-form-${project}`);
    await page.getByRole('button', { name: 'บันทึก', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/products/${code}\\?saved=1$`));
    await expect(page.getByTestId('admin-flash')).toContainText(code);

    // In its category listing (newest first), in Thai search, and on its page.
    await page.goto('/product/category/gifts');
    await expect(page.locator(`[data-product-code="${code}"]`).first()).toBeVisible();
    await page.goto(`/search/${encodeURIComponent(keyword)}`);
    await expect(page.locator(`article[data-product-code="${code}"]`)).toHaveCount(1);
    await page.goto(`/product/${code}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    const images = page.locator('.product-main-image img');
    await expect(images).toHaveCount(2);
    for (const image of await images.all()) {
      await expect(image).toHaveAttribute('src', /^\/media\/products\/[a-f0-9]{24}-\d+\.webp$/);
      await expect(image).toHaveAttribute('srcset', /-320\.webp 320w, .*-640\.webp 640w/);
      await expect(image).toHaveAttribute('width', /^\d+$/);
    }
    await expect(images.first()).toHaveAttribute('alt', 'แก้วมัคด้านหน้า');
    await expect(images.first()).toHaveAttribute('height', '960');
    const mediaResponse = await page.request.get((await images.first().getAttribute('src')) as string);
    expect(mediaResponse.headers()['content-type']).toBe('image/webp');
    // The retail row, then the three tiers.
    await expect(page.locator('.tier-table tbody tr')).toHaveCount(4);
    await expect(page.locator('.tier-table tbody')).toContainText('฿230');
    await expect(page.locator('.tier-table tbody')).toContainText('฿190');
    await expect(page.getByTestId('product-price')).toContainText('฿250');

    // A price change is on the product page at the next load.
    await page.goto(`/admin/products/${code}`);
    await waitForIslands(page);
    await page.getByLabel('ราคา (บาท)').fill('260');
    await page.getByRole('button', { name: 'บันทึก', exact: true }).click();
    await expect(page).toHaveURL(/\?saved=1$/);
    await page.goto(`/product/${code}`);
    await expect(page.getByTestId('product-price')).toContainText('฿260');

    // Hidden: its page is gone.
    await page.goto(`/admin/products/${code}`);
    await waitForIslands(page);
    await page.getByLabel('แสดงในหน้าร้าน').uncheck();
    await page.getByRole('button', { name: 'บันทึก', exact: true }).click();
    await expect(page).toHaveURL(/\?saved=1$/);
    const hidden = await page.goto(`/product/${code}`);
    expect(hidden?.status()).toBe(404);

    // The product list finds it (hidden) and quick-edits its stock from the row.
    await page.goto(`/admin/products?q=${encodeURIComponent(keyword)}`);
    const row = page.locator(`tr[data-product-code="${code}"]`);
    await expect(row).toContainText('ซ่อนอยู่');
    await row.getByLabel(/^คงเหลือของ/).fill('45');
    await row.getByRole('button', { name: /^บันทึก/ }).click();
    await expect(page.getByTestId('admin-flash')).toContainText(`บันทึก ${code} แล้ว`);
    await expect(page.locator(`tr[data-product-code="${code}"]`).getByLabel(/^คงเหลือของ/)).toHaveValue('45');
    await page.goto(`/admin/products/${code}/stock`);
    await expect(page.getByTestId('stock-now')).toHaveText('45');
    await expect(page.locator('tbody tr[data-kind]')).toHaveCount(2);
  });

  test('a stock larger than a cart line takes: the product page stepper stops at 9,999', async ({ page }, testInfo) => {
    await memberWithRole(page, testInfo.project.name, 'staff');
    // A product of its own per project: the projects run side by side.
    const code = testInfo.project.name === 'phone' ? 'P00348' : 'P00349';
    const setStock = async (stock: string) => {
      await page.goto(`/admin/products?q=${code}`);
      const row = page.locator(`tr[data-product-code="${code}"]`);
      const field = row.getByLabel(/^คงเหลือของ/);
      const before = await field.inputValue();
      await field.fill(stock);
      await row.getByRole('button', { name: /^บันทึก/ }).click();
      await expect(page.getByTestId('admin-flash')).toContainText(`บันทึก ${code} แล้ว`);
      return before;
    };
    const original = await setStock('20000');
    try {
      await page.goto(`/product/${code}`);
      await expect(page.getByText('มีสินค้า 20,000 ชิ้น')).toBeVisible();
      const amount = page.getByLabel('จำนวน', { exact: true });
      const plus = page.getByRole('button', { name: 'เพิ่มจำนวน' });
      await expect(amount).toBeEnabled();
      await amount.fill('9998');
      await amount.press('Enter');
      await plus.click();
      await expect(amount).toHaveValue('9999');
      // The cart takes at most 9,999 of one product on a line, so the stepper offers no more.
      await expect(plus).toBeDisabled();
      await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'จำนวน 9,999 ชิ้น ลงตะกร้าแล้ว' })).toBeVisible();
    } finally {
      await setStock(original);
    }
  });

  test('the product list pages on the server; screenshots of the list', { tag: '@phone' }, async ({ page }, testInfo) => {
    await memberWithRole(page, testInfo.project.name, 'staff');
    await page.goto('/admin/products?sort=price_desc');
    await expect(page.getByRole('heading', { level: 1, name: 'สินค้า' })).toBeVisible();
    await expect(page.locator('tbody tr[data-product-code]')).toHaveCount(50);
    await keepScreenshot(page, `product-list-${testInfo.project.name}`, { fullPage: false });
    await page.getByRole('link', { name: 'หน้า 2' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page).toHaveURL(/sort=price_desc/);
    await page.goto('/admin/categories');
    await expect(page.locator('li[data-category]')).toHaveCount(13);
    await keepScreenshot(page, `categories-${testInfo.project.name}`, { fullPage: false });
  });

  test('CSV import: the dry run lists the bad row with its line, apply shows progress, the shop has the products', async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const project = testInfo.project.name;
    await memberWithRole(page, project, 'staff');
    const stamp = `${project === 'phone' ? 'P' : 'D'}${Date.now() % 1_000_000}`;
    const csv = [
      'code,name,category,price,stock,tiers',
      `CSV-${stamp}-1,ถุงผ้าลายช้างนำเข้า ${stamp},bags,159,20,10:139;50:119`,
      `CSV-${stamp}-2,สมุดโน้ตนำเข้า ${stamp},stationery,ห้าสิบ,5,`,
      `CSV-${stamp}-3,ปากกานำเข้า ${stamp},stationery,25,100,`,
    ].join('\r\n');
    await page.goto('/admin/import');
    await page.getByLabel('ไฟล์ CSV', { exact: true }).setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`) });
    await page.getByRole('button', { name: 'ตรวจสอบไฟล์' }).click();
    await expect(page.getByTestId('import-error-count')).toHaveText('1');
    const report = page.getByTestId('import-report');
    await expect(report.locator('tbody tr')).toHaveCount(1);
    await expect(report.locator('tbody tr td').first()).toHaveText('3');
    await expect(report.locator('tbody')).toContainText('ไม่ใช่ตัวเลขที่ถูกต้อง');
    await waitForIslands(page);
    await keepScreenshot(page, `import-${project}`);
    await page.getByRole('button', { name: 'นำเข้า 2 รายการ' }).click();
    await expect(page.getByRole('heading', { name: /ผลการนำเข้า/ })).toBeVisible();
    await expect(report).toContainText('เพิ่มแล้ว 2');
    await page.goto(`/product/CSV-${stamp}-1`);
    await expect(page.getByTestId('product-price')).toContainText('฿159');
    expect((await page.request.get(`/product/CSV-${stamp}-2`)).status()).toBe(404);
  });

  test('CSV import page: says how formula cells are guarded, and reads a Thai Windows-874 file, saying so', async ({ page }, testInfo) => {
    const project = testInfo.project.name;
    await memberWithRole(page, project, 'staff');
    await page.goto('/admin/import');
    await expect(page.getByTestId('export-formula-note')).toContainText("จะมีเครื่องหมาย ' นำหน้า");
    await expect(page.getByTestId('export-formula-note')).toContainText('กลับเป็นเหมือนเดิม');
    const stamp = `${project === 'phone' ? 'P' : 'D'}${Date.now() % 1_000_000}`;
    const csv = `code,name,category,price\r\nTIS-${stamp},ถุงผ้าลายช้าง,bags,99\r\n`;
    // Windows-874 (TIS-620): Thai U+0E01..U+0E5B is the byte codepoint - 0x0E00 + 0xA0; ASCII is itself.
    const bytes = Buffer.from([...csv].map((char) => {
      const code = char.codePointAt(0) as number;
      return code < 0x80 ? code : code - 0x0e00 + 0xa0;
    }));
    await page.getByLabel('ไฟล์ CSV', { exact: true }).setInputFiles({ name: 'thai-874.csv', mimeType: 'text/csv', buffer: bytes });
    await page.getByRole('button', { name: 'ตรวจสอบไฟล์' }).click();
    await expect(page.getByTestId('import-encoding')).toContainText('Windows-874 (ภาษาไทย Windows)');
    await expect(page.getByTestId('import-error-count')).toHaveText('0');
  });

  test('who may open the catalog pages: nobody without a role (404), editors get 403', async ({ page }, testInfo) => {
    for (const path of ['/admin/products', '/admin/products/new', '/admin/categories', '/admin/brands', '/admin/search', '/admin/import']) {
      expect((await page.request.get(path)).status(), path).toBe(404);
    }
    await memberWithRole(page, testInfo.project.name, null);
    expect((await page.request.get('/admin/products')).status()).toBe(404);
    await page.context().clearCookies();
    await memberWithRole(page, testInfo.project.name, 'editor');
    for (const path of ['/admin/products', '/admin/products/P00001', '/admin/products/P00001/stock', '/admin/categories', '/admin/brands', '/admin/search', '/admin/import']) {
      expect((await page.request.get(path)).status(), path).toBe(403);
    }
  });
});
