import { expect, test, type APIRequestContext, type Page, type Route, type TestInfo } from '@playwright/test';
import { parse } from 'promptparse';
import { demoEpoch, demoProduct } from '../../src/server/db/demo-catalog';
import { unitPriceFor } from '../../src/lib/pricing';
import { statusLabels } from '../../src/lib/orders';
import { formatBaht, formatBahtExact, includedVat } from '../../src/lib/money';
import { keepScreenshot, waitForIslands } from './helpers';
import { sampleAddress } from '../fixtures/address';

/**
 * The order journey of issue 6 in the browser: checkout with address, delivery and promotion code,
 * PromptPay QR with the exact amount, slip upload, staff steps through /api/order-status-update,
 * and the member following each step under the right My Purchase tab and on /order/delivery.
 */

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

function phoneNumber(): string {
  return `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

async function register(request: APIRequestContext, email: string): Promise<string> {
  const password = `Gift-${unique()}-Shop!`;
  const response = await request.post('/api/member-insert', {
    data: { firstName: 'ทดสอบ', lastName: 'สั่งซื้อ', email, phone: phoneNumber(), password, confirmPassword: password, acceptTerms: true },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

async function addAddress(request: APIRequestContext): Promise<void> {
  const response = await request.post('/api/user/addresses', {
    data: {
      ...sampleAddress,
      isDefault: true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** A staff member: the e2e server lists these emails in SHOP_ADMIN_EMAILS (see playwright.config.ts). */
async function staffToken(request: APIRequestContext, testInfo: TestInfo): Promise<string> {
  const email = `staff-${testInfo.project.name}@e2e.test`;
  const password = 'Staff-Password-2569!';
  const login = await request.post('/api/auth/login', { data: { login: email, password } });
  if (login.ok()) return ((await login.json()) as { token: string }).token;
  const response = await request.post('/api/member-insert', {
    data: { firstName: 'พนักงาน', lastName: 'ร้าน', email, phone: phoneNumber(), password, confirmPassword: password, acceptTerms: true },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

async function staffAction(request: APIRequestContext, token: string, body: Record<string, string>) {
  const response = await request.post('/api/order-status-update', { data: body, headers: { Authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Demo products with enough stock, priced below their first wholesale tier for the chosen amount. */
function pickProducts(count: number, skip: number) {
  const chosen: { code: string; name: string; priceSatang: number; amount: number; image: string | null }[] = [];
  for (let index = 20 + skip * 37; chosen.length < count && index < 360; index += 1) {
    const product = demoProduct(index, demoEpoch);
    if (product.stock < 200 || product.priceSatang < 15_000) continue;
    const amount = 2;
    chosen.push({
      code: product.code,
      name: product.name,
      priceSatang: unitPriceFor(product.priceSatang, product.tiers, amount),
      amount,
      image: null,
    });
  }
  return chosen;
}

async function fillCart(page: Page, items: ReturnType<typeof pickProducts>) {
  await page.goto('/');
  await page.evaluate((cart) => {
    localStorage.setItem(
      'shoppingCart',
      JSON.stringify(cart.map((item) => ({ product_code: item.code, product_name: item.name, product_price: 0.01, product_image: null, amount: item.amount }))),
    );
  }, items);
}

async function openTab(page: Page, label: string) {
  await page.goto('/user/purchase');
  await page.getByRole('navigation', { name: 'สถานะคำสั่งซื้อ' }).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'สถานะคำสั่งซื้อ' }).getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
  await waitForIslands(page);
}

function orderCard(page: Page, orderNo: string) {
  return page.locator(`li.purchase-order[data-order-no="${orderNo}"]`);
}

test.describe('checkout and orders', { tag: '@phone' }, () => {
  test('PromptPay order with a promotion: QR, slip, staff confirms and ships, member follows it', async ({ page, request }, testInfo) => {
    await register(page.request, `buyer-${unique()}@e2e.test`);
    await addAddress(page.request);
    const items = pickProducts(2, testInfo.project.name === 'phone' ? 1 : 0);
    await fillCart(page, items);

    await page.goto('/order');
    await expect(page.getByRole('heading', { name: 'สั่งซื้อสินค้า' })).toBeVisible();
    await expect(page.getByRole('radio', { name: /สมหญิง ใจดี/ })).toBeChecked();
    await page.getByRole('radio', { name: /Kerry Express/ }).check();
    await page.getByLabel('โค้ดส่วนลด').fill('welcome10');
    await page.getByRole('button', { name: 'ใช้โค้ด' }).click();
    await expect(page.getByRole('status')).toContainText('ใช้โค้ด WELCOME10 แล้ว');
    await page.getByRole('radio', { name: 'พร้อมเพย์ (QR)' }).check();
    await page.getByRole('textbox', { name: 'หมายเหตุถึงร้าน' }).fill('ห่อของขวัญด้วยนะคะ');

    // What the server must charge, computed here from the demo catalog, not read from the page.
    const subtotal = items.reduce((sum, item) => sum + item.priceSatang * item.amount, 0);
    const discount = Math.min(Math.floor(subtotal / 10), 20_000);
    const shipping = subtotal - discount >= 150_000 ? 0 : 4500;
    const total = subtotal - discount + shipping;
    await expect(page.getByTestId('order-total')).toHaveText(formatBaht(total));
    await expect(page.getByTestId('order-vat')).toHaveText(formatBaht(includedVat(total)));

    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/checkout-${testInfo.project.name}.png`, fullPage: true });
    await page.getByRole('button', { name: 'ยืนยันการสั่งซื้อ' }).click();
    await expect(page).toHaveURL(/\/order\/payment\?no=YL\d+/);
    const orderNo = (await page.getByTestId('order-no').textContent())!.trim();
    await waitForIslands(page);
    await expect(page.getByTestId('pay-amount')).toHaveText(formatBahtExact(total));
    await expect(page.getByTestId('time-left')).toContainText('ชั่วโมง');
    const payload = await page.getByTestId('promptpay-qr').getAttribute('data-payload');
    const qr = parse(payload ?? '');
    expect(qr?.validate('63')).toBe(true);
    expect(qr?.getTagValue('29', '01')).toBe('0066812345678');
    expect(qr?.getTagValue('54')).toBe((total / 100).toFixed(2));
    await expect(page.getByTestId('promptpay-qr').locator('svg')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('shoppingCart'))).toBe('[]');
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/payment-${testInfo.project.name}.png`, fullPage: true });

    await page.getByLabel(/แนบสลิปการโอนเงิน/).setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'ส่งสลิปการโอนเงิน' }).click();
    await expect(page).toHaveURL(/\/order\/success\?no=/);
    await expect(page.getByText('ได้รับสลิปการโอนเงินแล้ว')).toBeVisible();

    await openTab(page, 'ที่ต้องชำระ');
    await expect(orderCard(page, orderNo).getByTestId('purchase-status')).toHaveText(statusLabels.payment_review);
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/purchase-${testInfo.project.name}.png`, fullPage: true });

    const staff = await staffToken(request, testInfo);
    await staffAction(request, staff, { no: orderNo, action: 'confirm_payment' });
    await openTab(page, 'ที่ต้องจัดส่ง');
    await expect(orderCard(page, orderNo).getByTestId('purchase-status')).toHaveText(statusLabels.paid);
    await openTab(page, 'ที่ต้องชำระ');
    await expect(orderCard(page, orderNo)).toHaveCount(0);

    const tracking = `KEX${Date.now()}`;
    await staffAction(request, staff, { no: orderNo, action: 'ship', tracking_no: tracking });
    await openTab(page, 'ที่ต้องได้รับ');
    await expect(orderCard(page, orderNo)).toContainText(tracking);
    await orderCard(page, orderNo).getByRole('link', { name: 'ดูรายละเอียด' }).click();
    await expect(page).toHaveURL(/\/order\/delivery\?no=/);
    await expect(page.getByTestId('order-status')).toHaveText('กำลังจัดส่ง');
    await expect(page.getByTestId('tracking-no')).toHaveText(tracking);
    await expect(page.getByTestId('tracking-link')).toHaveAttribute('href', `https://th.kex-express.com/th/track/?track=${tracking}`);
    await expect(page.getByText('ห่อของขวัญด้วยนะคะ')).toBeVisible();
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/delivery-${testInfo.project.name}.png`, fullPage: true });

    await staffAction(request, staff, { no: orderNo, action: 'deliver' });
    await openTab(page, 'สำเร็จแล้ว');
    await expect(orderCard(page, orderNo).getByTestId('purchase-status')).toHaveText(statusLabels.delivered);
  });

  test('cash on delivery goes straight to success and "to ship"; an unpaid order can be cancelled', async ({ page }, testInfo) => {
    await register(page.request, `cod-${unique()}@e2e.test`);
    await addAddress(page.request);
    const items = pickProducts(1, testInfo.project.name === 'phone' ? 3 : 2);
    await fillCart(page, items);
    await page.goto('/order');
    await page.getByRole('radio', { name: /Flash Express/ }).check();
    await page.getByRole('radio', { name: 'เก็บเงินปลายทาง' }).check();
    // The same cart confirmed in a second tab at the same moment, and a double click: one order.
    const second = await page.context().newPage();
    await second.goto('/order');
    await second.getByRole('radio', { name: /Flash Express/ }).check();
    await second.getByRole('radio', { name: 'เก็บเงินปลายทาง' }).check();
    // Clicks go to the buttons directly and together: a pointer click in the second tab could wait for
    // scrolling long enough that the first tab's order already emptied the shared cart there.
    const confirm = (tab: Page) => tab.getByRole('button', { name: 'ยืนยันการสั่งซื้อ' });
    // Both checkout forms hydrated first: a click on the server-rendered button before that does nothing.
    await Promise.all([confirm(page).waitFor(), confirm(second).waitFor(), waitForIslands(page), waitForIslands(second)]);
    // "At the same moment" is made true: on a busy machine one tab's click could run after the other
    // tab's whole order had come back and emptied the shared cart, leaving nothing to confirm. Each
    // tab's order request is held in the browser until both tabs have sent one; then all go to the
    // server together.
    const { released } = await holdOrdersUntilBothTabsSend(page, second);
    await Promise.all([
      confirm(page).evaluate((button: HTMLButtonElement) => {
        button.click();
        button.click();
      }),
      confirm(second).evaluate((button: HTMLButtonElement) => button.click()),
    ]);
    await released;
    await expect(page).toHaveURL(/\/order\/success\?no=/);
    await expect(second).toHaveURL(/\/order\/success\?no=/);
    expect(second.url()).toBe(page.url());
    await second.close();
    await expect(page.getByText('เก็บเงินปลายทาง').first()).toBeVisible();
    const codNo = (await page.getByTestId('order-no').textContent())!.trim();
    await openTab(page, 'ที่ต้องจัดส่ง');
    await expect(orderCard(page, codNo).getByTestId('purchase-status')).toHaveText(statusLabels.paid);
    await expect(page.locator('li.purchase-order')).toHaveCount(1);

    // A second, PromptPay order, cancelled from My Purchase after the confirmation dialog.
    await fillCart(page, items);
    await page.goto('/order');
    await page.getByRole('radio', { name: 'โอนเงินผ่านธนาคาร' }).check();
    await page.getByRole('button', { name: 'ยืนยันการสั่งซื้อ' }).click();
    await expect(page).toHaveURL(/\/order\/payment\?no=/);
    const unpaidNo = (await page.getByTestId('order-no').textContent())!.trim();
    const stockBefore = await stockOf(page, items[0]!.code);
    await openTab(page, 'ที่ต้องชำระ');
    await orderCard(page, unpaidNo).getByRole('button', { name: 'ยกเลิกคำสั่งซื้อ' }).click();
    await expect(page.getByRole('dialog')).toContainText('ยกเลิกคำสั่งซื้อนี้ ?');
    await page.getByRole('button', { name: 'ยืนยันการยกเลิก' }).click();
    await expect(page).toHaveURL(/\/order\/cancel\?no=/);
    await expect(page.getByRole('heading', { name: 'ยกเลิกคำสั่งซื้อแล้ว' })).toBeVisible();
    expect(await stockOf(page, items[0]!.code)).toBe(stockBefore + items[0]!.amount);
    await openTab(page, 'ยกเลิกแล้ว');
    await expect(orderCard(page, unpaidNo).getByTestId('purchase-status')).toHaveText('ยกเลิกแล้ว');
  });

  test('checkout and order pages are for members only', async ({ page }) => {
    const response = await page.goto('/order');
    await expect(page).toHaveURL(/\/login\?next=%2Forder/);
    expect(response?.status()).toBe(200);
    await register(page.request, `nosy-${unique()}@e2e.test`);
    const checkout = await page.goto('/order');
    expect(checkout?.headers()['cache-control']).toContain('no-store');
    await expect(page.getByText('ไม่มีสินค้าในตะกร้าสินค้าของคุณ')).toBeVisible();
    const missing = await page.goto('/order/payment?no=YL00000000000');
    expect(missing?.status()).toBe(404);
  });
});

/**
 * Starts holding `/api/orders` requests from either tab until each tab has sent at least one; then they
 * all go on to the real server, and later ones pass straight through. `released` settles at that moment.
 * (Unrouting there would fail the held requests still being continued.)
 */
async function holdOrdersUntilBothTabsSend(first: Page, second: Page): Promise<{ released: Promise<void> }> {
  const context = first.context();
  const senders = new Set<Page>();
  let release!: () => void;
  const bothSent = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    senders.add(route.request().frame().page());
    if (senders.has(first) && senders.has(second)) release();
    await bothSent;
    await route.continue();
  };
  await context.route('**/api/orders', hold);
  return { released: bothSent };
}

async function stockOf(page: Page, code: string): Promise<number> {
  const response = await page.request.post('/api/order-quote', { data: { lines: [{ product_code: code, amount: 1 }] } });
  const body = (await response.json()) as { data: { lines: { stock: number }[] } };
  return body.data.lines[0]!.stock;
}

test('a member who used WELCOME10 is told why at the code field, before placing an order', { tag: '@phone' }, async ({ page }, testInfo) => {
  await register(page.request, `welcome-twice-${unique()}@e2e.test`);
  await addAddress(page.request);
  const addresses = (await (await page.request.get('/api/user/addresses')).json()) as { data: { id: string }[] };
  const [first, second] = pickProducts(2, testInfo.project.name === 'phone' ? 6 : 5);
  const used = await page.request.post('/api/orders', {
    headers: { 'Idempotency-Key': `welcome-${unique()}` },
    data: {
      lines: [{ product_code: first!.code, amount: first!.amount }],
      address_id: addresses.data[0]!.id,
      delivery_code: 'kerry',
      payment_method: 'promptpay',
      promotion_code: 'WELCOME10',
    },
  });
  expect(used.status(), await used.text()).toBe(201);

  await fillCart(page, [second!]);
  await page.goto('/order');
  await expect(page.getByRole('heading', { name: 'สั่งซื้อสินค้า' })).toBeVisible();
  await page.getByLabel('โค้ดส่วนลด').fill('welcome10');
  await page.getByRole('button', { name: 'ใช้โค้ด' }).click();
  await expect(page.getByRole('status')).toHaveText('โค้ดส่วนลดนี้ใช้ได้คนละ 1 ครั้ง และคุณใช้ครบแล้ว');
  // The code is not taken: the total has no discount and the field is there to try another code.
  await expect(page.getByLabel('โค้ดส่วนลด')).toHaveValue('welcome10');
  await expect(page.locator('.checkout-totals')).not.toContainText('ส่วนลด');
  await keepScreenshot(page, `welcome-used-${testInfo.project.name}`, { fullPage: true });
});
