import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { demoEpoch, demoProduct } from '../../src/server/db/demo-catalog';
import { unitPriceFor } from '../../src/lib/pricing';
import { formatBaht, formatBahtExact } from '../../src/lib/money';
import { bahtText } from '../../src/lib/thai-baht';
import { e2eDataDir, waitForIslands } from './helpers';
import { sampleAddress } from '../fixtures/address';
import { newSlipRef, phonePhoto, slipPayload, slipPicture } from '../fixtures/slips';
import { pdfPages } from '../fixtures/pdf-text';

/**
 * Issue 13 in the browser: a member sends a real-looking slip photo whose QR the server reads, staff see
 * the bank and the reference beside it, the member downloads the receipt once paid; a wholesale buyer
 * turns a cart of 120 pieces into a quotation, reads its PDF, and orders from it at the quoted price
 * after the shop raised its prices.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

function phoneNumber(): string {
  return `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

async function register(request: APIRequestContext, email: string, password: string): Promise<void> {
  const response = await request.post('/api/member-insert', {
    data: { firstName: 'ทดสอบ', lastName: 'ชำระเงิน', email, phone: phoneNumber(), password, confirmPassword: password, acceptTerms: true },
  });
  expect(response.status(), await response.text()).toBe(201);
  const address = await request.post('/api/user/addresses', { data: { ...sampleAddress, isDefault: true } });
  expect(address.status(), await address.text()).toBe(201);
}

async function signIn(request: APIRequestContext, login: string, password: string): Promise<string> {
  await request.post('/api/auth/logout');
  const response = await request.post('/api/auth/login', { data: { login, password } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** The staff account of this project (SHOP_ADMIN_EMAILS in playwright.config.ts), created on first use. */
async function signInStaff(request: APIRequestContext, testInfo: TestInfo): Promise<string> {
  const email = `staff-${testInfo.project.name}@e2e.test`;
  const password = 'Staff-Password-2569!';
  await request.post('/api/auth/logout');
  const login = await request.post('/api/auth/login', { data: { login: email, password } });
  if (login.ok()) return ((await login.json()) as { token: string }).token;
  const response = await request.post('/api/member-insert', {
    data: { firstName: 'พนักงาน', lastName: 'ร้าน', email, phone: phoneNumber(), password, confirmPassword: password, acceptTerms: true },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

/** The operator's price change, through the real CLI carried out by the running e2e server. */
async function setPrice(code: string, baht: number, tiers: { minQuantity: number; priceSatang: number }[]): Promise<void> {
  const tierArgs = tiers.flatMap((tier) => ['--tier', `${tier.minQuantity}=${tier.priceSatang / 100}`]);
  const { stdout } = await run(process.execPath, ['scripts/shop.ts', 'set-price', code, String(baht), ...tierArgs], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'memory://', DATA_DIR: e2eDataDir(), LOG_LEVEL: 'error' },
    timeout: 60_000,
  });
  expect(stdout).toContain(`${code}:`);
}

async function downloadText(page: Page, click: () => Promise<void>): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return (await pdfPages(new Uint8Array(Buffer.concat(chunks)))).join('\n');
}

const squash = (text: string) => text.replace(/\s+/g, '');

/** A demo product sold by the piece (no tiers), in stock, for the slip test. */
function plainProduct(skip: number) {
  for (let index = 40 + skip * 53, seen = 0; index < 360; index += 1) {
    const product = demoProduct(index, demoEpoch);
    if (product.tiers.length > 0 || product.stock < 20 || product.priceSatang < 10_000) continue;
    if (seen++ === 0) return product;
  }
  throw new Error('no plain demo product');
}

/** A wholesale demo product whose tier applies at 120 pieces and with stock for them. */
function wholesaleProduct(skip: number) {
  let seen = 0;
  for (let index = 0; index < 360; index += 1) {
    const product = demoProduct(index, demoEpoch);
    if (product.stock < 400 || !product.tiers.some((tier) => tier.minQuantity <= 120)) continue;
    if (seen++ === skip) return product;
  }
  throw new Error('no wholesale demo product');
}

test.describe('payments a shop can trust, and its paperwork', { tag: '@phone' }, () => {
  test('slip photo with its QR: staff see bank and reference; the member downloads the receipt', async ({ page }, testInfo) => {
    const email = `slip-${unique()}@e2e.test`;
    const password = `Gift-${unique()}-Shop!`;
    await register(page.request, email, password);
    const product = plainProduct(testInfo.project.name === 'phone' ? 1 : 0);
    await page.goto('/');
    await page.evaluate((code) => {
      localStorage.setItem('shoppingCart', JSON.stringify([{ product_code: code, product_name: 'x', product_price: 0.01, product_image: null, amount: 1 }]));
    }, product.code);
    await page.goto('/order');
    await page.getByRole('radio', { name: /Kerry Express/ }).check();
    await page.getByRole('radio', { name: 'โอนเงินผ่านธนาคาร' }).check();
    // A company buyer asks for a full tax invoice at checkout.
    await page.getByLabel('ต้องการใบกำกับภาษีเต็มรูป (สำหรับบริษัท/นิติบุคคล)').check();
    await page.getByLabel('ชื่อบริษัท / ชื่อผู้ซื้อ').fill('บริษัท ยิ้มแย้ม เทรดดิ้ง จำกัด');
    await page.getByLabel('ที่อยู่ตามทะเบียน').fill('88 ถนนสาทรใต้ แขวงยานนาวา เขตสาทร กรุงเทพมหานคร 10120');
    await page.getByLabel('เลขประจำตัวผู้เสียภาษี (13 หลัก)').fill('0105558000006');
    await page.getByRole('radio', { name: 'สาขา', exact: true }).check();
    await page.getByLabel('เลขที่สาขา').fill('00002');
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/checkout-tax-${testInfo.project.name}.png`, fullPage: true });
    await page.getByRole('button', { name: 'ยืนยันการสั่งซื้อ' }).click();
    await expect(page).toHaveURL(/\/order\/payment\?no=YL\d+/);
    const orderNo = (await page.getByTestId('order-no').textContent())!.trim();
    await waitForIslands(page);

    const ref = newSlipRef();
    const photo = await phonePhoto(await slipPicture(slipPayload(ref)), { angle: 11, width: 560 });
    await page.getByLabel(/แนบสลิปการโอนเงิน/).setInputFiles({ name: 'slip.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: 'ส่งสลิปการโอนเงิน' }).click();
    await expect(page).toHaveURL(/\/order\/success\?no=/);
    await page.goto(`/order/delivery?no=${orderNo}`);
    await expect(page.getByTestId('member-slip-check')).toContainText(ref.transRef);

    // Staff open the order: bank and reference beside the slip.
    const staffToken = await signInStaff(page.request, testInfo);
    await page.goto(`/order/payment?no=${orderNo}`);
    const check = page.getByTestId('slip-check');
    await expect(check.getByTestId('slip-check-status')).toHaveText('อ่าน QR สลิปได้');
    await expect(check.getByTestId('slip-bank')).toHaveText('ธนาคารกสิกรไทย (KBANK)');
    await expect(check.getByTestId('slip-reference')).toHaveText(ref.transRef);
    // The same beside the slip in the back office, and on the order's row in the review tab.
    await page.goto(`/admin/orders/${orderNo}`);
    await expect(page.getByTestId('slip-check').getByTestId('slip-reference')).toHaveText(ref.transRef);
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/slip-check-${testInfo.project.name}.png`, fullPage: true });
    await page.goto(`/admin/orders?tab=review&q=${orderNo}`);
    await expect(page.locator(`tr[data-order-no="${orderNo}"] [data-slip-check]`)).toHaveText('มีสลิป · อ่าน QR สลิปได้');
    await expect(page.getByTestId('slip-filter')).toBeVisible();
    const confirm = await page.request.post('/api/order-status-update', {
      data: { no: orderNo, action: 'confirm_payment' },
      headers: { Authorization: `Bearer ${staffToken}` },
    });
    expect(confirm.status(), await confirm.text()).toBe(200);

    // The member downloads the receipt from My Purchase and from the order page.
    await signIn(page.request, email, password);
    await page.goto('/user/purchase?tab=to-ship');
    const card = page.locator(`li.purchase-order[data-order-no="${orderNo}"]`);
    const fromList = squash(await downloadText(page, () => card.getByTestId('purchase-receipt').click()));
    expect(fromList).toContain(squash('ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ'));
    await page.goto(`/order/delivery?no=${orderNo}`);
    await expect(page.getByTestId('order-documents')).toContainText('RE');
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/receipt-${testInfo.project.name}.png`, fullPage: true });
    const text = squash(await downloadText(page, () => page.getByTestId('receipt-download').click()));
    expect(text).toContain(squash('ร้านยิ้มละไม กิฟต์ช็อป'));
    expect(text).toContain('0105566123456');
    expect(text).toContain(orderNo);
    expect(text).toContain(squash('ภาษีมูลค่าเพิ่ม 7%'));
    const order = (await (await page.request.post('/api/order-get', { data: { no: orderNo } })).json()) as { data: { total_price: number } };
    expect(text).toContain(squash(`(${bahtText(Math.round(order.data.total_price * 100))})`));
    const invoice = squash(await downloadText(page, () => page.getByTestId('tax-invoice-download').click()));
    expect(invoice).toContain(squash('ใบเสร็จรับเงิน/ใบกำกับภาษี'));
    expect(invoice).toContain(squash('บริษัท ยิ้มแย้ม เทรดดิ้ง จำกัด'));
    expect(invoice).toContain('0105558000006');
    expect(invoice).toContain(squash('สาขาที่ 00002'));
  });

  test('a quotation for 120 pieces: its PDF, then an order at the quoted price after a price rise', async ({ page }, testInfo) => {
    const email = `quote-${unique()}@e2e.test`;
    await register(page.request, email, `Gift-${unique()}-Shop!`);
    const product = wholesaleProduct(testInfo.project.name === 'phone' ? 1 : 0);
    const unit = unitPriceFor(product.priceSatang, product.tiers, 120);
    expect(unit).toBeLessThan(product.priceSatang);
    await page.goto('/');
    await page.evaluate(
      ({ code, name }) => {
        localStorage.setItem('shoppingCart', JSON.stringify([{ product_code: code, product_name: name, product_price: 0.01, product_image: null, amount: 120 }]));
      },
      { code: product.code, name: product.name },
    );
    await page.goto('/cart');
    await waitForIslands(page);
    await page.getByRole('link', { name: 'ขอใบเสนอราคา' }).click();
    await expect(page).toHaveURL(/\/quotation\/new$/);
    await waitForIslands(page);
    await page.getByLabel('บริษัท / หน่วยงาน / โรงเรียน (ถ้ามี)').fill('โรงเรียนบ้านยิ้มละไม');
    await page.getByLabel('ที่อยู่ (ถ้ามี)').fill('1 หมู่ 2 ตำบลบางพลัด อำเภอบางกรวย นนทบุรี 11130');
    await page.getByRole('radio', { name: /Kerry Express/ }).check();
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/quotation-new-${testInfo.project.name}.png`, fullPage: true });
    await page.getByRole('button', { name: 'ออกใบเสนอราคา' }).click();
    await expect(page).toHaveURL(/\/quotation\/QT\d{4}-\d{6}$/);
    const quotationNo = (await page.getByTestId('quotation-no').textContent())!.trim();
    await expect(page.getByTestId('quotation-unit-price')).toHaveText(formatBahtExact(unit));
    const total = (await page.getByTestId('quotation-total').textContent())!.trim();
    if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/quotation-${testInfo.project.name}.png`, fullPage: true });

    const pdf = squash(await downloadText(page, () => page.getByTestId('quotation-pdf').click()));
    expect(pdf).toContain(squash('ใบเสนอราคา'));
    expect(pdf).toContain(quotationNo);
    expect(pdf).toContain(squash('โรงเรียนบ้านยิ้มละไม'));
    expect(pdf).toContain(squash(product.name));
    expect(pdf).toContain(formatBahtExact(unit).replace('฿', ''));
    expect(pdf).toContain(squash('ภาษีมูลค่าเพิ่ม 7%'));

    // The shop raises the price and its wholesale tiers by half.
    await setPrice(
      product.code,
      Math.round((product.priceSatang * 1.5) / 100),
      product.tiers.map((tier) => ({ minQuantity: tier.minQuantity, priceSatang: Math.round((tier.priceSatang * 1.5) / 100) * 100 })),
    );
    await page.goto(`/product/${product.code}`);
    await expect(page.getByText(formatBaht(Math.round((product.priceSatang * 1.5) / 100) * 100)).first()).toBeVisible();

    await page.goto(`/quotation/${quotationNo}`);
    await page.getByRole('radio', { name: 'โอนเงินผ่านธนาคาร' }).check();
    await page.getByRole('button', { name: 'สั่งซื้อตามใบเสนอราคานี้' }).click();
    await expect(page).toHaveURL(/\/order\/payment\?no=YL\d+/);
    await expect(page.getByTestId('pay-amount')).toHaveText(total);
    const orderNo = (await page.getByTestId('order-no').textContent())!.trim();
    const order = (await (await page.request.post('/api/order-get', { data: { no: orderNo } })).json()) as {
      data: { lines: { product_code: string; product_price: number; amount: number }[] };
    };
    expect(order.data.lines).toEqual([expect.objectContaining({ product_code: product.code, product_price: unit / 100, amount: 120 })]);
    // The quotation now points to its order and cannot be used again.
    await page.goto(`/quotation/${quotationNo}`);
    await expect(page.getByText(`คำสั่งซื้อ ${orderNo}`)).toBeVisible();
  });
});
