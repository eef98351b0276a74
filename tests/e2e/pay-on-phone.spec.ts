import { expect, test, type Page } from '@playwright/test';
import { parse } from 'promptparse';
import { demoEpoch, demoProduct } from '../../src/server/db/demo-catalog';
import { sampleAddress } from '../fixtures/address';
import { readQr } from '../fixtures/qr-picture';
import { keepScreenshot, waitForIslands } from './helpers';
import { seriousAxeViolations } from './axe';

/**
 * Issue 29: paying on the phone that shows the payment page. The QR is saved as a picture for the bank
 * app to scan, and the amount, the PromptPay id and each account number are copied to paste into it;
 * where the browser has no Clipboard API (older in-app browsers), the value is shown selected to
 * long-press.
 */

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** A demo product sold by the piece, in stock (a different one per project, so runs do not share stock). */
function productFor(projectName: string) {
  let seen = 0;
  for (let index = 90; index < 360; index += 1) {
    const product = demoProduct(index, demoEpoch);
    if (product.tiers.length > 0 || product.stock < 20 || product.priceSatang < 10_000) continue;
    if (seen++ === (projectName === 'phone' ? 1 : 0)) return product;
  }
  throw new Error('no plain demo product');
}

/** axe's serious and critical findings (WCAG 2.1 A and AA), as tests/e2e/a11y.spec.ts counts them. */
async function seriousViolations(page: Page): Promise<string[]> {
  return (await seriousAxeViolations(page)).map((violation) => violation.id);
}

/** A new member with an unpaid PromptPay order, signed in on this page; its payment page open. */
async function openPaymentPage(page: Page, projectName: string): Promise<string> {
  await page.goto('/');
  const origin = new URL(page.url()).origin;
  const password = `Pay-${unique()}-Phone!`;
  const phone = `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const registered = await page.request.post('/api/member-insert', {
    data: { firstName: 'จ่าย', lastName: 'บนมือถือ', email: `pay-phone-${unique()}@e2e.test`, phone, password, confirmPassword: password, acceptTerms: true },
    headers: { Origin: origin },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const address = await page.request.post('/api/user/addresses', { data: { ...sampleAddress, isDefault: true }, headers: { Origin: origin } });
  expect(address.status(), await address.text()).toBe(201);
  const placed = await page.request.post('/api/orders', {
    data: {
      idempotency_key: `pay-phone-${unique()}`,
      lines: [{ product_code: productFor(projectName).code, amount: 1 }],
      address_id: ((await address.json()) as { data: { id: string } }).data.id,
      delivery_code: 'kerry',
      payment_method: 'promptpay',
    },
    headers: { Origin: origin },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const orderNo = ((await placed.json()) as { data: { order_no: string } }).data.order_no;
  await page.goto(`/order/payment?no=${orderNo}`);
  await waitForIslands(page);
  return orderNo;
}

test.describe('paying on the same phone', { tag: '@phone' }, () => {
  test('saves the QR as <order-no>.png with the page payload, and copies amount, PromptPay id and accounts', async ({ page }, testInfo) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const orderNo = await openPaymentPage(page, testInfo.project.name);
    const payload = (await page.getByTestId('promptpay-qr').getAttribute('data-payload'))!;
    await expect(page.getByTestId('same-phone-hint')).toContainText('เปิดแอปธนาคาร');

    // The saved picture: named for the order, and it scans to exactly the page's payload.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'บันทึกรูป QR' }).click()]);
    expect(download.suggestedFilename()).toBe(`${orderNo}.png`);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const saved = await readQr(new Uint8Array(Buffer.concat(chunks)));
    expect(saved).toBe(payload);
    expect(parse(saved!)!.validate('63')).toBe(true);

    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const toast = page.getByTestId('copy-toast');

    // The amount, as a bank app's amount field takes it.
    const amount = parse(payload)!.getTagValue('54');
    await page.getByRole('button', { name: 'คัดลอกยอดเงิน' }).click();
    await expect(toast).toContainText(`คัดลอกยอดเงิน ${amount} บาทแล้ว`);
    expect(await clipboard()).toBe(amount);
    await keepScreenshot(page, `pay-phone-copied-${testInfo.project.name}`, { fullPage: false });

    // The PromptPay id, in full for the order's member.
    const shownId = (await page.getByTestId('promptpay-id').textContent())!;
    expect(shownId).not.toContain('x');
    await page.getByRole('button', { name: 'คัดลอกพร้อมเพย์' }).click();
    await expect(toast).toContainText('คัดลอกหมายเลขพร้อมเพย์แล้ว');
    expect(await clipboard()).toBe(shownId.replace(/\D/g, ''));

    // Each bank account's number.
    const accounts = page.getByRole('region', { name: 'หรือโอนเข้าบัญชีธนาคาร' }).getByRole('listitem');
    const count = await accounts.count();
    expect(count).toBeGreaterThan(0);
    for (let index = 0; index < count; index += 1) {
      const account = accounts.nth(index);
      const shown = (await account.getByTestId('account-no').textContent())!;
      await account.getByRole('button', { name: /^คัดลอกเลขบัญชี/ }).click();
      await expect(toast).toContainText('คัดลอกเลขบัญชี');
      expect(await clipboard()).toBe(shown.replace(/\D/g, ''));
    }
    // Copied: no long-press field is shown.
    await expect(page.getByLabel('กดค้างเพื่อคัดลอก').filter({ visible: true })).toHaveCount(0);
    await keepScreenshot(page, `pay-phone-${testInfo.project.name}`);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('without the Clipboard API, the value is shown selected to long-press', async ({ page }, testInfo) => {
    // Older in-app browsers (LINE, Facebook) have no navigator.clipboard at all.
    await page.addInitScript(() => {
      delete (Navigator.prototype as { clipboard?: unknown }).clipboard;
    });
    await openPaymentPage(page, testInfo.project.name);
    expect(await page.evaluate(() => 'clipboard' in navigator)).toBe(false);

    await page.getByRole('button', { name: 'คัดลอกยอดเงิน' }).click();
    const field = page.getByLabel('กดค้างเพื่อคัดลอก').first();
    await expect(field).toBeVisible();
    const amount = parse((await page.getByTestId('promptpay-qr').getAttribute('data-payload'))!)!.getTagValue('54');
    await expect(field).toHaveValue(amount!);
    await expect(field).toBeFocused();
    const selected = await field.evaluate((input: HTMLInputElement) => input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0));
    expect(selected).toBe(amount);
    await keepScreenshot(page, `pay-phone-fallback-${testInfo.project.name}`, { fullPage: false });
    expect(await seriousViolations(page)).toEqual([]);
  });
});
