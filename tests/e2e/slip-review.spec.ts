import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';
import { demoEpoch, demoProduct } from '../../src/server/db/demo-catalog';
import { sampleAddress } from '../fixtures/address';
import { newSlipRef, slipPayload, slipPicture } from '../fixtures/slips';
import { grantRole } from './fixtures/roles';
import { keepScreenshot, projectContext, waitForIslands } from './helpers';
import { seriousAxeViolations } from './axe';

/**
 * Issue 32, slip review in the browser (docs/decisions/175-slip-review-before-money.md): the amount due,
 * the slip and its QR facts come before the buttons; confirming asks once with the amount; after it the
 * page moves to the next slip waiting; the review tab confirms several, but only slips opened first.
 */

const PASSWORD = 'Slip-Review-2569!';

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

async function signedIn(browser: Browser, testInfo: TestInfo, email: string, javaScriptEnabled = true): Promise<Page> {
  const context = await projectContext(browser, testInfo, { javaScriptEnabled });
  const page = await context.newPage();
  const phone = `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const response = await page.request.post('/api/member-insert', {
    data: { firstName: 'ตรวจ', lastName: 'สลิป', email, phone, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true },
  });
  expect(response.status(), await response.text()).toBe(201);
  return page;
}

function productFor(skip: number) {
  for (let index = 60 + skip * 37; index < 360; index += 1) {
    const item = demoProduct(index, demoEpoch);
    if (item.stock >= 200) return item;
  }
  throw new Error('no demo product with stock');
}

/** An order paid by transfer with a slip whose QR the server reads; its number. */
async function orderWithSlip(request: APIRequestContext, origin: string, addressId: string, skip: number): Promise<string> {
  const placed = await request.post('/api/orders', {
    headers: { 'Idempotency-Key': `slip-review-${unique()}` },
    data: { lines: [{ product_code: productFor(skip).code, amount: 1 }], address_id: addressId, delivery_code: 'ems', payment_method: 'promptpay' },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const orderNo = ((await placed.json()) as { data: { order_no: string } }).data.order_no;
  const slip = await request.post('/api/order-slip', {
    headers: { Origin: origin },
    multipart: { no: orderNo, slip: { name: 'slip.png', mimeType: 'image/png', buffer: await slipPicture(slipPayload(newSlipRef())) } },
  });
  expect(slip.status(), await slip.text()).toBe(200);
  return orderNo;
}

test.describe('slip review', () => {
  test('amount and slip above the buttons, one question with the amount, on to the next slip, bulk confirm of opened slips', { tag: '@phone' }, async ({ browser }, testInfo) => {
    test.setTimeout(120_000);
    const project = testInfo.project.name;
    const tag = `${project}-${unique()}`;
    const staffEmail = `slipstaff-${tag}@e2e.test`;
    const staff = await signedIn(browser, testInfo, staffEmail);
    await grantRole(staffEmail, 'staff');
    const shopper = await signedIn(browser, testInfo, `slipshopper-${tag}@e2e.test`);
    const origin = new URL(testInfo.project.use.baseURL!).origin;
    const address = await shopper.request.post('/api/user/addresses', { data: { ...sampleAddress, recipientName: `สลิป ${project}`, isDefault: true } });
    expect(address.status()).toBe(201);
    const addressId = ((await address.json()) as { data: { id: string } }).data.id;
    const skip = project === 'phone' ? 1 : 0;
    // Placed one after the other. The queue is the shop's, oldest first, and other tests place slips at the
    // same time: the slip after the first is the second or one placed between them.
    const first = await orderWithSlip(shopper.request, origin, addressId, skip);
    const second = await orderWithSlip(shopper.request, origin, addressId, skip + 2);
    const third = await orderWithSlip(shopper.request, origin, addressId, skip + 4);

    await staff.goto(`/admin/orders/${first}`);
    const check = staff.getByTestId('payment-check');
    const amount = check.getByTestId('amount-due');
    const slip = check.getByRole('img', { name: /สลิปการโอนเงินของคำสั่งซื้อ/ });
    const confirm = check.getByRole('button', { name: 'ยืนยันการชำระเงิน' });
    const reject = check.getByRole('button', { name: 'ปฏิเสธสลิป' });
    await expect(slip).toBeVisible();
    await expect(slip).toHaveJSProperty('complete', true);
    await expect(check.getByTestId('slip-check-status')).toHaveText('อ่าน QR สลิปได้');
    await expect(check.getByTestId('slip-bank')).toHaveText('ธนาคารกสิกรไทย (KBANK)');
    const due = (await amount.textContent())!.trim();
    expect(due).toMatch(/^฿[\d,]+\.\d{2}$/);

    const box = async (locator: typeof amount) => (await locator.boundingBox())!;
    const amountBox = await box(amount);
    const slipBox = await box(slip);
    const factsBox = await box(check.getByTestId('slip-check'));
    const confirmBox = await box(confirm);
    const rejectBox = await box(reject);
    for (const above of [amountBox, slipBox, factsBox]) expect(above.y + above.height).toBeLessThanOrEqual(Math.min(confirmBox.y, rejectBox.y));
    if (project === 'phone') {
      // Stacked: amount, then the slip, then what its QR says; the amount and the top of the slip on the first screen.
      expect(amountBox.y + amountBox.height).toBeLessThanOrEqual(slipBox.y);
      expect(slipBox.y + slipBox.height).toBeLessThanOrEqual(factsBox.y);
      const screen = staff.viewportSize()!;
      expect(amountBox.y + amountBox.height).toBeLessThan(screen.height);
      expect(slipBox.y + 100).toBeLessThan(screen.height);
    } else {
      // Side by side: the three start on one line.
      expect(Math.abs(slipBox.y - factsBox.y)).toBeLessThan(60);
      expect(amountBox.x + amountBox.width).toBeLessThanOrEqual(slipBox.x);
      expect(slipBox.x + slipBox.width).toBeLessThanOrEqual(factsBox.x);
    }
    const next = (await check.getByTestId('next-slip').getAttribute('href'))?.replace('/admin/orders/', '') ?? '';
    expect(next > first && next <= second, `${next} comes after ${first}, at ${second} at the latest`).toBe(true);
    await waitForIslands(staff);
    expect((await seriousAxeViolations(staff)).map((violation) => violation.id)).toEqual([]);
    await keepScreenshot(staff, `slip-review-order-${project}`, { fullPage: false });

    // One question, with the amount in it; cancelling changes nothing.
    await confirm.click();
    const dialog = staff.getByRole('dialog');
    await expect(dialog).toContainText(`ยืนยันว่าได้รับเงิน ${due} แล้ว?`);
    await keepScreenshot(staff, `slip-review-confirm-${project}`, { fullPage: false });
    await dialog.getByRole('button', { name: 'ยกเลิก' }).click();
    await expect(staff).toHaveURL(new RegExp(`/admin/orders/${first}$`));
    await confirm.click();
    await staff.getByRole('dialog').getByRole('button', { name: 'ยืนยัน ได้รับเงินแล้ว' }).click();

    // On to the next slip waiting, with what was done said on top.
    // (Another test may have decided the slip that was next meanwhile: then the one after it.)
    const landedOn = () => /\/admin\/orders\/([^/?#]+)$/.exec(staff.url())?.[1] ?? '';
    await expect.poll(() => landedOn() > first && landedOn() <= second).toBe(true);
    await expect(staff.getByTestId('admin-flash')).toContainText(`${first}: ยืนยันการชำระเงินแล้ว`);
    await expect(staff.getByTestId('payment-check')).toBeVisible();
    await keepScreenshot(staff, `slip-review-next-${project}`, { fullPage: false });
    if (landedOn() !== second) await staff.goto(`/admin/orders/${second}`);

    // The review tab: the second was opened just now, the third not; bulk confirm takes only the second.
    await staff.goto('/admin/orders?tab=review');
    await expect(staff.locator(`tr[data-order-no="${second}"] [data-slip-looked]`)).toHaveText('คุณเปิดดูสลิปแล้ว');
    await expect(staff.locator(`tr[data-order-no="${third}"] [data-slip-looked]`)).toHaveText('ยังไม่ได้เปิดดูสลิป');
    await staff.locator(`#pick-${second}`).check();
    await staff.locator(`#pick-${third}`).check();
    await staff.getByTestId('bulk-confirm').click();
    const flash = staff.getByTestId('admin-flash');
    await expect(flash).toContainText('ยืนยันการชำระเงินแล้ว 1 รายการ · ทำไม่ได้ 1 รายการ');
    await expect(flash).toContainText(`${third}: ยังไม่ได้เปิดดูสลิปของคำสั่งซื้อนี้`);
    await expect(staff.locator(`tr[data-order-no="${second}"]`)).toHaveCount(0);
    await expect(staff.locator(`tr[data-order-no="${third}"]`)).toBeVisible();
    await keepScreenshot(staff, `slip-review-tab-${project}`);
  });

  test('without JavaScript the amount is asked by a required checkbox', async ({ browser }, testInfo) => {
    const tag = `nojs-${testInfo.project.name}-${unique()}`;
    const staffEmail = `slipstaff-${tag}@e2e.test`;
    const staff = await signedIn(browser, testInfo, staffEmail, false);
    await grantRole(staffEmail, 'staff');
    const shopper = await signedIn(browser, testInfo, `slipshopper-${tag}@e2e.test`);
    const address = await shopper.request.post('/api/user/addresses', { data: { ...sampleAddress, isDefault: true } });
    const addressId = ((await address.json()) as { data: { id: string } }).data.id;
    const orderNo = await orderWithSlip(shopper.request, new URL(testInfo.project.use.baseURL!).origin, addressId, 6);

    await staff.goto(`/admin/orders/${orderNo}`);
    const due = (await staff.getByTestId('amount-due').textContent())!.trim();
    const checked = staff.getByLabel(`ตรวจยอดเงิน ${due} แล้ว`);
    await expect(checked).toBeVisible();
    await staff.getByRole('button', { name: 'ยืนยันการชำระเงิน' }).click();
    // The browser keeps the form until the box is ticked.
    await expect(staff).toHaveURL(new RegExp(`/admin/orders/${orderNo}$`));
    await expect(staff.getByTestId('admin-flash')).toHaveCount(0);
    await checked.check();
    await staff.getByRole('button', { name: 'ยืนยันการชำระเงิน' }).click();
    await expect(staff.getByTestId('admin-flash')).toContainText(`${orderNo}: ยืนยันการชำระเงินแล้ว`);
  });
});
