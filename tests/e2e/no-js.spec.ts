import { expect, test } from '@playwright/test';
import { placeOrder, signUp } from './fixtures/member';
import { keepScreenshot } from './helpers';

/**
 * Where a shopper meets a form, it works before (or without) JavaScript: sign-up and adding an
 * address post as plain forms and the server answers with the page (errors in Thai, values kept).
 */
test.use({ javaScriptEnabled: false });

test('register and add an address with JavaScript off', async ({ page }, testInfo) => {
  const stamp = `${Date.now() % 100_000_000}`.padStart(8, '0');
  const email = `nojs-${testInfo.project.name}-${stamp}@example.com`;
  const phone = `06${String((Number(stamp) * 3 + (testInfo.project.name === 'phone' ? 7 : 0)) % 100_000_000).padStart(8, '0')}`;

  await page.goto('/register');
  await page.getByLabel('ชื่อ', { exact: true }).fill('ใจดี');
  await page.getByLabel('นามสกุล').fill('ไม่มีสคริปต์');
  await page.getByLabel('อีเมล').fill(email);
  await page.getByLabel('เบอร์โทรศัพท์').fill(phone);
  await page.getByLabel('รหัสผ่าน', { exact: true }).fill('ทะเลสีครามที่ภูเก็ต');
  await page.getByLabel('ยืนยันรหัสผ่าน').fill('ทะเลสีครามที่ภูเก็ตX');
  await page.getByLabel(/ฉันยอมรับข้อตกลง/).check();
  await page.getByRole('button', { name: 'สมัครสมาชิก' }).click();
  // The server refuses the mismatch in Thai and keeps what was typed (never the passwords).
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('alert')).toContainText('กรุณาตรวจสอบข้อมูลที่กรอก');
  await expect(page.getByLabel('อีเมล')).toHaveValue(email);
  await expect(page.getByLabel('รหัสผ่าน', { exact: true })).toHaveValue('');
  await page.getByLabel('รหัสผ่าน', { exact: true }).fill('ทะเลสีครามที่ภูเก็ต');
  await page.getByLabel('ยืนยันรหัสผ่าน').fill('ทะเลสีครามที่ภูเก็ต');
  await page.getByRole('button', { name: 'สมัครสมาชิก' }).click();
  await expect(page).toHaveURL(/\/$/);
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'shop_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  await page.goto('/user/account/address');
  await page.getByRole('button', { name: '+ เพิ่มที่อยู่ใหม่' }).click();
  await expect(page).toHaveURL(/\/user\/account\/address\?new=1$/);
  const form = page.getByRole('form', { name: 'เพิ่มที่อยู่ใหม่' });
  await form.getByLabel('ชื่อผู้รับ').fill('ใจดี ไม่มีสคริปต์');
  await form.getByLabel('เบอร์โทรศัพท์ผู้รับ').fill('0812345678');
  await form.getByLabel('ที่อยู่ (บ้านเลขที่ ถนน ซอย)').fill('99/1 ซอยสุขุมวิท 21');
  await form.getByLabel('ตำบล/แขวง').fill('คลองเตยเหนือ');
  await form.getByLabel('อำเภอ/เขต').fill('วัฒนา');
  await form.getByLabel('จังหวัด').fill('กรุงเทพมหานคร');
  await form.getByLabel('รหัสไปรษณีย์').fill('1011');
  await form.getByRole('button', { name: 'บันทึกที่อยู่' }).click();
  // A wrong postcode: the form comes back open with the Thai reason and the typed values.
  await expect(page.getByText('รหัสไปรษณีย์ต้องเป็นตัวเลข 5 หลัก')).toBeVisible();
  await expect(page.getByLabel('ชื่อผู้รับ')).toHaveValue('ใจดี ไม่มีสคริปต์');
  await page.getByLabel('รหัสไปรษณีย์').fill('10110');
  await page.getByRole('button', { name: 'บันทึกที่อยู่' }).click();
  await expect(page).toHaveURL(/\/user\/account\/address$/);
  const book = page.getByRole('list', { name: 'สมุดที่อยู่' });
  await expect(book).toContainText('ใจดี ไม่มีสคริปต์');
  await expect(book).toContainText('คลองเตยเหนือ วัฒนา กรุงเทพมหานคร 10110');
  await expect(book).toContainText('ค่าเริ่มต้น');
});

/**
 * Issue 29, item 15: where something needs JavaScript the page says so in plain Thai, with what works
 * without it and how to order anyway; nothing waits forever (docs/decisions/188). What the words promise
 * works without JavaScript is walked here too.
 */
test.describe('what needs JavaScript is said, and nothing waits for it', { tag: '@phone' }, () => {
  test('the cart says it needs JavaScript and waits for nothing', async ({ page }, testInfo) => {
    await page.goto('/cart');
    await expect(page.getByRole('heading', { name: 'ตะกร้าสินค้า' })).toBeVisible();
    await expect(page.getByText('กำลังโหลด', { exact: false })).toBeHidden();
    const note = page.getByTestId('needs-js-note');
    await expect(note).toBeVisible();
    await expect(note).toContainText('ตะกร้าสินค้าเก็บไว้ในเบราว์เซอร์ของคุณ จึงต้องเปิดใช้ JavaScript');
    await expect(note).toContainText('ใช้ได้โดยไม่ต้องเปิด JavaScript: ดูและค้นหาสินค้า สมัครสมาชิก เข้าสู่ระบบ');
    await expect(note).toContainText('โทร 081-234-5678');
    await expect(note).toContainText('LINE @yimlamai');
    await keepScreenshot(page, `no-js-cart-${testInfo.project.name}`, { fullPage: false });

    // What the note promises works: the menu stands open on a phone (no toggler that needs JavaScript),
    // searching and logging in are reached from here.
    await expect(page.getByRole('button', { name: 'เปิดเมนู' })).toBeHidden();
    const nav = page.getByRole('navigation', { name: 'เมนูหลัก' });
    await expect(nav.getByRole('link', { name: 'สินค้าทั้งหมด', exact: true })).toBeVisible();
    await nav.getByRole('link', { name: 'เข้าสู่ระบบ' }).filter({ visible: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('อีเมลหรือเบอร์โทรศัพท์')).toBeVisible();
    await page.getByRole('combobox', { name: 'ค้นหาสินค้า' }).fill('ตุ๊กตา');
    await page.getByRole('combobox', { name: 'ค้นหาสินค้า' }).press('Enter');
    await expect(page.getByRole('heading', { name: /ผลการค้นหา/ })).toBeVisible();
  });

  test('a product page says adding to the cart needs JavaScript; listing cards offer no button that does nothing', async ({ page }, testInfo) => {
    await page.goto('/product');
    const card = page.locator('.product-card').first();
    await expect(card).toBeVisible();
    await expect(card.getByRole('button', { name: /ใส่ตะกร้า/ })).toBeHidden();
    await card.getByRole('heading').getByRole('link').click();
    // The newest product first: other tests' CSV imports add codes of their own (CSV-…).
    await expect(page).toHaveURL(/\/product\/[^/?]+$/);
    await expect(page.getByRole('button', { name: 'หยิบใส่ตะกร้า' })).toBeDisabled();
    const note = page.getByTestId('needs-js-note');
    await expect(note).toBeVisible();
    await expect(note).toContainText('การหยิบสินค้าใส่ตะกร้าต้องเปิดใช้ JavaScript');
    await expect(note).toContainText('โทร 081-234-5678');
    await keepScreenshot(page, `no-js-product-${testInfo.project.name}`);
    // The product's pictures still change without JavaScript (radio buttons), as the listing's filters do.
    const thumbs = page.locator('.gallery-thumb');
    if ((await thumbs.count()) > 1) {
      await thumbs.nth(1).click();
      await expect(page.locator('.gallery-image-1')).toBeVisible();
    }
  });

  test('checkout, the quotation form and the slip upload say so too, and the account menu stands in the page', async ({ page, browser }, testInfo) => {
    const withScript = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const scripted = await withScript.newPage();
    await signUp(scripted, testInfo, 'nojs-checkout');
    await scripted.goto('/');
    const product = (await scripted.locator('a[href^="/product/P"]').first().getAttribute('href'))!;
    const orderNo = await placeOrder(scripted, testInfo, product.split('/').pop()!, 'nojs-checkout');
    await page.context().addCookies(await withScript.cookies());
    await withScript.close();

    for (const [path, words] of [
      ['/order', 'การสั่งซื้อต้องเปิดใช้ JavaScript'],
      ['/quotation/new', 'ใบเสนอราคาทำจากสินค้าในตะกร้า'],
      [`/order/payment?no=${orderNo}`, `ส่งรูปสลิปพร้อมเลขคำสั่งซื้อ ${orderNo} ให้ร้านทาง LINE`],
    ] as const) {
      await page.goto(path);
      await expect(page.getByTestId('needs-js-note'), path).toContainText(words);
      await expect(page.getByText(/กำลังโหลด/), path).toBeHidden();
    }
    // The payment page still shows what to pay without JavaScript; its slip form, which needs it, is not offered.
    await expect(page.getByLabel('แนบสลิปการโอนเงิน')).toBeHidden();
    await expect(page.getByRole('button', { name: 'ยกเลิกคำสั่งซื้อ' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'ซื้ออีกครั้ง' })).toBeHidden();
    await expect(page.getByTestId('pay-amount')).toHaveText(/^฿[\d,]+\.\d\d$/);
    await keepScreenshot(page, `no-js-payment-${testInfo.project.name}`);

    await page.goto('/user/purchase');
    await expect(page.getByRole('link', { name: new RegExp(orderNo) }).first()).toBeVisible();
    const menus = page.getByRole('navigation', { name: 'เมนูบัญชีของฉัน' });
    await expect(menus.getByRole('link', { name: /My Address Book/ }).filter({ visible: true })).toHaveCount(1);
  });
});
