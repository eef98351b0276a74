import { expect, test } from '@playwright/test';
import { latestMailTo } from '../fixtures/outbox';
import { signUp } from './fixtures/member';
import { staffPage } from './fixtures/roles';
import { e2eDataDir, keepScreenshot, projectContext, waitForIslands } from './helpers';
import { seriousAxeViolations } from './axe';

/**
 * Issue 31 part 4 (docs/decisions/220) in a browser: on a sold-out shade `แจ้งเตือนเมื่อมีสินค้า` shows,
 * follows the picker, and a member subscribes in one click; staff add stock on the back office's stock
 * page, which counts the customer waiting; the restock mail is in the outbox. Each project its own shade
 * of the cream blush (P00263: -03 and -06 are sold out in the demo), which no other spec touches.
 */
test('a member asks for a sold-out shade and hears when staff restock it', { tag: '@phone' }, async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const phone = testInfo.project.name === 'phone';
  const [shade, shadeName] = phone ? ['P00263-06', 'น้ำตาลนม'] : ['P00263-03', 'แดงอิฐ'];
  const member = await signUp(page, testInfo, 'back-in-stock');

  await page.goto(`/product/P00263?variant=${shade}`);
  await waitForIslands(page);
  const ask = page.getByRole('button', { name: 'แจ้งเตือนเมื่อมีสินค้า' });
  await expect(ask).toBeVisible();
  // A member is not asked for an e-mail.
  await expect(page.getByLabel('อีเมลของคุณ')).toBeHidden();

  // The button follows the chosen shade: gone on one in stock, back on the sold-out one.
  const shades = page.getByRole('group', { name: /^สี/ });
  await shades.locator('label', { hasText: 'ชมพูนู้ด' }).click();
  await expect(ask).toBeHidden();
  await shades.locator('label', { hasText: shadeName }).click();
  await expect(page).toHaveURL(new RegExp(`variant=${shade}$`));
  await expect(ask).toBeVisible();

  await ask.click();
  await expect(page.getByRole('status').filter({ hasText: 'เราจะแจ้งทางอีเมลเมื่อสินค้ามีอีกครั้ง' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'ยกเลิกการแจ้งเตือน' })).toBeVisible();
  await keepScreenshot(page, `back-in-stock-subscribed-${testInfo.project.name}`, { fullPage: false });
  // Coming back, the page says so.
  await page.reload();
  await waitForIslands(page);
  await expect(page.getByRole('status').filter({ hasText: 'คุณขอรับการแจ้งเตือนสินค้านี้ไว้แล้ว' })).toBeVisible();
  await expect(ask).toBeHidden();

  // Staff see the customer waiting and add stock.
  const admin = await staffPage(browser, testInfo);
  await admin.goto('/admin');
  const waited = admin.getByTestId('waited-for');
  await expect(waited.getByRole('heading', { name: 'ลูกค้ารอสินค้า' })).toBeVisible();
  await expect(waited.locator(`[data-variant-code="${shade}"]`)).toContainText(/รอ \d+ คน/);
  await keepScreenshot(admin, `back-in-stock-dashboard-${testInfo.project.name}`);
  await admin.goto('/admin/products/P00263/stock');
  await expect(admin.getByTestId('back-in-stock-waiting')).toContainText(/ลูกค้ารอรับแจ้งเตือนเมื่อมีสินค้า/);
  const option = admin.locator('#stock-variant option', { hasText: `(${shade})` });
  await expect(option).toContainText('ลูกค้ารอ 1 คน');
  await keepScreenshot(admin, `back-in-stock-admin-stock-${testInfo.project.name}`, { fullPage: false });
  await admin.getByLabel('ตัวเลือก').selectOption(shade);
  await admin.getByLabel('จำนวน').fill('4');
  await admin.getByLabel('เหตุผล').fill('รับสินค้าจากผู้ผลิต');
  await admin.getByRole('button', { name: 'บันทึก' }).click();
  await expect(admin.locator('#stock-variant option', { hasText: `(${shade})` })).toContainText('คงเหลือ 4');
  await expect(admin.locator('#stock-variant option', { hasText: `(${shade})` })).not.toContainText('ลูกค้ารอ');

  // The outbox worker sends it: one mail, to the member, naming the shade and linking to it.
  await expect.poll(() => latestMailTo(e2eDataDir(), member.email, `variant=${shade}`)?.text ?? '', { timeout: 20_000 }).toContain(`/product/P00263?variant=${shade}`);
  const mail = latestMailTo(e2eDataDir(), member.email, `variant=${shade}`)!;
  expect(mail.text).toContain('/back-in-stock/cancel?token=');
  await admin.context().close();
});

test('a visitor gives an e-mail and confirms it with a button', { tag: '@phone' }, async ({ page }, testInfo) => {
  const phone = testInfo.project.name === 'phone';
  // The other project's shade of another demo product with sold-out shades (P00315 -03 and -06).
  const shade = phone ? 'P00315-06' : 'P00315-03';
  const email = `visitor-${testInfo.project.name}-${Date.now()}@example.com`;
  await page.goto(`/product/${shade}`);
  await waitForIslands(page);
  await page.getByLabel('อีเมลของคุณ').scrollIntoViewIfNeeded();
  await keepScreenshot(page, `back-in-stock-visitor-form-${testInfo.project.name}`, { fullPage: false });
  expect((await seriousAxeViolations(page)).map((violation) => violation.id)).toEqual([]);
  await page.getByLabel('อีเมลของคุณ').fill(email);
  await page.getByRole('button', { name: 'แจ้งเตือนเมื่อมีสินค้า' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'เราส่งอีเมลยืนยันไปให้แล้ว' })).toBeVisible();
  await keepScreenshot(page, `back-in-stock-visitor-${testInfo.project.name}`, { fullPage: false });

  await expect.poll(() => latestMailTo(e2eDataDir(), email)?.text ?? '', { timeout: 20_000 }).toContain('/back-in-stock/confirm?token=');
  const link = /(\/back-in-stock\/confirm\?token=[A-Za-z0-9_-]+)/.exec(latestMailTo(e2eDataDir(), email)!.text)![1]!;
  await page.goto(link);
  await expect(page.getByRole('button', { name: 'ยืนยันการแจ้งเตือน' })).toBeVisible();
  await page.getByRole('button', { name: 'ยืนยันการแจ้งเตือน' }).click();
  await expect(page.getByRole('status')).toContainText('ยืนยันแล้ว');
  await keepScreenshot(page, `back-in-stock-confirmed-${testInfo.project.name}`, { fullPage: false });
});

test('without JavaScript the visitor’s form posts and comes back with the answer', async ({ browser }, testInfo) => {
  const context = await projectContext(browser, testInfo, { javaScriptEnabled: false });
  const page = await context.newPage();
  const email = `no-js-${Date.now()}@example.com`;
  await page.goto('/product/P00315?variant=P00315-03');
  await page.getByLabel('อีเมลของคุณ').fill(email);
  await page.getByRole('button', { name: 'แจ้งเตือนเมื่อมีสินค้า' }).click();
  await expect(page).toHaveURL(/\/back-in-stock\?done=sent&variant=P00315-03$/);
  await expect(page.getByRole('status')).toContainText('เราส่งอีเมลยืนยันไปให้แล้ว');
  await expect(page.getByRole('link', { name: 'กลับไปที่สินค้า' })).toHaveAttribute('href', '/product/P00315-03');
  // A bad address (the browser's own check stops it before sending) is refused in Thai by the server too.
  const refused = await page.request.post('/back-in-stock', { form: { variant: 'P00315-03', email: 'ไม่ใช่อีเมล' }, headers: { Origin: new URL(page.url()).origin } });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain('รูปแบบอีเมลไม่ถูกต้อง');
  await context.close();
});
