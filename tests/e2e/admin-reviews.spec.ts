import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { startReviewShop, type ReviewShop } from '../fixtures/review-shop';
import { seriousAxeViolations } from './axe';
import { keepScreenshot, projectContext } from './helpers';

/**
 * issue 31 part 3 in the browser: the owner opens the review queue (waiting reviews first), hides a
 * spam review with a reason after the SweetAlert2 confirmation, finds it in `ซ่อนอยู่` with the reason,
 * answers a published review whose text holds markup (shown as text), and approves the other waiting
 * one. On a shop of its own that already holds reviews (tests/fixtures/review-shop.ts): one per project,
 * so the desktop and the phone each start from the same queue.
 */

let shop: ReviewShop;

test.describe('the review queue', { tag: '@phone' }, () => {
  // One worker per project takes this spec's tests in order: the shop below is the project's own, on a
  // port of its own, and the settings test changes it after the queue test.
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(async () => {
    const testInfo = test.info();
    testInfo.setTimeout(240_000);
    // E2E_PORT + 2 and + 3: ports of this spec's own (the e2e server is on E2E_PORT).
    const port = Number(process.env.E2E_PORT ?? 4399) + (testInfo.project.name === 'phone' ? 3 : 2);
    shop = await startReviewShop(port);
  });
  test.afterAll(async () => {
    await shop?.stop();
  });

  async function ownerPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
    const context = await projectContext(browser, testInfo, { baseURL: shop.base });
    const page = await context.newPage();
    const login = await page.request.post('/api/auth/login', { data: { login: shop.owner.email, password: shop.owner.password } });
    expect(login.status(), await login.text()).toBe(200);
    return page;
  }

  const review = (page: Page, body: string) => page.getByTestId('review-queue').locator('li.review-card').filter({ hasText: body });

  async function confirmDialog(page: Page) {
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('คุณแน่ใจไหม ?')).toBeVisible();
    await dialog.getByRole('button', { name: 'ตกลง' }).click();
  }

  test('the owner hides a review with a reason, answers another and approves a third', async ({ browser }, testInfo) => {
    const phone = testInfo.project.name === 'phone';
    const page = await ownerPage(browser, testInfo);
    const spam = shop.reviews.find((one) => one.body.includes('081-234-5678'))!;
    const marked = shop.reviews.find((one) => one.body.includes('<script>'))!;
    const liked = shop.reviews.find((one) => one.body.startsWith('ชอบมากค่ะ'))!;

    // The dashboard's to-do list counts the waiting reviews and opens them.
    await page.goto('/admin');
    const todo = page.getByTestId('waiting-card').filter({ has: page.locator('[data-count="รีวิวรอตรวจ"]') });
    await expect(todo.locator('[data-count="รีวิวรอตรวจ"]')).toHaveText('2');
    await keepScreenshot(page, `admin-reviews-dashboard-${testInfo.project.name}`, { fullPage: false });
    await todo.click();
    await expect(page).toHaveURL(/\/admin\/reviews\?status=pending$/);
    await expect(page.getByRole('heading', { name: 'รีวิวจากลูกค้า', level: 1 })).toBeVisible();
    const tabs = page.getByRole('navigation', { name: 'สถานะรีวิว' });
    await expect(tabs.getByRole('link', { name: /รอตรวจ 2/ })).toHaveAttribute('aria-current', 'page');
    // Newest first: the review with photos was written last.
    await expect(page.getByTestId('review-queue').locator('li.review-card').first()).toContainText(liked.productName);
    await expect(review(page, liked.body).getByRole('img', { name: 'รูปที่ 1 จากรีวิว' })).toBeVisible();
    await expect(review(page, liked.body).getByRole('img', { name: '5 จาก 5 ดาว' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await keepScreenshot(page, `admin-reviews-queue-${testInfo.project.name}`);

    // Hide the spam with a reason: asked first, then back on the same tab with the message.
    const card = review(page, spam.body);
    await card.getByText('ซ่อน', { exact: true }).click();
    await card.getByLabel('เหตุผลที่ซ่อน').fill('มีเบอร์โทรศัพท์และชวนซื้อขายนอกร้าน');
    await keepScreenshot(page, `admin-reviews-hide-${testInfo.project.name}`, { fullPage: !phone });
    await card.getByRole('button', { name: 'ซ่อนรีวิว' }).click();
    await confirmDialog(page);
    await expect(page.getByTestId('admin-flash')).toHaveText('ซ่อนรีวิวแล้ว สมาชิกจะเห็นว่ารีวิวถูกซ่อนพร้อมเหตุผล');
    await expect(page).toHaveURL(/\/admin\/reviews\?status=pending$/);
    await expect(review(page, spam.body)).toHaveCount(0);

    await tabs.getByRole('link', { name: /ซ่อนอยู่/ }).click();
    const hidden = review(page, spam.body);
    await expect(hidden.getByTestId('review-hidden-reason')).toHaveText('เหตุผลที่ซ่อน: มีเบอร์โทรศัพท์และชวนซื้อขายนอกร้าน');
    await expect(hidden.getByRole('button', { name: 'แสดงอีกครั้ง' })).toBeVisible();

    // Answer the published review whose text holds markup: it reads as text, nothing runs.
    await tabs.getByRole('link', { name: /เผยแพร่แล้ว/ }).click();
    const answered = review(page, 'สีตรงปก แต่ส่งช้าไปนิด');
    await expect(answered.getByTestId('review-body')).toHaveText(marked.body);
    await answered.getByText('ตอบกลับ', { exact: true }).click();
    await answered.getByLabel('คำตอบของร้าน (แสดงต่อสาธารณะ)').fill('ขออภัยที่ส่งช้าค่ะ รอบหน้าร้านจะเร่งจัดส่งให้นะคะ');
    await answered.getByRole('button', { name: 'บันทึกคำตอบ' }).click();
    await expect(page.getByTestId('admin-flash')).toHaveText('บันทึกคำตอบของร้านแล้ว');
    await expect(review(page, 'สีตรงปก แต่ส่งช้าไปนิด').getByTestId('review-answer')).toContainText('ขออภัยที่ส่งช้าค่ะ รอบหน้าร้านจะเร่งจัดส่งให้นะคะ');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await keepScreenshot(page, `admin-reviews-published-${testInfo.project.name}`);

    // Approve the last waiting one: the waiting tab is empty and says so.
    await tabs.getByRole('link', { name: /รอตรวจ/ }).click();
    await review(page, liked.body).getByRole('button', { name: 'อนุมัติ' }).click();
    await expect(page.getByTestId('admin-flash')).toHaveText('อนุมัติรีวิวแล้ว รีวิวแสดงในหน้าสินค้าแล้ว');
    await expect(page.getByTestId('reviews-empty')).toHaveText('ไม่มีรีวิวที่รอตรวจ');
    await expect(tabs.getByRole('link', { name: /รอตรวจ 0/ })).toBeVisible();

    // The member's page in the back office counts their reviews.
    await tabs.getByRole('link', { name: /ทั้งหมด/ }).click();
    await review(page, liked.body).getByRole('link', { name: liked.memberName }).click();
    await expect(page.getByTestId('member-reviews')).toHaveText('รีวิว: เผยแพร่แล้ว 1 · รอตรวจ 0 · ซ่อนอยู่ 0');

    // The back office's product page gives the product's stars and opens its reviews alone.
    await page.goto(`/admin/products/${marked.productCode}`);
    await expect(page.getByTestId('product-reviews')).toContainText('คะแนนรีวิว 3.0 จาก 5 (1 รีวิว)');
    await page.getByRole('link', { name: 'ดูรีวิวของสินค้านี้' }).click();
    await expect(page.getByTestId('reviews-of-product')).toContainText(marked.productName);
    await expect(page.getByTestId('review-queue').locator('li.review-card')).toHaveCount(1);

    // The audit trail says what happened, in Thai, and links to the review alone.
    await page.goto('/admin/audit');
    const hideRow = page.getByText(`ซ่อนรีวิวของ`).first();
    await expect(hideRow).toBeVisible();
    await page.getByRole('link', { name: spam.productName }).first().click();
    await expect(page).toHaveURL(new RegExp(`/admin/reviews\\?review=${spam.id}$`));
    await expect(page.getByTestId('review-queue').locator('li.review-card')).toHaveCount(1);
    await page.context().close();
  });

  test('the owner turns on approval for new reviews in the settings', async ({ browser }, testInfo) => {
    const page = await ownerPage(browser, testInfo);
    await page.goto('/admin/settings#reviews');
    const section = page.locator('#reviews');
    await expect(section.getByRole('heading', { name: 'รีวิว' })).toBeVisible();
    const approval = section.getByRole('switch', { name: 'รีวิวใหม่ต้องรอร้านอนุมัติก่อนแสดง' });
    await expect(approval).not.toBeChecked();
    await expect(section.getByRole('switch', { name: 'ส่งอีเมลชวนรีวิวเมื่อส่งของถึงแล้ว' })).toBeChecked();
    await approval.check();
    await section.getByRole('button', { name: 'บันทึก' }).click();
    await expect(page.getByTestId('admin-flash')).toHaveText('บันทึกการตั้งค่ารีวิวแล้ว');
    await expect(page.locator('#reviews').getByRole('switch', { name: 'รีวิวใหม่ต้องรอร้านอนุมัติก่อนแสดง' })).toBeChecked();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.locator('#reviews').scrollIntoViewIfNeeded();
    await keepScreenshot(page, `admin-reviews-settings-${testInfo.project.name}`, { fullPage: false });
    await page.context().close();
  });
});
