import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';
import sharp from 'sharp';
import { grantRole } from './fixtures/roles';
import { keepScreenshot, waitForIslands, withShopWideState } from './helpers';
import { XSS_PAYLOADS } from '../fixtures/xss-payloads';

/**
 * Issue 11 in the browser: an editor changes a content page with the toolbar, sees the preview at phone
 * and desktop width, publishes, a shopper sees it on the next load, the editor restores the earlier
 * version; XSS payloads published in a page never run; the owner changes the shop phone number.
 */

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

async function registerWithRole(request: APIRequestContext, prefix: string, role: 'editor' | 'owner'): Promise<{ email: string; password: string }> {
  const email = `${prefix}-${unique()}@e2e.test`;
  const password = `Content-${unique()}-Shop!`;
  const phone = `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const response = await request.post('/api/member-insert', {
    data: { firstName: 'ทดสอบ', lastName: 'หลังร้าน', email, phone, password, confirmPassword: password, acceptTerms: true },
  });
  expect(response.status(), await response.text()).toBe(201);
  await grantRole(email, role);
  return { email, password };
}

/** A visitor with no session, in their own browser context. */
async function shopper(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId } = testInfo.project.use;
  const baseURL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4399)}`;
  const context = await browser.newContext({ viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId, baseURL });
  return context.newPage();
}

const screenshot = (page: Page, testInfo: TestInfo, name: string) => keepScreenshot(page, `${name}-${testInfo.project.name}`);

test.describe('content pages', () => {
  test('an editor edits a page with the toolbar and a picture, publishes, a shopper sees it, the editor restores it', async ({ page, browser }, testInfo) => {
    test.setTimeout(150_000);
    await withShopWideState(async () => {
      // Desktop edits /aboutus, the phone run /howtoorder: the two projects may run at once on one server.
      const slug = testInfo.project.name === 'phone' ? 'howtoorder' : 'aboutus';
      await registerWithRole(page.request, `editor-${testInfo.project.name}`, 'editor');
      const mark = unique();

      await page.goto('/admin/pages');
      await expect(page.getByRole('heading', { level: 1, name: 'หน้าเนื้อหา' })).toBeVisible();
      await page.locator(`tr[data-page="${slug}"]`).getByRole('link', { name: /แก้ไข/ }).click();
      await expect(page).toHaveURL(`/admin/pages/${slug}`);
      await waitForIslands(page);

      const body = page.getByLabel('เนื้อหา', { exact: true });
      await body.fill(`ยินดีต้อนรับ ${mark}`);
      await body.press('End');
      await body.press('Enter');
      await body.press('Enter');
      await page.getByRole('button', { name: 'หัวข้อ', exact: true }).click();
      await page.keyboard.type(`สิ่งที่เราภูมิใจ ${mark}`);
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: '• รายการ' }).click();
      await page.keyboard.type('ของแท้ทุกชิ้น');
      await page.keyboard.press('Enter');
      // Enter in a list starts the next item by itself; Enter on an empty item ends the list.
      await page.keyboard.type('ส่งไวภายใน 24 ชั่วโมง');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      const picture = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#39b54a' } }).png().toBuffer();
      await page.getByTestId('picture-input').setInputFiles({ name: 'หน้าร้าน.png', mimeType: 'image/png', buffer: picture });
      await expect(body).toHaveValue(/!\[หน้าร้าน\]\(\/media\/pages\/[a-f0-9]{24}-900\.webp#900x600\)/);

      const preview = page.getByTestId('page-preview');
      await expect(preview.getByRole('heading', { level: 2, name: `สิ่งที่เราภูมิใจ ${mark}` })).toBeVisible();
      await expect(preview.getByRole('listitem')).toHaveText(['ของแท้ทุกชิ้น', 'ส่งไวภายใน 24 ชั่วโมง']);
      await expect(preview.getByRole('img', { name: 'หน้าร้าน' })).toBeVisible();
      await screenshot(page, testInfo, 'page-editor-desktop-preview');
      await page.getByRole('button', { name: 'มือถือ' }).click();
      await expect(preview).toHaveAttribute('data-width', 'phone');
      await expect.poll(async () => (await preview.boundingBox())!.width).toBeLessThanOrEqual(390);
      await screenshot(page, testInfo, 'page-editor-phone-preview');

      await page.getByRole('button', { name: 'เผยแพร่' }).click();
      await expect(page.getByTestId('admin-flash')).toContainText('เผยแพร่แล้ว');

      const visitor = await shopper(browser, testInfo);
      await visitor.goto(`/${slug}`);
      const content = visitor.getByTestId('content-body');
      await expect(content.getByRole('heading', { level: 2, name: `สิ่งที่เราภูมิใจ ${mark}` })).toBeVisible();
      await expect(content.getByRole('listitem')).toHaveText(['ของแท้ทุกชิ้น', 'ส่งไวภายใน 24 ชั่วโมง']);
      const shownPicture = content.getByRole('img', { name: 'หน้าร้าน' });
      await expect(shownPicture).toHaveAttribute('width', '900');
      await expect(shownPicture).toHaveJSProperty('complete', true);
      expect(await shownPicture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

      // Back to the version the shop started with.
      await page.locator('[data-testid="versions-table"] tr', { hasText: 'ฉบับแรก' }).getByRole('button', { name: 'กู้คืนฉบับนี้' }).click();
      await expect(page.getByTestId('admin-flash')).toContainText('กู้คืนฉบับเดิม');
      await waitForIslands(page);
      await expect(page.getByLabel('เนื้อหา', { exact: true })).not.toHaveValue(new RegExp(mark));
      await page.getByRole('button', { name: 'เผยแพร่' }).click();
      await expect(page.getByTestId('admin-flash')).toContainText('เผยแพร่แล้ว');
      await visitor.reload();
      await expect(content).not.toContainText(mark);
      await expect(content).toContainText(slug === 'aboutus' ? 'สิ่งที่เราใส่ใจ' : 'สอบถามเพิ่มเติม');
      await visitor.context().close();

      // An editor has no business with orders or the shop settings.
      const settings = await page.goto('/admin/settings');
      expect(settings?.status()).toBe(403);
      await expect(page.getByText('บทบาทของคุณไม่มีสิทธิ์เปิดหน้านี้')).toBeVisible();
      const orders = await page.goto('/admin/orders');
      // 403 once issue 9's orders page is merged; before that the route does not exist (404). Never 200.
      expect([403, 404]).toContain(orders?.status());
      await page.goto('/admin/pages');
      await expect(page.locator('#admin-sidebar')).toContainText('หน้าเนื้อหา');
      await expect(page.locator('#admin-sidebar')).toContainText('โปรโมชั่น');
      await expect(page.locator('#admin-sidebar')).not.toContainText('คำสั่งซื้อ');
      await expect(page.locator('#admin-sidebar')).not.toContainText('ตั้งค่าร้าน');
    });
  });

  test('XSS payloads published in a page never run, in the shop or in the editor preview', async ({ page, browser }, testInfo) => {
    await registerWithRole(page.request, `xss-${testInfo.project.name}`, 'editor');
    const slug = `xss-${testInfo.project.name}-${unique()}`;
    const origin = { Origin: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4399)}` };
    const created = await page.request.post('/admin/pages/create', { form: { slug, title: 'ทดสอบความปลอดภัย' }, maxRedirects: 0, headers: origin });
    expect(created.status()).toBe(303);
    const body = XSS_PAYLOADS.map((payload, index) => `ข้อ ${index + 1}\n\n${payload}`).join('\n\n');
    const saved = await page.request.post(`/admin/pages/${slug}/save`, { form: { title: 'ทดสอบความปลอดภัย', body, intent: 'publish' }, maxRedirects: 0, headers: origin });
    expect(saved.status()).toBe(303);

    const visitor = await shopper(browser, testInfo);
    const dialogs: string[] = [];
    visitor.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await visitor.addInitScript(() => {
      const hits: number[] = [];
      Object.assign(window, { __hits: hits, __xss: (n: number) => hits.push(n) });
    });
    const response = await visitor.goto(`/pages/${slug}`);
    expect(response?.status()).toBe(200);
    const content = visitor.getByTestId('content-body');
    await expect(content).toContainText(`ข้อ ${XSS_PAYLOADS.length}`);
    // Give event handlers (onload, onerror, ontoggle, autofocus) time to fire if any had survived.
    await visitor.waitForTimeout(1000);
    await content.locator('a, details, input, button').first().hover({ trial: true }).catch(() => undefined);
    expect(await visitor.evaluate(() => (window as unknown as { __hits: number[] }).__hits)).toEqual([]);
    expect(dialogs).toEqual([]);
    const risky = await content.evaluate((root) => {
      const found: string[] = [];
      for (const element of root.querySelectorAll('*')) {
        if (['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'SVG', 'MATH', 'STYLE', 'LINK', 'META', 'BASE', 'FORM', 'INPUT', 'TEMPLATE'].includes(element.tagName.toUpperCase())) found.push(element.tagName);
        for (const attribute of element.attributes) {
          if (/^on/i.test(attribute.name) || attribute.name === 'style' || /^\s*(javascript|vbscript|data):/i.test(attribute.value)) found.push(`${element.tagName}[${attribute.name}]`);
        }
      }
      return found;
    });
    expect(risky).toEqual([]);
    await visitor.context().close();

    // The editor's own preview shows the same sanitised HTML: another editor's paste cannot attack them.
    const editorDialogs: string[] = [];
    page.on('dialog', (dialog) => {
      editorDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.addInitScript(() => {
      const hits: number[] = [];
      Object.assign(window, { __hits: hits, __xss: (n: number) => hits.push(n) });
    });
    await page.goto(`/admin/pages/${slug}`);
    await waitForIslands(page);
    await expect(page.getByTestId('page-preview')).toContainText(`ข้อ ${XSS_PAYLOADS.length}`);
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => (window as unknown as { __hits: number[] }).__hits)).toEqual([]);
    expect(editorDialogs).toEqual([]);
  });
});

test.describe('shop settings', () => {
  test('the owner changes the shop phone number; navbar, footer, floating menu and contact page show it', async ({ page, browser }, testInfo) => {
    test.setTimeout(150_000);
    await withShopWideState(async () => {
      test.skip(testInfo.project.name === 'phone', 'the phone number is shop-wide: one project changes it, the screenshot runs on both');
      await registerWithRole(page.request, 'owner-desktop', 'owner');
      await page.goto('/admin/settings');
      await expect(page.getByRole('heading', { level: 1, name: 'ตั้งค่าร้าน' })).toBeVisible();
      await screenshot(page, testInfo, 'settings');
      const phone = page.getByLabel('เบอร์โทรศัพท์ร้าน');
      const original = await phone.inputValue();
      try {
        await phone.fill('02 345 6789');
        await page.locator('#company').getByRole('button', { name: 'บันทึก' }).click();
        await expect(page.getByTestId('admin-flash')).toContainText('บันทึกข้อมูลร้านแล้ว');
        await expect(phone).toHaveValue('02-345-6789');

        const visitor = await shopper(browser, testInfo);
        await visitor.goto('/');
        await expect(visitor.locator('nav').getByRole('link', { name: '02-345-6789' }).first()).toBeVisible();
        await expect(visitor.getByTestId('footer-phone')).toHaveText('02-345-6789');
        await expect(visitor.getByTestId('floating-phone')).toHaveAttribute('href', 'tel:023456789');
        await visitor.goto('/contact');
        await expect(visitor.getByTestId('content-body').getByRole('link', { name: '02-345-6789' })).toHaveAttribute('href', 'tel:023456789');
        await visitor.context().close();
      } finally {
        await page.goto('/admin/settings');
        await page.getByLabel('เบอร์โทรศัพท์ร้าน').fill(original);
        await page.locator('#company').getByRole('button', { name: 'บันทึก' }).click();
        await expect(page.getByTestId('admin-flash')).toContainText('บันทึกข้อมูลร้านแล้ว');
      }
    });
  });

  test('the settings page reads well on this screen', { tag: '@phone' }, async ({ page }, testInfo) => {
    await registerWithRole(page.request, `owner-look-${testInfo.project.name}`, 'owner');
    await page.goto('/admin/settings#payment');
    await expect(page.getByLabel('เบอร์โทรศัพท์ร้าน')).toHaveValue(/\d/);
    // A refused save keeps what was typed and says why in Thai.
    await page.getByLabel('ชื่อร้าน', { exact: true }).fill('ร้านชื่อใหม่ที่ยังไม่บันทึก');
    await page.getByLabel('เลขประจำตัวผู้เสียภาษี (13 หลัก)').fill('0105566123457');
    await page.locator('#company').getByRole('button', { name: 'บันทึก' }).click();
    await expect(page.getByTestId('admin-flash')).toContainText('เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง');
    await expect(page.getByLabel('ชื่อร้าน', { exact: true })).toHaveValue('ร้านชื่อใหม่ที่ยังไม่บันทึก');
    await expect(page.getByLabel('เลขประจำตัวผู้เสียภาษี (13 หลัก)')).toHaveValue('0105566123457');
    // Nothing wider than the screen: the forms wrap on a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, testInfo, 'settings-look');
  });
});

test.describe('who opens which back-office page', () => {
  const pages = ['/admin/pages', '/admin/pages/aboutus', '/admin/settings', '/admin/promotions', '/admin/promotions/new', '/admin/promotions/WELCOME10', '/admin/gallery', '/admin/gallery/our-shop', '/admin/recruitment'];
  const expected: Record<'anonymous' | 'member' | 'editor' | 'staff' | 'owner', number[]> = {
    anonymous: [404, 404, 404, 404, 404, 404, 404, 404, 404],
    member: [404, 404, 404, 404, 404, 404, 404, 404, 404],
    // Editors: pages, gallery, job posts and the promotion banners; not the codes or the settings.
    editor: [200, 200, 403, 200, 403, 200, 200, 200, 200],
    staff: [200, 200, 403, 200, 200, 200, 200, 200, 403],
    owner: [200, 200, 200, 200, 200, 200, 200, 200, 200],
  };

  test('every page answers each role as the roles table says', async ({ browser }, testInfo) => {
    test.skip(testInfo.project.name === 'phone', 'statuses are the same on every screen; the phone run takes the screenshots below');
    for (const [who, statuses] of Object.entries(expected)) {
      const context = await browser.newContext({ baseURL: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4399)}` });
      if (who !== 'anonymous') {
        const email = who === 'staff' ? 'staff-desktop@e2e.test' : `${who}-walk-${unique()}@e2e.test`;
        const password = 'Staff-Password-2569!';
        const login = await context.request.post('/api/auth/login', { data: { login: email, password } });
        if (!login.ok()) {
          const phone = `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
          const created = await context.request.post('/api/member-insert', { data: { firstName: 'ทดสอบ', lastName: 'สิทธิ์', email, phone, password, confirmPassword: password, acceptTerms: true } });
          expect(created.status(), await created.text()).toBe(201);
        }
        if (who === 'editor' || who === 'owner') await grantRole(email, who);
      }
      for (const [index, path] of pages.entries()) {
        const response = await context.request.get(path, { maxRedirects: 0 });
        expect(response.status(), `${who} ${path}`).toBe(statuses[index]);
        if (response.status() === 200) expect(response.headers()['cache-control']).toContain('no-store');
      }
      await context.close();
    }
  });

  test('promotions, gallery and job posts pages on this screen', { tag: '@phone' }, async ({ page }, testInfo) => {
    await registerWithRole(page.request, `owner-shots-${testInfo.project.name}`, 'owner');
    for (const [path, heading] of [['/admin/promotions', 'โปรโมชั่น'], ['/admin/promotions/GIFT50', 'โปรโมชั่น GIFT50'], ['/admin/gallery/our-shop', 'อัลบั้ม: บรรยากาศหน้าร้าน'], ['/admin/recruitment', 'ร่วมงานกับเรา']] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await screenshot(page, testInfo, path.replaceAll('/', '_'));
    }
    await expect(page.locator('[data-testid="jobs-table"] tbody tr')).toHaveCount(3);
    // A delete asks first; cancelling keeps the post.
    await page.locator('[data-testid="jobs-table"] tbody tr').first().getByRole('link').click();
    await page.getByRole('button', { name: 'ลบประกาศ' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('คุณแน่ใจไหม ?');
    await dialog.getByRole('button', { name: 'ยกเลิก' }).click();
    await expect(page).toHaveURL(/\/admin\/recruitment\/\d+$/);
    await page.goto('/admin/recruitment');
    await expect(page.locator('[data-testid="jobs-table"] tbody tr')).toHaveCount(3);
  });
});

test.describe('promotions', () => {
  test('staff make a promotion in the form, see what shoppers will see, and shoppers find it', async ({ page, browser }, testInfo) => {
    await registerWithRole(page.request, `promo-${testInfo.project.name}`, 'owner');
    const code = `E2E${unique().toUpperCase().slice(-8)}`;
    await page.goto('/admin/promotions/new');
    await page.getByLabel('โค้ดส่วนลด').fill(code);
    await page.getByLabel('ชื่อโปรโมชั่น').fill(`ลดต้อนรับ ${code}`);
    await page.getByLabel('คำอธิบาย (ลูกค้าเห็น)').fill('ลด 10% ทุกหมวด');
    await page.getByLabel('ส่วนลด (% หรือ บาท)').fill('10');
    await page.getByLabel('ยอดซื้อขั้นต่ำ (บาท)').fill('100');
    // Upcoming, not running: other specs count the running promotions on the same server.
    await page.getByLabel('เริ่ม (เวลาไทย)').fill('2035-01-01T09:00');
    await page.getByLabel('สิ้นสุด (เวลาไทย)').fill('2020-01-01T00:00');
    await page.getByRole('button', { name: 'บันทึก' }).click();
    // Refused with the reason, and nothing typed is lost.
    await expect(page.getByTestId('admin-flash')).toContainText('วันสิ้นสุดต้องหลังวันเริ่ม');
    await expect(page.getByLabel('ชื่อโปรโมชั่น')).toHaveValue(`ลดต้อนรับ ${code}`);
    await page.getByLabel('สิ้นสุด (เวลาไทย)').fill('2035-12-31T23:59');
    await page.getByRole('button', { name: 'บันทึก' }).click();
    await expect(page.getByTestId('admin-flash')).toContainText(`สร้างโปรโมชั่น ${code} แล้ว`);
    await expect(page).toHaveURL(`/admin/promotions/${code}`);
    const preview = page.getByTestId('promotion-preview');
    await expect(preview).toContainText(`ลดต้อนรับ ${code}`);
    await expect(preview).toContainText('ลด 10%');
    await expect(preview).toContainText('เร็ว ๆ นี้');
    await screenshot(page, testInfo, 'promotion-made');

    const visitor = await shopper(browser, testInfo);
    await visitor.goto('/promotions');
    await expect(visitor.locator(`[data-promotion="${code}"]`)).toContainText(`ลดต้อนรับ ${code}`);
    await expect(visitor.locator(`[data-promotion="${code}"]`)).toHaveAttribute('data-state', 'upcoming');
    await visitor.context().close();
  });

  test('the form shows and saves the limit per member and the first-order switch', { tag: '@phone' }, async ({ page }, testInfo) => {
    await registerWithRole(page.request, `promo-limits-${testInfo.project.name}`, 'owner');
    await page.goto('/admin/promotions/WELCOME10');
    await expect(page.getByLabel('ใช้ได้คนละกี่ครั้ง (ว่าง = ไม่จำกัด)')).toHaveValue('1');
    await expect(page.getByLabel('ใช้ได้เฉพาะคำสั่งซื้อแรกของสมาชิก')).toBeChecked();

    const code = `LIM${unique().toUpperCase().slice(-8)}`;
    await page.goto('/admin/promotions/new');
    await page.getByLabel('โค้ดส่วนลด').fill(code);
    await page.getByLabel('ชื่อโปรโมชั่น').fill(`ลูกค้าใหม่ ${code}`);
    await page.getByLabel('ส่วนลด (% หรือ บาท)').fill('5');
    // Upcoming, not running: other specs count the running promotions on the same server.
    await page.getByLabel('เริ่ม (เวลาไทย)').fill('2035-01-01T09:00');
    await page.getByLabel('สิ้นสุด (เวลาไทย)').fill('2035-12-31T23:59');
    await page.getByLabel('ใช้ได้คนละกี่ครั้ง (ว่าง = ไม่จำกัด)').fill('3');
    await page.getByLabel('ใช้ได้เฉพาะคำสั่งซื้อแรกของสมาชิก').check();
    await page.getByRole('button', { name: 'บันทึก' }).click();
    await expect(page.getByTestId('admin-flash')).toContainText(`สร้างโปรโมชั่น ${code} แล้ว`);
    await expect(page.getByLabel('ใช้ได้คนละกี่ครั้ง (ว่าง = ไม่จำกัด)')).toHaveValue('3');
    await expect(page.getByLabel('ใช้ได้เฉพาะคำสั่งซื้อแรกของสมาชิก')).toBeChecked();
    // What shoppers will read on the card.
    await expect(page.getByTestId('promotion-preview')).toContainText('ใช้ได้คนละ 3 ครั้ง · เฉพาะคำสั่งซื้อแรกของสมาชิก');
    await screenshot(page, testInfo, 'promotion-limits');
  });
});
