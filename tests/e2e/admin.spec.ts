import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';
import { demoEpoch, demoProduct } from '../../src/server/db/demo-catalog';
import { statusLabels } from '../../src/lib/orders';
import { sampleAddress } from '../fixtures/address';
import { pdfPages } from '../fixtures/pdf-text';
import { grantRole } from './fixtures/roles';
import { projectContext, waitForIslands } from './helpers';

/**
 * Issue 9 in the browser: an owner grants `staff` to a member; that staff member watches the dashboard
 * move as a shopper orders and sends a slip, opens the order, confirms payment and ships it with a
 * tracking number; the shopper sees each step; labels for two orders come out as one PDF. Then who
 * may open which back-office page, for every role.
 */

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PASSWORD = 'Owner-Password-2569!';

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

function phoneNumber(): string {
  return `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

async function register(request: APIRequestContext, email: string, firstName = 'ทดสอบ'): Promise<void> {
  const response = await request.post('/api/member-insert', {
    data: { firstName, lastName: 'หลังร้าน', email, phone: phoneNumber(), password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function addAddress(request: APIRequestContext, recipientName: string): Promise<string> {
  const response = await request.post('/api/user/addresses', { data: { ...sampleAddress, recipientName, isDefault: true } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

function product(skip: number) {
  for (let index = 40 + skip * 29; index < 360; index += 1) {
    const item = demoProduct(index, demoEpoch);
    if (item.stock >= 200) return item;
  }
  throw new Error('no demo product with stock');
}

async function placeOrder(request: APIRequestContext, addressId: string, method: 'promptpay' | 'cod', skip: number): Promise<string> {
  const response = await request.post('/api/orders', {
    headers: { 'Idempotency-Key': `e2e-${unique()}` },
    data: { lines: [{ product_code: product(skip).code, amount: 1 }], address_id: addressId, delivery_code: 'ems', payment_method: method },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { order_no: string } }).data.order_no;
}

async function signedIn(browser: Browser, testInfo: TestInfo, email: string, firstName?: string): Promise<Page> {
  const context = await projectContext(browser, testInfo);
  const page = await context.newPage();
  await register(page.request, email, firstName);
  return page;
}

async function waitingCount(page: Page, label: string): Promise<number> {
  await page.goto('/admin');
  return Number(await page.locator(`[data-count="${label}"]`).textContent());
}

const shots = process.env.E2E_SHOTS;

test.describe('back office', () => {
  test('owner grants staff; staff confirms and ships from the browser; the shopper follows; labels for two orders', { tag: '@phone' }, async ({ browser }, testInfo) => {
    test.setTimeout(120_000);
    const tag = `${testInfo.project.name}-${unique()}`;
    const ownerEmail = `owner-${tag}@e2e.test`;
    const staffEmail = `newstaff-${tag}@e2e.test`;
    const owner = await signedIn(browser, testInfo, ownerEmail, 'เจ้าของ');
    await grantRole(ownerEmail, 'owner');
    const staff = await signedIn(browser, testInfo, staffEmail, 'พนักงานใหม่');

    // Before the grant the member has no back office at all.
    expect((await staff.goto('/admin'))?.status()).toBe(404);

    await owner.goto('/admin/staff');
    await owner.getByLabel('อีเมลของสมาชิก').fill(staffEmail);
    await owner.getByLabel('บทบาท').selectOption('staff');
    await owner.getByLabel('รหัสผ่านของคุณ (ยืนยันอีกครั้ง)').fill('wrong-password');
    await owner.getByRole('button', { name: 'ให้สิทธิ์' }).click();
    await expect(owner.getByTestId('admin-flash')).toContainText('รหัสผ่านไม่ถูกต้อง');
    await owner.getByLabel('อีเมลของสมาชิก').fill(staffEmail);
    await owner.getByLabel('บทบาท').selectOption('staff');
    await owner.getByLabel('รหัสผ่านของคุณ (ยืนยันอีกครั้ง)').fill(PASSWORD);
    await owner.getByRole('button', { name: 'ให้สิทธิ์' }).click();
    await expect(owner.getByTestId('admin-flash')).toContainText(`ให้สิทธิ์ พนักงาน แก่ ${staffEmail}`);
    await expect(owner.locator(`[data-staff-email="${staffEmail}"]`)).toContainText('พนักงาน');

    const receiverA = `น้ำผึ้ง ${testInfo.project.name === 'phone' ? 'มือถือ' : 'เดสก์ท็อป'}ใจดี`;
    const receiverB = `สมศักดิ์ ${testInfo.project.name === 'phone' ? 'มือถือ' : 'เดสก์ท็อป'}รักไทย`;
    const shopper = await signedIn(browser, testInfo, `shopper-${tag}@e2e.test`, 'ลูกค้า');
    const addressA = await addAddress(shopper.request, receiverA);
    const orderNo = await placeOrder(shopper.request, addressA, 'promptpay', testInfo.project.name === 'phone' ? 1 : 0);
    const slip = await shopper.request.post('/api/order-slip', {
      headers: { Origin: new URL(shopper.url() === 'about:blank' ? testInfo.project.use.baseURL! : shopper.url()).origin },
      multipart: { no: orderNo, slip: { name: 'slip.png', mimeType: 'image/png', buffer: PNG } },
    });
    expect(slip.status(), await slip.text()).toBe(200);

    // The dashboard's counts are the whole shop's, which other workers' orders move at the same time: their
    // exact sums are proved on a database of its own (tests/integration/admin-screens.test.ts); here the count
    // leads to the order.
    expect(await waitingCount(staff, statusLabels.payment_review)).toBeGreaterThan(0);
    await expect(staff.getByRole('navigation', { name: 'เมนูหลังร้าน' }).getByRole('link', { name: 'ทีมงาน' })).toHaveCount(0);
    if (shots) await staff.screenshot({ path: `${shots}/admin-dashboard-${testInfo.project.name}.png`, fullPage: true });

    await staff.getByRole('link', { name: new RegExp(statusLabels.payment_review) }).first().click();
    await expect(staff).toHaveURL(/\/admin\/orders\?tab=review/);
    const row = staff.locator(`tr[data-order-no="${orderNo}"]`);
    await expect(row).toContainText(receiverA);
    if (shots) await staff.screenshot({ path: `${shots}/admin-orders-${testInfo.project.name}.png`, fullPage: true });
    await row.getByRole('link', { name: orderNo }).click();
    await expect(staff.getByRole('heading', { name: `คำสั่งซื้อ ${orderNo}` })).toBeVisible();
    await expect(staff.getByRole('img', { name: /สลิปการโอนเงินของคำสั่งซื้อ/ })).toBeVisible();
    if (shots) await staff.screenshot({ path: `${shots}/admin-order-${testInfo.project.name}.png`, fullPage: true });

    await staff.getByRole('button', { name: 'ยืนยันการชำระเงิน' }).click();
    await staff.getByRole('dialog').getByRole('button', { name: 'ยืนยัน ได้รับเงินแล้ว' }).click();
    await expect(staff.getByTestId('admin-flash')).toContainText(`${orderNo}: ยืนยันการชำระเงินแล้ว`);
    // A decision on a slip moves on to the next slip waiting (or the review tab): back to this order to ship it.
    await staff.goto(`/admin/orders/${orderNo}`);
    await shopper.goto('/user/purchase?tab=to-ship');
    await expect(shopper.locator(`li.purchase-order[data-order-no="${orderNo}"]`).getByTestId('purchase-status')).toHaveText(statusLabels.paid);

    const tracking = `EF${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}TH`;
    await staff.getByLabel('เลขพัสดุ').fill('123');
    await staff.getByRole('button', { name: 'จัดส่งแล้ว' }).click();
    await expect(staff.getByTestId('admin-flash')).toContainText('เลขพัสดุ');
    await staff.getByLabel('เลขพัสดุ').fill(tracking.toLowerCase());
    await staff.getByRole('button', { name: 'จัดส่งแล้ว' }).click();
    await expect(staff.getByTestId('admin-flash')).toContainText('กำลังจัดส่ง');
    await expect(staff.getByTestId('order-tracking')).toHaveText(tracking);
    if (shots) await staff.screenshot({ path: `${shots}/admin-order-shipped-${testInfo.project.name}.png`, fullPage: true });

    await shopper.goto('/user/purchase?tab=to-receive');
    await expect(shopper.locator(`li.purchase-order[data-order-no="${orderNo}"]`)).toContainText(tracking);
    await shopper.goto(`/order/delivery?no=${orderNo}`);
    await expect(shopper.getByTestId('order-status')).toHaveText('กำลังจัดส่ง');
    await expect(shopper.getByTestId('tracking-no')).toHaveText(tracking);

    // A second order, cash on delivery, to another receiver: it waits to ship at once.
    const addressB = await addAddress(shopper.request, receiverB);
    const codNo = await placeOrder(shopper.request, addressB, 'cod', testInfo.project.name === 'phone' ? 3 : 2);
    expect(await waitingCount(staff, statusLabels.paid)).toBeGreaterThan(0);
    await staff.getByRole('link', { name: new RegExp(statusLabels.paid) }).first().click();
    await expect(staff).toHaveURL(/\/admin\/orders\?tab=to-ship/);
    await staff.goto(`/admin/orders?tab=to-ship&q=${codNo}`);
    await expect(staff.locator(`tr[data-order-no="${codNo}"]`)).toContainText(receiverB);

    await staff.goto(`/admin/orders?q=${encodeURIComponent('ลูกค้า หลังร้าน')}`);
    await staff.getByRole('searchbox', { name: 'เลขที่คำสั่งซื้อ ชื่อ หรือเบอร์โทร' }).fill(receiverA.split(' ')[0]!);
    await staff.getByRole('button', { name: 'ค้นหา' }).click();
    await expect(staff.locator(`tr[data-order-no="${orderNo}"]`)).toBeVisible();
    await staff.goto('/admin/orders');
    const selectAll = staff.getByLabel('เลือกทั้งหมด');
    await selectAll.check();
    await expect(staff.locator('#bulk-form input[name="no"]:not(:checked)')).toHaveCount(0);
    await selectAll.uncheck();
    await expect(staff.locator('#bulk-form input[name="no"]:checked')).toHaveCount(0);
    await staff.locator(`#pick-${orderNo}`).check();
    await staff.locator(`#pick-${codNo}`).check();
    const pdfResponse = staff.context().waitForEvent('response', (response) => response.url().includes('/admin/orders/labels.pdf'));
    await staff.getByRole('button', { name: 'พิมพ์ใบปะหน้า' }).click();
    const opened = await pdfResponse;
    expect(opened.headers()['content-type']).toBe('application/pdf');
    // Headless Chromium hands a PDF tab to its downloader, so the same address the button opened is read again.
    expect(new URL(opened.url()).searchParams.getAll('no').sort()).toEqual([orderNo, codNo].sort());
    const response = await staff.request.get(opened.url());
    const pages = await pdfPages(new Uint8Array(await response.body()));
    expect(pages).toHaveLength(2);
    const text = pages.join('\n');
    for (const expected of [receiverA, receiverB, orderNo, codNo]) expect(text).toContain(expected);

    // The pick list of the same two orders, from its own button: one page, both orders named.
    const pickResponse = staff.context().waitForEvent('response', (response) => response.url().includes('/admin/orders/pick-list.pdf'));
    await staff.getByRole('button', { name: 'พิมพ์ใบหยิบสินค้า' }).click();
    const pickOpened = await pickResponse;
    expect(pickOpened.headers()['content-type']).toBe('application/pdf');
    const pickPages = await pdfPages(new Uint8Array(await (await staff.request.get(pickOpened.url())).body()));
    expect(pickPages).toHaveLength(1);
    for (const expected of ['ใบหยิบสินค้า (Pick list)', orderNo, codNo]) expect(pickPages[0]).toContain(expected);

    for (const page of [owner, staff, shopper]) await page.context().close();
  });

  test('who may open which back-office page', async ({ browser, playwright }, testInfo) => {
    const tag = `${testInfo.project.name}-${unique()}`;
    const member = await signedIn(browser, testInfo, `plain-${tag}@e2e.test`);
    const editorEmail = `editor-${tag}@e2e.test`;
    const editor = await signedIn(browser, testInfo, editorEmail);
    await grantRole(editorEmail, 'editor');
    const staff = await signedIn(browser, testInfo, `staff2-${tag}@e2e.test`);
    await grantRole(`staff2-${tag}@e2e.test`, 'staff');
    const ownerEmail = `owner2-${tag}@e2e.test`;
    const owner = await signedIn(browser, testInfo, ownerEmail);
    await grantRole(ownerEmail, 'owner');
    const anonymous = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });

    const addressId = await addAddress(member.request, 'ผู้รับ ทดสอบสิทธิ์');
    const orderNo = await placeOrder(member.request, addressId, 'cod', 5);
    const memberId = ((await (await member.request.get('/api/auth/me')).json()) as { data: { user: { id: string } } }).data.user.id;

    const table: { path: string; staff: number; owner: number; editor: number }[] = [
      { path: '/admin', staff: 200, owner: 200, editor: 302 },
      { path: '/admin/orders', staff: 200, owner: 200, editor: 403 },
      { path: `/admin/orders/${orderNo}`, staff: 200, owner: 200, editor: 403 },
      { path: '/admin/orders/import-tracking', staff: 200, owner: 200, editor: 403 },
      { path: `/admin/orders/labels.pdf?no=${orderNo}`, staff: 200, owner: 200, editor: 403 },
      { path: `/admin/orders/packing-slips.pdf?no=${orderNo}`, staff: 200, owner: 200, editor: 403 },
      { path: `/admin/orders/pick-list.pdf?no=${orderNo}`, staff: 200, owner: 200, editor: 403 },
      { path: '/admin/members', staff: 200, owner: 200, editor: 403 },
      { path: `/admin/members/${memberId}`, staff: 200, owner: 200, editor: 403 },
      { path: '/admin/audit', staff: 200, owner: 200, editor: 403 },
      { path: '/admin/search', staff: 200, owner: 200, editor: 403 },
      { path: '/admin/staff', staff: 403, owner: 200, editor: 403 },
      { path: '/admin/two-step', staff: 200, owner: 200, editor: 200 },
    ];
    for (const row of table) {
      for (const [who, request, expected] of [
        ['anonymous', anonymous, 404],
        ['member', member.request, 404],
        ['editor', editor.request, row.editor],
        ['staff', staff.request, row.staff],
        ['owner', owner.request, row.owner],
      ] as const) {
        const response = await request.get(row.path, { maxRedirects: 0 });
        expect(response.status(), `${who} ${row.path}`).toBe(expected);
        if (expected === 200) expect(response.headers()['cache-control'], `${who} ${row.path}`).toContain('no-store');
      }
    }
    // Posting as a member changes nothing and reveals nothing.
    const post = await member.request.post(`/admin/orders/${orderNo}/action`, {
      headers: { Origin: testInfo.project.use.baseURL! },
      form: { action: 'cancel', reason: 'x' },
    });
    expect(post.status()).toBe(404);
    await member.goto(`/order/delivery?no=${orderNo}`);
    await expect(member.getByTestId('order-status')).toHaveText(statusLabels.paid);

    // The phone menu: the sidebar sits behind ☰ เมนู.
    if (testInfo.project.name === 'phone') {
      await staff.goto('/admin/orders');
      await waitForIslands(staff);
      await staff.getByRole('button', { name: '☰ เมนู' }).click();
      await expect(staff.getByRole('navigation', { name: 'เมนูหลังร้าน' }).getByRole('link', { name: 'บันทึกการใช้งาน' })).toBeVisible();
    }
    // Only the owner changes a team member's disabled state (issue 32): staff get the button for customers only.
    const editorId = ((await (await editor.request.get('/api/auth/me')).json()) as { data: { user: { id: string } } }).data.user.id;
    await staff.goto(`/admin/members/${memberId}`);
    await expect(staff.getByRole('button', { name: 'ระงับบัญชีนี้' })).toBeVisible();
    await staff.goto(`/admin/members/${editorId}`);
    await expect(staff.getByText('บทบาท ผู้ดูแลเนื้อหา')).toBeVisible();
    await expect(staff.getByRole('button', { name: 'ระงับบัญชีนี้' })).toHaveCount(0);
    await owner.goto(`/admin/members/${editorId}`);
    await expect(owner.getByRole('button', { name: 'ระงับบัญชีนี้' })).toBeVisible();

    await staff.goto('/admin/audit');
    await expect(staff.getByRole('heading', { name: 'บันทึกการใช้งาน' })).toBeVisible();
    if (shots) {
      for (const [name, path] of [
        ['staff', '/admin/staff'],
        ['audit', '/admin/audit'],
        ['members', '/admin/members'],
        ['member', `/admin/members/${memberId}`],
        ['two-step', '/admin/two-step'],
        ['import', '/admin/orders/import-tracking'],
      ] as const) {
        await owner.goto(path);
        await owner.screenshot({ path: `${shots}/admin-${name}-${testInfo.project.name}.png`, fullPage: true });
      }
    }
    for (const page of [member, editor, staff, owner]) await page.context().close();
    await anonymous.dispose();
  });
  test('two-step sign-in: set up with the app, then login asks for the code', async ({ browser }, testInfo) => {
    const email = `totp-${testInfo.project.name}-${unique()}@e2e.test`;
    const staff = await signedIn(browser, testInfo, email, 'สองขั้น');
    await grantRole(email, 'staff');
    await staff.goto('/admin/two-step');
    await expect(staff.getByRole('img', { name: 'คิวอาร์โค้ดสำหรับแอปยืนยันตัวตน' }).locator('svg')).toBeVisible();
    const shownKey = (await staff.getByTestId('totp-secret').textContent())!.trim();
    // In groups of four for typing, and as an otpauth:// link for the phone that cannot scan its own screen.
    expect(shownKey).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    const secret = Secret.fromBase32(shownKey);
    expect(await staff.getByTestId('totp-link').getAttribute('href')).toContain(`secret=${shownKey.replace(/ /g, '')}`);
    const setupAt = Date.now();
    await staff.getByLabel('รหัส 6 หลักจากแอป').fill(TOTP.generate({ secret, timestamp: setupAt }));
    await staff.getByRole('button', { name: 'เปิดใช้งาน' }).click();
    await expect(staff.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
    const shownCodes = await staff.getByTestId('recovery-codes').locator('li').allTextContents();
    const [download] = await Promise.all([staff.waitForEvent('download'), staff.getByRole('link', { name: /ดาวน์โหลดรหัสกู้คืน/ }).click()]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    const downloaded = readFileSync((await download.path())!, 'utf8');
    for (const code of shownCodes) expect(downloaded).toContain(code.trim());
    await staff.context().close();

    const again = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: testInfo.project.use.viewport, isMobile: testInfo.project.use.isMobile });
    const page = await again.newPage();
    await page.goto('/login?next=/admin/orders');
    await waitForIslands(page);
    await page.getByLabel('อีเมลหรือเบอร์โทรศัพท์').fill(email);
    await page.getByLabel('รหัสผ่าน').fill(PASSWORD);
    await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
    await expect(page).toHaveURL(/\/login\/two-step\?next=%2Fadmin%2Forders/);
    // Not signed in yet: the back office is still a 404.
    expect((await page.request.get('/admin/orders')).status()).toBe(404);
    await page.getByLabel('รหัสยืนยัน').fill('000000');
    await page.getByRole('button', { name: 'ยืนยัน' }).click();
    await expect(page.getByRole('alert')).toContainText('รหัสยืนยันไม่ถูกต้อง');
    await page.getByLabel('รหัสยืนยัน').fill(TOTP.generate({ secret, timestamp: setupAt + 30_000 }));
    await page.getByRole('button', { name: 'ยืนยัน' }).click();
    await expect(page).toHaveURL(/\/admin\/orders$/);
    await expect(page.getByRole('heading', { name: 'คำสั่งซื้อ' })).toBeVisible();
    await again.close();
  });
});
