import { expect, test, type Locator } from '@playwright/test';
import sharp from 'sharp';
import { demoEpoch, demoProduct } from '../../src/server/db/demo-catalog';
import { formatBaht, includedVat } from '../../src/lib/money';
import { sampleAddress } from '../fixtures/address';
import { pdfPages } from '../fixtures/pdf-text';
import { grantRole, staffPage } from './fixtures/roles';
import { keepScreenshot, projectContext, waitForIslands, withShopWideState } from './helpers';
import { seriousAxeViolations } from './axe';

/**
 * Issue 31 part 6 in the browser: a member wraps one line as a gift, writes a card message with an emoji
 * and hides prices from the packing slip; the total the page shows is the server's (the line's wrapping
 * once, the demo's card free); the order page shows the wrapping and the message; staff open the order
 * and its card PDF, which reads back with the message, emoji included (decision 228). The owner uploads a
 * wrapping's picture, and checkout shows it small beside the wrapping's name.
 */

/** A wrapping's picture at checkout: named by the wrapping, sized, lazy, and actually loaded. */
async function expectThumbnail(picture: Locator): Promise<void> {
  await expect(picture).toBeVisible();
  await expect(picture).toHaveAttribute('width', '48');
  await expect(picture).toHaveAttribute('height', '48');
  await expect(picture).toHaveAttribute('loading', 'lazy');
  await expect(picture).toHaveAttribute('src', /^\/media\/[a-z]+\/[a-f0-9]{24}-\d+\.webp$/);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
}

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

function pickProducts(skip: number) {
  const chosen: { code: string; name: string; amount: number }[] = [];
  for (let index = 31 + skip * 53; chosen.length < 2 && index < 360; index += 1) {
    const product = demoProduct(index, demoEpoch);
    if (product.stock < 200 || product.priceSatang < 15_000 || product.priceSatang > 40_000) continue;
    chosen.push({ code: product.code, name: product.name, amount: 2 });
  }
  return chosen;
}

test.describe('gift wrapping', { tag: '@phone' }, () => {
  test('a member wraps a line, writes a card and hides prices; staff print the card', async ({ page, browser }, testInfo) => {
    const password = `Gift-${unique()}-Shop!`;
    const phone = `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const made = await page.request.post('/api/member-insert', {
      data: { firstName: 'ผู้ให้', lastName: 'ของขวัญ', email: `gift-${unique()}@e2e.test`, phone, password, confirmPassword: password, acceptTerms: true },
    });
    expect(made.status(), await made.text()).toBe(201);
    const address = await page.request.post('/api/user/addresses', { data: { ...sampleAddress, recipientName: 'น้องฟ้า ผู้รับ', isDefault: true } });
    expect(address.status(), await address.text()).toBe(201);
    const items = pickProducts(testInfo.project.name === 'phone' ? 1 : 0);
    await page.goto('/');
    await page.evaluate((cart) => {
      localStorage.setItem('shoppingCart', JSON.stringify(cart.map((item) => ({ product_code: item.code, product_name: item.name, product_price: 0.01, product_image: null, amount: item.amount }))));
    }, items);

    await page.goto('/order');
    await waitForIslands(page);
    await page.getByRole('radio', { name: /Kerry Express/ }).check();
    await page.getByRole('radio', { name: 'พร้อมเพย์ (QR)' }).check();
    const gift = page.getByTestId('gift-section');
    await expect(gift.getByRole('heading', { name: 'ห่อของขวัญ' })).toBeVisible();
    // The demo's wrappings have pictures: each beside its name and price.
    await expectThumbnail(gift.getByTestId('gift-wrap-pictures').getByRole('img', { name: 'กล่องของขวัญ' }));
    await gift.getByRole('radio', { name: 'ห่อแยกแต่ละรายการ (คิดราคาต่อรายการ)' }).check();
    // One select per line, named by the line's name and amount, in the cart's order.
    const firstLine = gift.getByRole('combobox').first();
    await expect(firstLine).toHaveAccessibleName(/ × 2$/);
    await firstLine.selectOption('giftbox');
    const message = 'สุขสันต์วันเกิดนะน้องฟ้า 🎂';
    await gift.getByRole('textbox', { name: 'ข้อความบนการ์ด' }).fill(message);
    await expect(gift).toContainText('19/200');
    await gift.getByRole('textbox', { name: 'ข้อความบนการ์ด' }).fill(`${message} www.example.com`);
    await expect(gift.getByRole('alert')).toHaveText('ข้อความบนการ์ดใส่ลิงก์หรือที่อยู่เว็บไซต์ไม่ได้');
    await gift.getByRole('textbox', { name: 'ข้อความบนการ์ด' }).fill(message);
    await gift.getByRole('checkbox', { name: 'ซ่อนราคาในใบแพ็คสินค้า' }).check();

    // The server's charge: the same cart quoted without a gift, plus one wrapped line at ฿79 whatever its amount; the demo's card is free.
    const plain = await page.request.post('/api/order-quote', { data: { lines: items.map((item) => ({ product_code: item.code, amount: item.amount })), delivery_code: 'kerry' } });
    expect(plain.status(), await plain.text()).toBe(200);
    const total = Math.round(((await plain.json()) as { data: { total_price: number } }).data.total_price * 100) + 7900;
    await expect(page.getByTestId('order-gift-wrap')).toHaveText(formatBaht(7900));
    await expect(page.getByTestId('order-total')).toHaveText(formatBaht(total));
    await expect(page.getByTestId('order-vat')).toHaveText(formatBaht(includedVat(total)));
    await keepScreenshot(page, `gift-checkout-${testInfo.project.name}`);
    expect((await seriousAxeViolations(page)).map((violation) => violation.id)).toEqual([]);

    await page.getByRole('button', { name: 'ยืนยันการสั่งซื้อ' }).click();
    await expect(page).toHaveURL(/\/order\/payment\?no=YL\d+/);
    const orderNo = (await page.getByTestId('order-no').textContent())!.trim();
    const shown = page.getByTestId('order-gift');
    await expect(shown).toContainText('กล่องของขวัญ');
    await expect(shown.getByTestId('gift-message')).toHaveText(message);
    await expect(shown).toContainText('ซ่อนราคาในใบแพ็คสินค้า');
    await keepScreenshot(page, `gift-order-${testInfo.project.name}`);

    const staff = await staffPage(browser, testInfo);
    await staff.goto(`/admin/orders/${orderNo}`);
    await expect(staff.getByRole('heading', { name: `คำสั่งซื้อ ${orderNo}` })).toBeVisible();
    const card = staff.getByTestId('order-gift');
    await expect(card.getByTestId('gift-message')).toHaveText(message);
    await keepScreenshot(staff, `gift-admin-order-${testInfo.project.name}`);
    const link = card.getByRole('link', { name: 'พิมพ์การ์ดข้อความ (PDF)' });
    const href = await link.getAttribute('href');
    expect(href).toBe(`/admin/orders/${orderNo}/gift-card.pdf`);
    const pdf = await staff.request.get(href!);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const pages = await pdfPages(new Uint8Array(await pdf.body()));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.replace(/\s+/g, '')).toContain('สุขสันต์วันเกิดนะน้องฟ้า🎂');
    await staff.context().close();
  });

  test('the owner keeps the wrappings and the card price in settings', async ({ browser }, testInfo) => {
    const page = await (await projectContext(browser, testInfo)).newPage();
    const email = `gift-owner-${testInfo.project.name}-${unique()}@e2e.test`;
    const password = 'Owner-Password-2569!';
    const phone = `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const made = await page.request.post('/api/member-insert', { data: { firstName: 'เจ้าของ', lastName: 'ร้าน', email, phone, password, confirmPassword: password, acceptTerms: true } });
    expect(made.status(), await made.text()).toBe(201);
    await grantRole(email, 'owner');
    await page.goto('/admin/settings#gift');
    const section = page.locator('#gift');
    await expect(section.getByRole('heading', { name: 'ห่อของขวัญ' })).toBeVisible();
    await expect(section.getByLabel('ชื่อแบบห่อ').first()).toHaveValue('ห่อกระดาษคราฟต์');
    await expect(section.getByLabel('ราคาการ์ดข้อความ (บาท) ใส่ 0 ถ้าให้ฟรี')).toHaveValue('0');
    await section.scrollIntoViewIfNeeded();
    await keepScreenshot(page, `gift-settings-${testInfo.project.name}`, { fullPage: false });
    expect((await seriousAxeViolations(page)).map((violation) => violation.id)).toEqual([]);
    // A new picture for the kraft wrapping; everything else saved unchanged (the other tests' free card stays free).
    const colour = testInfo.project.name === 'phone' ? '#8d6e63' : '#c8a165';
    const picture = await sharp({ create: { width: 800, height: 600, channels: 3, background: colour } }).jpeg().toBuffer();
    const before = await section.getByTestId('wrap-picture').first().getAttribute('src');
    await withShopWideState(async () => {
      await section.locator('#wrap-picture-0').setInputFiles({ name: 'kraft.jpg', mimeType: 'image/jpeg', buffer: picture });
      await section.getByRole('button', { name: 'บันทึก' }).click();
      await expect(page.getByTestId('admin-flash')).toContainText('บันทึกการห่อของขวัญแล้ว');
    });
    const saved = page.locator('#gift');
    await expect(saved.getByLabel('ชื่อแบบห่อ').nth(1)).toHaveValue('กล่องของขวัญ');
    const thumbnail = saved.getByRole('img', { name: 'ห่อกระดาษคราฟต์' });
    await expect(thumbnail).toHaveAttribute('src', /^\/media\/wrappings\/[a-f0-9]{24}-\d+\.webp$/);
    const src = await thumbnail.getAttribute('src');
    expect(src).not.toBe(before);
    await saved.scrollIntoViewIfNeeded();
    await keepScreenshot(page, `gift-settings-picture-${testInfo.project.name}`, { fullPage: false });

    // The owner shops too: checkout shows the new picture beside the kraft wrapping.
    const [item] = pickProducts(testInfo.project.name === 'phone' ? 3 : 2);
    await page.evaluate((one) => localStorage.setItem('shoppingCart', JSON.stringify([{ product_code: one.code, product_name: one.name, product_price: 0.01, product_image: null, amount: 1 }])), item!);
    await page.goto('/order');
    await waitForIslands(page);
    const kraft = page.getByTestId('gift-wrap-pictures').getByRole('img', { name: 'ห่อกระดาษคราฟต์' });
    await expectThumbnail(kraft);
    await expect(kraft).toHaveAttribute('src', src!.replace(/-\d+\.webp$/, '-320.webp'));
    await page.getByTestId('gift-section').scrollIntoViewIfNeeded();
    await keepScreenshot(page, `gift-checkout-pictures-${testInfo.project.name}`, { fullPage: false });
    await page.context().close();
  });
});
