import { expect, test, type Page } from '@playwright/test';
import { parse } from 'promptparse';
import { readQr } from '../fixtures/qr-picture';
import { newSlipRef, slipPayload, slipPicture } from '../fixtures/slips';
import { staffPage } from './fixtures/roles';
import { keepScreenshot, waitForIslands } from './helpers';

/**
 * Issue 29's whole path in one go, phone first (390 × 844) and on a desktop, against the built server:
 * a visitor searches with a typo, filters by a brand of what was found, puts a product in the cart,
 * signs up from checkout and is back at checkout, adds a first address, pays by PromptPay (the saved QR
 * picture decoded here: amount and CRC), sends a slip, sees "รอตรวจสอบสลิป", staff confirm and ship, and
 * the member presses ได้รับสินค้าแล้ว. `E2E_SHOTS=folder` keeps a screenshot of every step.
 */

const PASSWORD = 'เส้นทางเดียวไม่มีสะดุด';

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

async function openFilters(page: Page): Promise<void> {
  const toggle = page.locator('label[for="filters-toggle"]');
  if (await toggle.isVisible()) await toggle.click();
}

test('search with a typo → brand → cart → sign up at checkout → first address → PromptPay QR saved → slip → staff ship → received', { tag: '@phone' }, async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  if (project === 'phone') await page.setViewportSize({ width: 390, height: 844 });
  const shot = (step: string) => keepScreenshot(page, `journey-${project}-${step}`);
  const origin = new URL(testInfo.project.use.baseURL!).origin;

  // 1. A search with one letter off still finds lipsticks.
  await page.goto('/');
  await waitForIslands(page);
  const box = page.getByPlaceholder('ค้นหาสินค้า');
  await box.fill('ลิปติก');
  await box.press('Enter');
  await expect(page).toHaveURL(`/search/${encodeURIComponent('ลิปติก')}`);
  await expect(page.locator('.product-card').first()).toBeVisible();
  await shot('1-search');

  // 2. The brand filter lists only the brands found; one of them narrows the page.
  await openFilters(page);
  const facets = page.getByTestId('brand-facets');
  const labels = await facets.locator('label').allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  const chosen = labels[project === 'phone' ? labels.length - 1 : 0]!;
  const brand = chosen.replace(/ \(\d+\)$/, '');
  await facets.getByLabel(chosen).check();
  await page.getByRole('button', { name: 'กรองสินค้า' }).click();
  await expect(page).toHaveURL(/brand=/);
  const brands = await page.locator('.product-card .text-secondary.text-truncate').allTextContents();
  expect(brands.length).toBeGreaterThan(0);
  expect(brands.every((name) => name === brand)).toBe(true);
  await shot('2-brand');

  // 3. Into the cart from the product page.
  await page.locator('.product-card a').first().click();
  await expect(page).toHaveURL(/\/product\/P\d+/);
  await waitForIslands(page);
  const productName = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
  await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
  await page.goto('/cart');
  await waitForIslands(page);
  await expect(page.getByRole('main')).toContainText(productName);
  await shot('3-cart');

  // 4. Checkout asks a visitor to sign in; signing up instead comes back to checkout.
  await page.getByRole('main').getByRole('link', { name: 'สั่งซื้อสินค้า' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Forder$|\/login\?next=\/order$/);
  await page.locator('#main').getByRole('link', { name: 'สมัครสมาชิก' }).click();
  await expect(page).toHaveURL(/\/register\?next=%2Forder$/);
  await waitForIslands(page);
  const stamp = unique();
  await page.getByLabel('ชื่อ', { exact: true }).fill('เดินทาง');
  await page.getByLabel('นามสกุล').fill('ตลอดสาย');
  await page.getByLabel('อีเมล').fill(`journey-${project}-${stamp}@e2e.test`);
  await page.getByLabel('เบอร์โทรศัพท์').fill(`06${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`);
  await page.getByLabel('รหัสผ่าน', { exact: true }).fill(PASSWORD);
  await page.getByLabel('ยืนยันรหัสผ่าน').fill(PASSWORD);
  await page.getByLabel(/ฉันยอมรับข้อตกลง/).check();
  await shot('4-sign-up');
  await page.locator('#main').getByRole('button', { name: 'สมัครสมาชิก' }).click();
  await expect(page).toHaveURL(/\/order$/);
  await waitForIslands(page);

  // 5. The first address, from checkout and back to it.
  await page.getByRole('link', { name: 'เพิ่มที่อยู่ใหม่' }).click();
  await expect(page).toHaveURL(/\/user\/account\/address\?new=1&next=%2Forder$/);
  await waitForIslands(page);
  await page.getByLabel('ชื่อผู้รับ').fill('เดินทาง ตลอดสาย');
  await page.getByLabel('เบอร์โทรศัพท์ผู้รับ').fill('0812345678');
  await page.getByLabel('ที่อยู่ (บ้านเลขที่ ถนน ซอย)').fill('88 ถนนวิทยุ');
  await page.getByLabel('รหัสไปรษณีย์').fill('10330');
  await page.getByRole('option', { name: /^ลุมพินี » ปทุมวัน » กรุงเทพมหานคร » 10330/ }).click();
  await shot('5-address');
  await page.getByRole('button', { name: 'บันทึกที่อยู่' }).click();
  await expect(page).toHaveURL(/\/order$/);
  await waitForIslands(page);
  await expect(page.getByRole('radiogroup', { name: 'ที่อยู่จัดส่ง' })).toContainText('88 ถนนวิทยุ');

  // 6. PromptPay: the QR saved as a picture scans to the amount due, with a valid CRC.
  await page.getByRole('radio', { name: /Kerry Express/ }).check();
  await page.getByRole('radio', { name: 'พร้อมเพย์ (QR)' }).check();
  await shot('6-checkout');
  await page.getByRole('button', { name: 'ยืนยันการสั่งซื้อ' }).click();
  await expect(page).toHaveURL(/\/order\/payment\?no=YL\d+/);
  const orderNo = new URL(page.url()).searchParams.get('no')!;
  await waitForIslands(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'บันทึกรูป QR' }).click()]);
  expect(download.suggestedFilename()).toBe(`${orderNo}.png`);
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  const saved = parse((await readQr(new Uint8Array(Buffer.concat(chunks))))!);
  expect(saved?.validate('63')).toBe(true);
  const due = (await page.getByTestId('pay-amount').textContent())!.replace(/[^\d.]/g, '');
  expect(Number(saved?.getTagValue('54'))).toBe(Number(due));
  await shot('7-payment');

  // 7. The slip: the order then says it is being checked and asks for no payment.
  await page.getByLabel(/แนบสลิปการโอนเงิน/).setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: await slipPicture(slipPayload(newSlipRef()), { amount: saved!.getTagValue('54')! }) });
  await page.getByRole('button', { name: 'ส่งสลิปการโอนเงิน' }).click();
  await expect(page).toHaveURL(/\/order\/success\?no=/);
  await page.goto(`/order/delivery?no=${orderNo}`);
  await waitForIslands(page);
  await expect(page.getByTestId('slip-review').getByRole('heading', { name: 'รอตรวจสอบสลิป' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'ชำระเงิน', exact: true })).toHaveCount(0);
  await shot('8-slip-review');

  // 8. Staff confirm the money and ship.
  const staff = await staffPage(browser, testInfo);
  for (const body of [{ no: orderNo, action: 'confirm_payment' }, { no: orderNo, action: 'ship', tracking_no: `KEX${stamp}`.slice(0, 20) }]) {
    const changed = await staff.request.post('/api/order-status-update', { data: body, headers: { Origin: origin } });
    expect(changed.status(), await changed.text()).toBe(200);
  }
  await staff.context().close();

  // 9. The member says the parcel arrived.
  await page.reload();
  await waitForIslands(page);
  await expect(page.getByTestId('order-status')).toHaveText('กำลังจัดส่ง');
  await shot('9-shipped');
  await page.getByRole('button', { name: 'ได้รับสินค้าแล้ว' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'ได้รับสินค้าแล้ว' }).click();
  await expect(page.getByTestId('order-status')).toHaveText('สำเร็จแล้ว');
  await shot('10-received');
});
