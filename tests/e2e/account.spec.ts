import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { emlText } from '../fixtures/outbox';
import { e2eDataDir, waitForIslands } from './helpers';

/**
 * Members end to end: sign-up, login and logout, profile, address book with the Thai address
 * suggestions, password change and reset, guards and the way back after login.
 */

const dataDir = e2eDataDir();

// Apart per worker too: tests of one file run side by side now (playwright.config.ts).
let sequence = Number(process.env.TEST_PARALLEL_INDEX ?? 0) * 1_000;
function uniqueMember(project: string) {
  sequence += 1;
  const stamp = `${Date.now() % 100_000_000}`.padStart(8, '0');
  const tag = `${project}-${stamp}-${sequence}`;
  const digits = `${(Number(stamp) * 7 + sequence * 13 + (project === 'phone' ? 5 : 0)) % 100_000_000}`.padStart(8, '0');
  return {
    firstName: 'มาลี',
    lastName: 'ทดลองซื้อ',
    email: `e2e-${tag}@example.com`,
    phone: `08${digits}`,
    password: 'ต้นไม้ใหญ่ให้ร่มเงา',
  };
}
type Member = ReturnType<typeof uniqueMember>;

async function registerByApi(page: Page, member: Member) {
  // A separate request context: the browser stays logged out.
  const response = await page.context().request.fetch('/api/member-insert/', {
    method: 'POST',
    data: { ...member, confirmPassword: member.password, acceptTerms: true },
    headers: { Origin: new URL(page.url() === 'about:blank' ? 'http://127.0.0.1' : page.url()).origin },
  });
  expect(response.status(), await response.text()).toBe(201);
  await page.context().clearCookies();
}

/** Islands render on the server first; use them once React has taken over. */
const hydrated = waitForIslands;

async function openNavIfCollapsed(page: Page) {
  const toggler = page.getByRole('button', { name: 'เปิดเมนู' });
  if (await toggler.isVisible()) {
    const expanded = await toggler.getAttribute('aria-expanded');
    if (expanded !== 'true') await toggler.click();
  }
}

async function userMenuButton(page: Page) {
  await hydrated(page);
  await openNavIfCollapsed(page);
  return page.getByRole('button', { name: /^เมนูสมาชิก/ }).filter({ visible: true });
}

async function login(page: Page, loginId: string, password: string) {
  await hydrated(page);
  await page.getByLabel('อีเมลหรือเบอร์โทรศัพท์').fill(loginId);
  await page.getByLabel('รหัสผ่าน', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'เข้าสู่ระบบ', exact: true }).click();
}

async function logoutFromAccountMenu(page: Page) {
  const sidebarToggle = page.getByRole('button', { name: '☰ บัญชีของฉัน' });
  if (await sidebarToggle.isVisible()) {
    await sidebarToggle.click();
    await page.locator('#account-sidebar').getByRole('button', { name: 'Logout' }).click();
  } else {
    await page.locator('#account-menu').getByRole('button', { name: 'Logout' }).click();
  }
  await expect(page).toHaveURL(/\/login$/);
}

function latestMailText(to: string): string | null {
  const dir = path.join(dataDir, 'outbox');
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir).filter((name) => name.endsWith('.eml')).sort().reverse();
  for (const name of files) {
    const eml = readFileSync(path.join(dir, name), 'utf8');
    if (eml.includes(to)) return emlText(eml);
  }
  return null;
}

test.describe('member account', () => {
  test('register → logged in → logout → login → profile → two addresses → default → change password', { tag: '@phone' }, async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const member = uniqueMember(testInfo.project.name);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    await page.goto('/register');
    await hydrated(page);
    await page.getByLabel('ชื่อ', { exact: true }).fill(member.firstName);
    await page.getByLabel('นามสกุล', { exact: true }).fill(member.lastName);
    await page.getByLabel('อีเมล', { exact: true }).fill(member.email);
    await expect(page.getByText('ใช้อีเมลนี้ได้')).toBeVisible();
    await page.getByLabel('เบอร์โทรศัพท์', { exact: true }).fill(member.phone);
    await expect(page.getByText('ใช้เบอร์นี้ได้')).toBeVisible();
    await page.getByLabel('รหัสผ่าน', { exact: true }).fill('password');
    await page.getByLabel('รหัสผ่าน', { exact: true }).blur();
    await expect(page.getByText('รหัสผ่านนี้ถูกใช้บ่อยเกินไป')).toBeVisible();
    await expect(page.getByLabel('รหัสผ่าน', { exact: true })).toHaveClass(/is-invalid/);
    await page.getByLabel('รหัสผ่าน', { exact: true }).fill(member.password);
    await page.getByLabel('ยืนยันรหัสผ่าน', { exact: true }).fill(member.password);
    await page.getByLabel('ยืนยันรหัสผ่าน', { exact: true }).blur();
    await expect(page.getByLabel('ยืนยันรหัสผ่าน', { exact: true })).toHaveClass(/is-valid/);
    await page.getByLabel(/ฉันยอมรับข้อตกลง/).check();
    await page.getByRole('button', { name: 'สมัครสมาชิก', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);

    // Logged in: the navbar dropdown, then logout from it.
    let menu = await userMenuButton(page);
    await expect(menu).toContainText(member.firstName);
    await menu.click();
    await expect(page.getByRole('link', { name: 'บัญชีของฉัน' }).filter({ visible: true })).toHaveAttribute('href', '/profile');
    await page.getByRole('button', { name: 'ออกจากระบบ' }).filter({ visible: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);

    await login(page, member.phone, member.password);
    await expect(page).toHaveURL(/\/$/);
    menu = await userMenuButton(page);
    await menu.click();
    await page.getByRole('link', { name: 'บัญชีของฉัน' }).filter({ visible: true }).click();
    await expect(page).toHaveURL(/\/user\/account\/profile$/);
    await hydrated(page);

    // Profile: email shown, name, phone and birthday saved.
    await expect(page.getByLabel('อีเมล', { exact: true })).toHaveValue(member.email);
    await page.getByLabel('ชื่อ', { exact: true }).fill('มาลีวรรณ');
    await page.getByLabel('วันเกิด').fill('1994-08-12');
    await page.getByRole('button', { name: 'บันทึก', exact: true }).click();
    await expect(page.getByText('บันทึกข้อมูลเรียบร้อยแล้ว')).toBeVisible();
    await page.reload();
    await hydrated(page);
    await expect(page.getByLabel('ชื่อ', { exact: true })).toHaveValue('มาลีวรรณ');
    await expect(page.getByLabel('วันเกิด')).toHaveValue('1994-08-12');

    // Address book: two addresses picked from the Thai address suggestions.
    await page.goto('/user/account/address');
    await hydrated(page);
    await page.getByRole('button', { name: '+ เพิ่มที่อยู่ใหม่' }).click();
    await page.getByLabel('ชื่อผู้รับ').fill('มาลีวรรณ ทดลองซื้อ');
    await page.getByLabel('เบอร์โทรศัพท์ผู้รับ').fill('0812345678');
    await page.getByLabel('ที่อยู่ (บ้านเลขที่ ถนน ซอย)').fill('99/9 ถนนวิทยุ');
    await page.getByLabel('รหัสไปรษณีย์').fill('10330');
    await page.getByRole('option', { name: /^ลุมพินี » ปทุมวัน » กรุงเทพมหานคร » 10330/ }).click();
    await expect(page.getByLabel('อำเภอ/เขต')).toHaveValue('ปทุมวัน');
    await expect(page.getByLabel('จังหวัด')).toHaveValue('กรุงเทพมหานคร');
    await expect(page.getByLabel('ตำบล/แขวง')).toHaveValue('ลุมพินี');
    await page.getByRole('button', { name: 'บันทึกที่อยู่' }).click();
    const book = page.getByRole('list', { name: 'สมุดที่อยู่' });
    await expect(book.getByRole('listitem')).toHaveCount(1);
    const defaultBadge = (item: ReturnType<typeof book.getByRole>) => item.getByText('ค่าเริ่มต้น', { exact: true });
    await expect(defaultBadge(book.getByRole('listitem').first())).toBeVisible();

    await page.getByRole('button', { name: '+ เพิ่มที่อยู่ใหม่' }).click();
    await page.getByLabel('ชื่อผู้รับ').fill('คุณแม่ ทดลองซื้อ');
    await page.getByLabel('เบอร์โทรศัพท์ผู้รับ').fill('053-123-456');
    await page.getByLabel('ที่อยู่ (บ้านเลขที่ ถนน ซอย)').fill('12 ถนนห้วยแก้ว');
    await page.getByLabel('ตำบล/แขวง').fill('สุเทพ');
    await page.getByRole('option', { name: /^สุเทพ » เมืองเชียงใหม่ » เชียงใหม่/ }).click();
    await expect(page.getByLabel('รหัสไปรษณีย์')).toHaveValue('50200');
    await page.getByRole('button', { name: 'บันทึกที่อยู่' }).click();
    await expect(book.getByRole('listitem')).toHaveCount(2);
    const second = book.getByRole('listitem').filter({ hasText: 'คุณแม่' });
    await expect(defaultBadge(second)).toHaveCount(0);
    await second.getByRole('button', { name: 'ตั้งเป็นค่าเริ่มต้น' }).click();
    await expect(book.getByRole('listitem').first()).toContainText('คุณแม่');
    await expect(defaultBadge(book.getByRole('listitem').first())).toBeVisible();
    await expect(defaultBadge(book.getByRole('listitem').filter({ hasText: 'มาลีวรรณ' }))).toHaveCount(0);

    // A mismatched address is refused with the Thai message.
    await page.getByRole('button', { name: '+ เพิ่มที่อยู่ใหม่' }).click();
    await page.getByLabel('ชื่อผู้รับ').fill('ผิดที่');
    await page.getByLabel('เบอร์โทรศัพท์ผู้รับ').fill('0812345678');
    await page.getByLabel('ที่อยู่ (บ้านเลขที่ ถนน ซอย)').fill('1');
    await page.getByLabel('ตำบล/แขวง').fill('ลุมพินี');
    await page.getByLabel('อำเภอ/เขต').fill('เมืองเชียงใหม่');
    await page.getByLabel('จังหวัด').fill('เชียงใหม่');
    await page.getByLabel('รหัสไปรษณีย์').fill('10330');
    await expect(page.getByRole('option').first()).toBeVisible();
    await page.getByLabel('รหัสไปรษณีย์').press('Escape');
    await expect(page.getByRole('option')).toHaveCount(0);
    await page.getByRole('button', { name: 'บันทึกที่อยู่' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'ไม่ตรงกัน' })).toBeVisible();
    await page.getByRole('button', { name: 'ยกเลิก' }).click();
    await expect(book.getByRole('listitem')).toHaveCount(2);

    // Change password, then the old one no longer works.
    await page.goto('/user/account/password');
    await hydrated(page);
    await page.getByLabel('รหัสผ่านปัจจุบัน').fill(member.password);
    await page.getByLabel('รหัสผ่านใหม่', { exact: true }).fill('สายน้ำไหลเย็นฉ่ำ');
    await page.getByLabel('ยืนยันรหัสผ่านใหม่').fill('สายน้ำไหลเย็นฉ่ำ');
    await page.getByRole('button', { name: 'เปลี่ยนรหัสผ่าน' }).click();
    await expect(page.getByText('เปลี่ยนรหัสผ่านเรียบร้อยแล้ว')).toBeVisible();
    await logoutFromAccountMenu(page);

    await login(page, member.email, member.password);
    await expect(page.getByRole('alert')).toHaveText('อีเมล/เบอร์โทรศัพท์ หรือรหัสผ่านไม่ถูกต้อง');
    await expect(page).toHaveURL(/\/login$/);
    await login(page, member.email, 'สายน้ำไหลเย็นฉ่ำ');
    await expect(page).toHaveURL(/\/$/);
    expect(dialogs).toEqual([]);
  });

  test('the guard sends /user/purchase to /login and back after login; logged-in members skip /login and /register', async ({ page }, testInfo) => {
    const member = uniqueMember(testInfo.project.name);
    await page.goto('/');
    await registerByApi(page, member);
    const response = await page.goto('/user/purchase');
    expect(response?.headers()['cache-control']).toContain('no-store');
    await expect(page).toHaveURL(/\/login\?next=%2Fuser%2Fpurchase$/);
    await login(page, member.email, member.password);
    await expect(page).toHaveURL(/\/user\/purchase$/);
    const tabs = page.getByRole('navigation', { name: 'สถานะคำสั่งซื้อ' });
    for (const label of ['ทั้งหมด', 'ที่ต้องชำระ', 'ที่ต้องจัดส่ง', 'ที่ต้องได้รับ', 'สำเร็จแล้ว', 'ยกเลิกแล้ว']) {
      await expect(tabs.getByRole('link', { name: label, exact: true })).toBeVisible();
    }
    await expect(page.getByText('ยังไม่มีคำสั่งซื้อ')).toBeVisible();
    await tabs.getByRole('link', { name: 'ที่ต้องชำระ' }).click();
    await expect(tabs.getByRole('link', { name: 'ที่ต้องชำระ' })).toHaveAttribute('aria-current', 'page');

    for (const guarded of ['/profile', '/user', '/user/account']) {
      await page.goto(guarded);
      await expect(page).toHaveURL(/\/user\/account\/profile$/);
    }
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/register');
    await hydrated(page);
    await expect(page).toHaveURL(/\/$/);

    await page.context().clearCookies();
    for (const guarded of ['/user/account/address', '/user/account/password', '/user/purchase']) {
      await page.goto(guarded);
      await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(guarded)}$`));
    }
  });

  test('login works as a plain form before JavaScript, and the navbar then knows the member', async ({ browser, page }, testInfo) => {
    const member = uniqueMember(testInfo.project.name);
    await page.goto('/');
    await registerByApi(page, member);
    const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL: testInfo.project.use.baseURL ?? new URL(page.url()).origin });
    const plain = await noScript.newPage();
    await plain.goto('/user/purchase');
    await expect(plain).toHaveURL(/\/login\?next=%2Fuser%2Fpurchase$/);
    await plain.getByLabel('อีเมลหรือเบอร์โทรศัพท์').fill(member.email);
    await plain.getByLabel('รหัสผ่าน', { exact: true }).fill('not my password');
    await plain.getByRole('button', { name: 'เข้าสู่ระบบ', exact: true }).click();
    await expect(plain.getByRole('alert')).toHaveText('อีเมล/เบอร์โทรศัพท์ หรือรหัสผ่านไม่ถูกต้อง');
    expect(plain.url()).not.toContain('password');
    await plain.getByLabel('รหัสผ่าน', { exact: true }).fill(member.password);
    await plain.getByRole('button', { name: 'เข้าสู่ระบบ', exact: true }).click();
    await expect(plain).toHaveURL(/\/user\/purchase$/);
    const cookies = await noScript.cookies();
    expect(cookies.find((cookie) => cookie.name === 'shop_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await noScript.close();

    // The same browser with JavaScript: the navbar learns who is logged in from the session.
    await page.goto('/login');
    await login(page, member.email, member.password);
    await expect(page).toHaveURL(/\/$/);
    await page.evaluate(() => localStorage.removeItem('shopUser'));
    await page.reload();
    const menu = await userMenuButton(page);
    await expect(menu).toContainText(member.firstName);
  });

  test('each open-redirect form of next ends at home', async ({ page }, testInfo) => {
    const member = uniqueMember(testInfo.project.name);
    await page.goto('/');
    await registerByApi(page, member);
    const forms = [
      '//evil.example/',
      '/\\evil.example/',
      'https://evil.example/',
      'javascript:alert(1)',
      '%2F%2Fevil.example',
      '/%2F%2Fevil.example',
      '/%5Cevil.example',
      '%252F%252Fevil.example',
    ];
    for (const next of forms) {
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await login(page, member.email, member.password);
      await expect(page, next).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      await page.context().clearCookies();
    }
    // The raw, unencoded forms too.
    await page.goto('/login?next=//evil.example');
    await login(page, member.email, member.password);
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  test('password reset through the mailed link works once', async ({ page }, testInfo) => {
    const member = uniqueMember(testInfo.project.name);
    await page.goto('/');
    await registerByApi(page, member);
    await page.goto('/login');
    await page.getByRole('link', { name: 'ลืมรหัสผ่าน?' }).click();
    await expect(page).toHaveURL(/\/resetpassword$/);
    await hydrated(page);
    await page.getByLabel('อีเมล').fill(member.email);
    await page.getByRole('button', { name: 'ส่งลิงก์ตั้งรหัสผ่านใหม่' }).click();
    await expect(page.getByRole('status')).toContainText('ตรวจสอบอีเมล');

    let text: string | null = null;
    await expect.poll(() => (text = latestMailText(member.email)) !== null, { timeout: 10_000 }).toBe(true);
    const link = /(http:\/\/\S+\/resetpassword\?token=[A-Za-z0-9_-]+)/.exec(text!)?.[1];
    expect(link).toBeTruthy();
    const token = new URL(link!).searchParams.get('token');

    await page.goto(link!);
    await hydrated(page);
    await page.getByLabel('รหัสผ่านใหม่', { exact: true }).fill('ฝนตกหนักที่กรุงเทพ');
    await page.getByLabel('ยืนยันรหัสผ่านใหม่').fill('ฝนตกหนักที่กรุงเทพ');
    await page.getByRole('button', { name: 'ตั้งรหัสผ่านใหม่' }).click();
    await expect(page.getByRole('status')).toContainText('ตั้งรหัสผ่านใหม่เรียบร้อยแล้ว');

    // The same link again: refused on the page and at the endpoint.
    await page.goto(link!);
    await expect(page.getByRole('alert')).toContainText('ถูกใช้ไปแล้ว');
    const again = await page.request.post('/api/auth/reset-password', {
      data: { token, password: 'อีกครั้งไม่ได้แล้วนะ', confirmPassword: 'อีกครั้งไม่ได้แล้วนะ' },
    });
    expect(again.status()).toBe(400);

    await page.goto('/login');
    await login(page, member.email, member.password);
    await expect(page.getByRole('alert')).toHaveText('อีเมล/เบอร์โทรศัพท์ หรือรหัสผ่านไม่ถูกต้อง');
    await login(page, member.email, 'ฝนตกหนักที่กรุงเทพ');
    await expect(page).toHaveURL(/\/$/);
  });

  test('SQL and script fragments are shown as plain text', async ({ page }, testInfo) => {
    const member = { ...uniqueMember(testInfo.project.name), firstName: '<script>window.__pwned=1</script>', lastName: "x'); DROP TABLE members;--" };
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto('/');
    await page.goto('/login');
    await registerByApi(page, member);
    await login(page, member.email, member.password);
    await expect(page).toHaveURL(/\/$/);
    const origin = new URL(page.url()).origin;
    const added = await page.request.post('/api/user/addresses', {
      headers: { Origin: origin },
      data: {
        recipientName: '<img src=x onerror="window.__pwned=2">',
        phone: '0812345678',
        line1: "1' OR '1'='1'; --",
        subdistrict: 'ลุมพินี',
        district: 'ปทุมวัน',
        province: 'กรุงเทพมหานคร',
        postcode: '10330',
      },
    });
    expect(added.status()).toBe(201);
    await page.goto('/user/account/profile');
    await hydrated(page);
    await expect(page.getByLabel('ชื่อ', { exact: true })).toHaveValue(member.firstName);
    await expect(page.getByLabel('นามสกุล', { exact: true })).toHaveValue(member.lastName);
    await page.goto('/user/account/address');
    await hydrated(page);
    await expect(page.getByText('<img src=x onerror="window.__pwned=2">')).toBeVisible();
    await expect(page.getByText("1' OR '1'='1'; --")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
  test('checkout sends a member without an address to the address book and back', async ({ page }, testInfo) => {
    const member = uniqueMember(testInfo.project.name);
    await page.goto('/login');
    await registerByApi(page, member);
    await login(page, member.email, member.password);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto('/user/account/address?next=%2Forder');
    await hydrated(page);
    await expect(page.getByRole('link', { name: '← กลับไปหน้าสั่งซื้อ' })).toHaveAttribute('href', '/order');
    await page.getByRole('button', { name: '+ เพิ่มที่อยู่ใหม่' }).click();
    await page.getByLabel('ชื่อผู้รับ').fill('มาลีวรรณ ทดลองซื้อ');
    await page.getByLabel('เบอร์โทรศัพท์ผู้รับ').fill('0812345678');
    await page.getByLabel('ที่อยู่ (บ้านเลขที่ ถนน ซอย)').fill('99/9 ถนนวิทยุ');
    await page.getByLabel('รหัสไปรษณีย์').fill('10330');
    await page.getByRole('option', { name: /^ลุมพินี » ปทุมวัน » กรุงเทพมหานคร » 10330/ }).click();
    await page.getByRole('button', { name: 'บันทึกที่อยู่' }).click();
    await expect(page).toHaveURL(/\/order$/);

    // A foreign `next` is ignored: no way back is offered, and saving stays in the address book.
    await page.goto('/user/account/address?next=%2F%2Fevil.example');
    await hydrated(page);
    await expect(page.getByRole('link', { name: '← กลับไปหน้าสั่งซื้อ' })).toHaveCount(0);
  });
});
