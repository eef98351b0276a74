import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';
import sharp from 'sharp';
import { grantRole } from './fixtures/roles';
import { keepScreenshot, waitForIslands, withShopWideState } from './helpers';
import { XSS_PAYLOADS } from '../fixtures/xss-payloads';
import { GOOGLE_DOCS_HTML, WORD_HTML } from '../fixtures/office-paste';
import { seriousAxeViolations } from './axe';

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

/** axe's serious and critical findings (WCAG 2.1 A and AA) on what the page shows now. */
async function seriousViolations(page: Page): Promise<string[]> {
  return (await seriousAxeViolations(page)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The draft body as stored: the Markdown the server puts in the editor page's plain box. */
async function storedBody(page: Page, slug: string): Promise<string> {
  const html = await (await page.request.get(`/admin/pages/${slug}`)).text();
  return page.evaluate((source) => (new DOMParser().parseFromString(source, 'text/html').querySelector('textarea[name="body"]') as HTMLTextAreaElement).value, html);
}

test.describe('content pages', () => {
  test('an editor writes a heading, a list, a link and a described picture in the rich-text editor, publishes, a shopper sees them, the history names the editor', { tag: '@phone' }, async ({ page, browser }, testInfo) => {
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

      // The rich-text editor replaces the Markdown box once loaded: no Markdown to learn.
      const body = page.getByRole('textbox', { name: 'เนื้อหา', exact: true });
      await expect(page.getByTestId('rich-body')).toBeVisible();
      await body.click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.press('Delete');
      await page.keyboard.type(`ยินดีต้อนรับ ${mark}`);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'หัวข้อ', exact: true }).click();
      await page.keyboard.type(`สิ่งที่เราภูมิใจ ${mark}`);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: '• รายการ' }).click();
      await page.keyboard.type('ของแท้ทุกชิ้น');
      await page.keyboard.press('Enter');
      await page.keyboard.type('ส่งไวภายใน 24 ชั่วโมง');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Enter');
      await page.keyboard.type('เลือกชมได้ที่ ');

      await page.getByRole('button', { name: 'ลิงก์', exact: true }).click();
      const linkDialog = page.getByRole('dialog');
      await linkDialog.getByLabel('ข้อความที่ลูกค้าเห็น').fill('สินค้าทั้งหมด');
      await linkDialog.getByLabel('ที่อยู่ลิงก์').fill('javascript:alert(1)');
      await linkDialog.getByRole('button', { name: 'ตกลง' }).click();
      await expect(linkDialog).toContainText('ลิงก์ต้องขึ้นต้นด้วย https:// หรือ /');
      await linkDialog.getByLabel('ที่อยู่ลิงก์').fill('/product');
      await linkDialog.getByRole('button', { name: 'ตกลง' }).click();
      await expect(linkDialog).toBeHidden();

      // A picture asks for a Thai description, and never takes the file's name for one.
      await page.getByRole('button', { name: 'รูปภาพ', exact: true }).click();
      const pictureDialog = page.getByRole('dialog');
      await expect(pictureDialog.getByRole('heading', { name: 'แทรกรูปภาพ' })).toBeVisible();
      const picture = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#39b54a' } }).png().toBuffer();
      await pictureDialog.getByLabel('เลือกรูป (JPG, PNG หรือ WebP)').setInputFiles({ name: 'หน้าร้าน.png', mimeType: 'image/png', buffer: picture });
      await pictureDialog.getByRole('button', { name: 'แทรกรูป' }).click();
      await expect(pictureDialog).toContainText('กรุณาเขียนคำอธิบายรูป');
      await pictureDialog.getByLabel('คำอธิบายรูป (ภาษาไทย)').fill('หน้าร้าน');
      await pictureDialog.getByRole('button', { name: 'แทรกรูป' }).click();
      await expect(pictureDialog).toContainText('ไม่ใช่ชื่อไฟล์');
      await screenshot(page, testInfo, 'page-editor-picture-dialog');
      expect(await seriousViolations(page)).toEqual([]);
      await pictureDialog.getByLabel('คำอธิบายรูป (ภาษาไทย)').fill('หน้าร้านสีเขียว มีป้ายชื่อร้าน');
      await pictureDialog.getByRole('button', { name: 'แทรกรูป' }).click();
      await expect(pictureDialog).toBeHidden();
      await expect(body.getByRole('img', { name: 'หน้าร้านสีเขียว มีป้ายชื่อร้าน' })).toBeVisible();

      const preview = page.getByTestId('page-preview');
      await expect(preview.getByRole('heading', { level: 2, name: `สิ่งที่เราภูมิใจ ${mark}` })).toBeVisible();
      await expect(preview.getByRole('listitem')).toHaveText(['ของแท้ทุกชิ้น', 'ส่งไวภายใน 24 ชั่วโมง']);
      await expect(preview.getByRole('link', { name: 'สินค้าทั้งหมด' })).toHaveAttribute('href', '/product');
      await expect(preview.getByRole('img', { name: 'หน้าร้านสีเขียว มีป้ายชื่อร้าน' })).toBeVisible();
      await screenshot(page, testInfo, 'page-editor-rich');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'มือถือ' }).click();
      await expect(preview).toHaveAttribute('data-width', 'phone');
      await expect.poll(async () => (await preview.boundingBox())!.width).toBeLessThanOrEqual(390);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      await page.getByRole('button', { name: 'เผยแพร่' }).click();
      await expect(page.getByTestId('admin-flash')).toContainText('เผยแพร่แล้ว');
      // What is stored is the shop's Markdown, as before the rich-text editor.
      expect(await storedBody(page, slug)).toMatch(new RegExp(`^ยินดีต้อนรับ ${mark}\n\n## สิ่งที่เราภูมิใจ ${mark}\n\n- ของแท้ทุกชิ้น\n- ส่งไวภายใน 24 ชั่วโมง\n\nเลือกชมได้ที่ \\[สินค้าทั้งหมด\\]\\(/product\\)\n\n!\\[หน้าร้านสีเขียว มีป้ายชื่อร้าน\\]\\(/media/pages/[a-f0-9]{24}-900\\.webp#900x600\\)$`));

      const visitor = await shopper(browser, testInfo);
      await visitor.goto(`/${slug}`);
      const content = visitor.getByTestId('content-body');
      await expect(content.getByRole('heading', { level: 2, name: `สิ่งที่เราภูมิใจ ${mark}` })).toBeVisible();
      await expect(content.getByRole('listitem')).toHaveText(['ของแท้ทุกชิ้น', 'ส่งไวภายใน 24 ชั่วโมง']);
      await expect(content.getByRole('link', { name: 'สินค้าทั้งหมด' })).toHaveAttribute('href', '/product');
      const shownPicture = content.getByRole('img', { name: 'หน้าร้านสีเขียว มีป้ายชื่อร้าน' });
      await expect(shownPicture).toHaveAttribute('width', '900');
      await expect(shownPicture).toHaveJSProperty('complete', true);
      expect(await shownPicture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await keepScreenshot(visitor, `page-published-${testInfo.project.name}`);

      // The history names people and says when, never an email or a path such as "src/content".
      const history = page.getByTestId('versions-table');
      await expect(history.locator('tbody tr').first().getByTestId('version-author')).toHaveText('ทดสอบ หลังร้าน');
      await expect(history.locator('tr', { hasText: 'ฉบับแรก' }).getByTestId('version-author')).toHaveText('เนื้อหาเริ่มต้นของร้าน');
      await expect(history).not.toContainText('src/content');
      await expect(history).not.toContainText('@');
      await history.scrollIntoViewIfNeeded();
      await screenshot(page, testInfo, 'page-editor-history');

      // Back to the version the shop started with.
      await history.locator('tr', { hasText: 'ฉบับแรก' }).getByRole('button', { name: 'กู้คืนฉบับนี้' }).click();
      await expect(page.getByTestId('admin-flash')).toContainText('กู้คืนฉบับเดิม');
      await waitForIslands(page);
      await expect(page.getByTestId('rich-body')).not.toContainText(mark);
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
      expect(orders?.status()).toBe(403);
      await page.goto('/admin/pages');
      await expect(page.locator('#admin-sidebar')).toContainText('หน้าเนื้อหา');
      await expect(page.locator('#admin-sidebar')).not.toContainText('คำสั่งซื้อ');
      await expect(page.locator('#admin-sidebar')).not.toContainText('ตั้งค่าร้าน');
    });
  });

  test('a paste from Word or Google Docs is stored clean: no styles, spans, comments or fonts', { tag: '@phone' }, async ({ page }, testInfo) => {
    await registerWithRole(page.request, `paste-${testInfo.project.name}`, 'editor');
    const slug = `paste-${testInfo.project.name}-${unique()}`;
    const origin = { Origin: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4399)}` };
    expect((await page.request.post('/admin/pages/create', { form: { slug, title: 'วางจาก Word' }, maxRedirects: 0, headers: origin })).status()).toBe(303);
    await page.goto(`/admin/pages/${slug}`);
    await waitForIslands(page);
    const body = page.getByRole('textbox', { name: 'เนื้อหา', exact: true });
    await body.click();
    for (const html of [WORD_HTML, GOOGLE_DOCS_HTML]) {
      // Each paste starts a paragraph of its own (pasted at the end of one, its first block would join it).
      if (html === GOOGLE_DOCS_HTML) await page.keyboard.press('Enter');
      await body.evaluate((element, pasted) => {
        const data = new DataTransfer();
        data.setData('text/html', pasted);
        data.setData('text/plain', 'ข้อความ');
        element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, html);
    }
    await expect(body.getByRole('heading', { level: 2, name: 'ของขวัญสำหรับทุกโอกาส' })).toBeVisible();
    await screenshot(page, testInfo, 'page-editor-pasted');
    await page.getByRole('button', { name: 'บันทึกร่าง' }).click();
    await expect(page.getByTestId('admin-flash')).toContainText('บันทึกร่างแล้ว');
    const stored = await storedBody(page, slug);
    expect(stored).toContain('## ของขวัญสำหรับทุกโอกาส');
    expect(stored).toContain('ร้านเรามี**ของแท้**ทุกชิ้น');
    expect(stored).toContain('- ห่อของขวัญฟรี\n- ส่งไวภายใน 24 ชั่วโมง');
    expect(stored).toContain('[ดูแคตตาล็อก](https://example.com/catalog)');
    expect(stored).toContain('## วิธีสั่งของชำร่วย');
    expect(stored).toContain('**สั่งล่วงหน้า** อย่างน้อย 7 วัน *สำหรับงานแต่ง*');
    expect(stored).toContain('1. เลือกแบบ\n2. โอนมัดจำ');
    expect(stored).not.toMatch(/<|>|style|class|span|mso|Mso|font|Calibri|Arial|Sarabun|Angsana|docs-internal|file:|clip_image|·|Fragment/);
  });

  test('without JavaScript the editor page is the Markdown box, and it saves', async ({ page, browser }, testInfo) => {
    test.skip(testInfo.project.name === 'phone', 'the same form on every screen');
    await registerWithRole(page.request, 'nojs-editor', 'editor');
    const slug = `nojs-${unique()}`;
    const origin = { Origin: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4399)}` };
    expect((await page.request.post('/admin/pages/create', { form: { slug, title: 'ไม่มีสคริปต์' }, maxRedirects: 0, headers: origin })).status()).toBe(303);
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(), baseURL: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4399)}` });
    const plain = await context.newPage();
    await plain.goto(`/admin/pages/${slug}`);
    const box = plain.getByLabel('เนื้อหา', { exact: true });
    await expect(box).toHaveJSProperty('tagName', 'TEXTAREA');
    await box.fill('## หัวข้อจากกล่องข้อความ\n\n- รายการเดียว');
    await plain.getByRole('button', { name: 'บันทึกร่าง' }).click();
    await expect(plain.getByTestId('admin-flash')).toContainText('บันทึกร่างแล้ว');
    await expect(plain.getByTestId('page-preview').getByRole('heading', { level: 2, name: 'หัวข้อจากกล่องข้อความ' })).toBeVisible();
    await context.close();
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
    await page.getByLabel('ชื่อโปรโมชั่น', { exact: true }).fill(`ลดต้อนรับ ${code}`);
    await page.getByLabel('คำอธิบาย (ลูกค้าเห็น)').fill('ลด 10% ทุกหมวด');
    await page.getByLabel('ส่วนลด (% หรือ บาท)').fill('10');
    await page.getByLabel('ยอดซื้อขั้นต่ำ (บาท)').fill('100');
    // Upcoming, not running: other specs count the running promotions on the same server.
    await page.getByLabel('เริ่ม (เวลาไทย)').fill('2035-01-01T09:00');
    await page.getByLabel('สิ้นสุด (เวลาไทย)').fill('2020-01-01T00:00');
    await page.getByRole('button', { name: 'บันทึก' }).click();
    // Refused with the reason, and nothing typed is lost.
    await expect(page.getByTestId('admin-flash')).toContainText('วันสิ้นสุดต้องหลังวันเริ่ม');
    await expect(page.getByLabel('ชื่อโปรโมชั่น', { exact: true })).toHaveValue(`ลดต้อนรับ ${code}`);
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
    await page.getByLabel('ชื่อโปรโมชั่น', { exact: true }).fill(`ลูกค้าใหม่ ${code}`);
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
