import { expect, test } from '@playwright/test';
import { sampleAddress } from '../fixtures/address';
import { demoVariantPlans } from '../../src/server/db/demo-variants';
import { formatBaht } from '../../src/lib/money';
import { pictureAtLeast } from '../../src/lib/pictures';
import { signUp } from './fixtures/member';
import { staffPage } from './fixtures/roles';
import { pdfPages } from '../fixtures/pdf-text';
import { keepScreenshot, waitForIslands } from './helpers';

/**
 * issue 30 in the browser (docs/decisions/205, 206): the demo's matte lipstick in eight shades. Choosing a
 * shade changes the price, the stock, the code and the address without a page load; a sold-out shade
 * says so; two shades go into the cart as two lines, are ordered, and the order names both.
 */
test('from the card to the shade: price and stock follow, two shades as two lines, ordered, named on the receipt and the packing slip', { tag: '@phone' }, async ({ page, browser }, testInfo) => {
  test.setTimeout(150_000);
  const lipstick = demoVariantPlans(360).find((plan) => plan.name === 'ลิปสติกเนื้อแมตต์')!;
  const values = lipstick.values;
  // Each project orders shades of its own, so neither sees the other's order in a stock figure.
  const phone = testInfo.project.name === 'phone';
  const [own, brick] = [values[0]!, values[2]!];
  const [nude, rosewood] = phone ? [values[4]!, values[7]!] : [values[1]!, values[3]!];
  expect(brick.stock).toBe(0);
  expect(rosewood.priceSatang).not.toBe(own.priceSatang);

  // The card: one product, its lowest price as "from", its shades as dots, chosen on its page.
  await page.goto(`/search?q=${encodeURIComponent('ลิปสติกเนื้อแมตต์')}`);
  const card = page.locator(`article.product-card[data-product-code="${lipstick.code}"]`);
  await expect(card).toHaveCount(1);
  await expect(card.locator('.text-price')).toHaveText(`เริ่มต้น ${formatBaht(Math.min(...values.map((value) => value.priceSatang)))}`);
  await expect(card.getByRole('img', { name: `มี ${values.length} สี` })).toBeVisible();
  await keepScreenshot(page, `variants-card-${testInfo.project.name}`, { fullPage: false });
  await card.getByRole('link', { name: 'เลือกตัวเลือกของ ลิปสติกเนื้อแมตต์' }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${lipstick.code}$`));
  await waitForIslands(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ลิปสติกเนื้อแมตต์');
  const shades = page.getByRole('group', { name: /^สี/ });
  await expect(shades.getByRole('radio', { name: new RegExp(own.value) })).toBeChecked();
  await expect(page.locator('[data-variant-code]')).toHaveText(own.code);
  const price = page.getByTestId('product-price');
  await expect(price).toContainText(formatBaht(own.priceSatang));

  // A limited shade costs more and has its own stock and picture; the address names it, the page did not
  // load again. The shade's picture is shown even though the shopper had opened another one.
  const pictures = new Map(
    (JSON.parse((await page.locator('[data-variant-picker]').getAttribute('data-variants')) ?? '[]') as { code: string; image: string }[]).map((variant) => [variant.code, variant.image]),
  );
  const rosewoodPicture = pictures.get(rosewood.code)!;
  expect(rosewoodPicture).not.toBe(pictures.get(own.code));
  await page.locator('label[for="product-image-2"]').click();
  await expect(page.locator('.gallery-image-2')).toBeVisible();
  await page.evaluate(() => ((window as unknown as { picked: boolean }).picked = true));
  await shades.locator('label', { hasText: rosewood.value }).click();
  await expect(page.locator('.gallery-image-0')).toHaveAttribute('src', rosewoodPicture);
  await expect(page.locator('.gallery-image-0')).toBeVisible();
  await expect(page.locator('.gallery-image-2')).toBeHidden();
  await expect(page.locator('.gallery-thumb-0 img')).toHaveAttribute('src', pictureAtLeast(rosewoodPicture, 144));
  await expect(page).toHaveURL(new RegExp(`\\?variant=${rosewood.code}$`));
  await expect(price).toContainText(formatBaht(rosewood.priceSatang));
  await expect(page.getByText(`มีสินค้า ${rosewood.stock.toLocaleString('th-TH')} ชิ้น`)).toBeVisible();
  await expect(page.locator('[data-variant-code]')).toHaveText(rosewood.code);
  expect(await page.evaluate(() => (window as unknown as { picked?: boolean }).picked)).toBe(true);

  // A sold-out shade is shown as such and cannot be added.
  await expect(shades.locator('label', { hasText: brick.value })).toContainText('(หมด)');
  await shades.locator('label', { hasText: brick.value }).click();
  await expect(page.getByRole('button', { name: 'สินค้าหมด' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'หยิบใส่ตะกร้า' })).toBeHidden();

  // Two shades, two cart lines named by their shade.
  await shades.locator('label', { hasText: rosewood.value }).click();
  await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
  await expect(page.getByRole('status').filter({ hasText: `ลิปสติกเนื้อแมตต์ — สี${rosewood.value}` })).toBeVisible();
  await shades.locator('label', { hasText: nude.value }).click();
  await expect(page).toHaveURL(new RegExp(`\\?variant=${nude.code}$`));
  await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
  await expect(page.getByRole('status').filter({ hasText: `ลิปสติกเนื้อแมตต์ — สี${nude.value}` })).toBeVisible();

  await page.goto('/cart');
  await waitForIslands(page);
  await expect(page.locator('.cart-line')).toHaveCount(2);
  await expect(page.locator(`.cart-line[data-product-code="${rosewood.code}"]`)).toContainText(`ลิปสติกเนื้อแมตต์ — สี${rosewood.value}`);
  await expect(page.locator(`.cart-line[data-product-code="${nude.code}"]`)).toContainText(`ลิปสติกเนื้อแมตต์ — สี${nude.value}`);

  // Ordered: the order names both shades.
  await signUp(page, testInfo, 'variants');
  const address = await page.request.post('/api/user/addresses', { data: { ...sampleAddress, isDefault: true } });
  expect(address.status(), await address.text()).toBe(201);
  await page.goto('/order');
  await waitForIslands(page);
  await page.getByRole('radio', { name: /Flash Express/ }).check();
  await page.getByRole('radio', { name: 'เก็บเงินปลายทาง' }).check();
  await page.getByRole('button', { name: 'ยืนยันการสั่งซื้อ' }).click();
  await expect(page).toHaveURL(/\/order\/success\?no=/);
  for (const shade of [rosewood, nude]) await expect(page.getByText(`ลิปสติกเนื้อแมตต์ — สี${shade.value}`)).toBeVisible();
  const orderNo = new URL(page.url()).searchParams.get('no')!;

  // Shipped and delivered (cash collected: the receipt is issued), the documents staff print name both
  // shades, read back from the PDFs.
  const staff = await staffPage(browser, testInfo);
  const origin = new URL(page.url()).origin;
  for (const data of [{ no: orderNo, action: 'ship', carrier: 'Flash Express', tracking_no: `TH${Date.now()}` }, { no: orderNo, action: 'deliver' }]) {
    const changed = await staff.request.post('/api/order-status-update', { data, headers: { Origin: origin } });
    expect(changed.status(), await changed.text()).toBe(200);
  }
  for (const path of [`/admin/orders/${orderNo}/receipt.pdf`, `/admin/orders/packing-slips.pdf?no=${orderNo}`]) {
    const response = await staff.request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    const text = (await pdfPages(new Uint8Array(await response.body()))).join('\n');
    for (const shade of [rosewood, nude]) expect(text, path).toContain(shade.code);
    for (const shade of [rosewood, nude]) expect(text.replace(/\s+/g, ''), path).toContain(`ลิปสติกเนื้อแมตต์—สี${shade.value}`);
  }
  await staff.context().close();
});

test('without JavaScript the picker is a form: choosing a shade and pressing ดูตัวเลือกนี้ shows it', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const lipstick = demoVariantPlans(360).find((plan) => plan.name === 'ลิปสติกเนื้อแมตต์')!;
  const nude = lipstick.values[1]!;
  await page.goto(`/product/${lipstick.code}`);
  await page.getByRole('group', { name: /^สี/ }).locator('label', { hasText: nude.value }).click();
  await page.getByRole('button', { name: 'ดูตัวเลือกนี้' }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${lipstick.code}\\?o1=`));
  await expect(page.locator('[data-variant-code]')).toHaveText(nude.code);
  await expect(page.getByRole('group', { name: /^สี/ }).getByRole('radio', { name: new RegExp(nude.value) })).toBeChecked();
  // The canonical address stays the product's.
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/product/${lipstick.code}$`));
  await context.close();
});
