import { expect, test } from '@playwright/test';

/**
 * Where a shopper meets a form, it works before (or without) JavaScript: sign-up and adding an
 * address post as plain forms and the server answers with the page (errors in Thai, values kept).
 */
test.use({ javaScriptEnabled: false });

test('register and add an address with JavaScript off', async ({ page }, testInfo) => {
  const stamp = `${Date.now() % 100_000_000}`.padStart(8, '0');
  const email = `nojs-${testInfo.project.name}-${stamp}@example.com`;
  const phone = `06${String((Number(stamp) * 3 + (testInfo.project.name === 'phone' ? 7 : 0)) % 100_000_000).padStart(8, '0')}`;

  await page.goto('/register');
  await page.getByLabel('ชื่อ', { exact: true }).fill('ใจดี');
  await page.getByLabel('นามสกุล').fill('ไม่มีสคริปต์');
  await page.getByLabel('อีเมล').fill(email);
  await page.getByLabel('เบอร์โทรศัพท์').fill(phone);
  await page.getByLabel('รหัสผ่าน', { exact: true }).fill('ทะเลสีครามที่ภูเก็ต');
  await page.getByLabel('ยืนยันรหัสผ่าน').fill('ทะเลสีครามที่ภูเก็ตX');
  await page.getByLabel(/ฉันยอมรับข้อตกลง/).check();
  await page.getByRole('button', { name: 'สมัครสมาชิก' }).click();
  // The server refuses the mismatch in Thai and keeps what was typed (never the passwords).
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('alert')).toContainText('กรุณาตรวจสอบข้อมูลที่กรอก');
  await expect(page.getByLabel('อีเมล')).toHaveValue(email);
  await expect(page.getByLabel('รหัสผ่าน', { exact: true })).toHaveValue('');
  await page.getByLabel('รหัสผ่าน', { exact: true }).fill('ทะเลสีครามที่ภูเก็ต');
  await page.getByLabel('ยืนยันรหัสผ่าน').fill('ทะเลสีครามที่ภูเก็ต');
  await page.getByRole('button', { name: 'สมัครสมาชิก' }).click();
  await expect(page).toHaveURL(/\/$/);
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'shop_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  await page.goto('/user/account/address');
  await page.getByRole('button', { name: '+ เพิ่มที่อยู่ใหม่' }).click();
  await expect(page).toHaveURL(/\/user\/account\/address\?new=1$/);
  const form = page.getByRole('form', { name: 'เพิ่มที่อยู่ใหม่' });
  await form.getByLabel('ชื่อผู้รับ').fill('ใจดี ไม่มีสคริปต์');
  await form.getByLabel('เบอร์โทรศัพท์ผู้รับ').fill('0812345678');
  await form.getByLabel('ที่อยู่ (บ้านเลขที่ ถนน ซอย)').fill('99/1 ซอยสุขุมวิท 21');
  await form.getByLabel('ตำบล/แขวง').fill('คลองเตยเหนือ');
  await form.getByLabel('อำเภอ/เขต').fill('วัฒนา');
  await form.getByLabel('จังหวัด').fill('กรุงเทพมหานคร');
  await form.getByLabel('รหัสไปรษณีย์').fill('1011');
  await form.getByRole('button', { name: 'บันทึกที่อยู่' }).click();
  // A wrong postcode: the form comes back open with the Thai reason and the typed values.
  await expect(page.getByText('รหัสไปรษณีย์ต้องเป็นตัวเลข 5 หลัก')).toBeVisible();
  await expect(page.getByLabel('ชื่อผู้รับ')).toHaveValue('ใจดี ไม่มีสคริปต์');
  await page.getByLabel('รหัสไปรษณีย์').fill('10110');
  await page.getByRole('button', { name: 'บันทึกที่อยู่' }).click();
  await expect(page).toHaveURL(/\/user\/account\/address$/);
  const book = page.getByRole('list', { name: 'สมุดที่อยู่' });
  await expect(book).toContainText('ใจดี ไม่มีสคริปต์');
  await expect(book).toContainText('คลองเตยเหนือ วัฒนา กรุงเทพมหานคร 10110');
  await expect(book).toContainText('ค่าเริ่มต้น');
});
