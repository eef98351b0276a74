import { expect, test } from '@playwright/test';
import { staffPage } from './fixtures/roles';
import { keepScreenshot, waitForIslands } from './helpers';

/**
 * The back office's variant editor (issue 30, docs/decisions/214) in the browser: a staff member turns a
 * plain product into three shades with the options form, stocks the two new ones from the table's bulk
 * row, gives one shade wholesale tiers of its own, and a shopper sees the shade picker on the product page
 * with that shade's tiers. A demo product no other test names, one
 * per project (the projects run side by side): P00301 and P00303 are plain products, not demo variants.
 */
test('staff turn a product into three shades; the shopper picks one', { tag: '@phone' }, async ({ browser, page }, testInfo) => {
  test.setTimeout(120_000);
  const code = testInfo.project.name === 'phone' ? 'P00303' : 'P00301';
  const staff = await staffPage(browser, testInfo);
  await staff.goto(`/admin/products/${code}`);
  const options = staff.getByTestId('variant-options');
  await options.getByLabel('ชื่อตัวเลือกที่ 1').fill('สี');
  await options.getByLabel('ค่าของตัวเลือกที่ 1').fill('ส้มพีช #f4a683\nชมพูนู้ด #d9a5a0\nแดงอิฐ #a2412f');
  await options.getByRole('button', { name: 'สร้างตัวเลือกทั้งหมด' }).click();
  await expect(staff.getByTestId('admin-flash')).toContainText('เพิ่มตัวเลือกใหม่ 2 รายการ');

  const table = staff.getByTestId('variant-table');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  // The product's own variant became the first shade and kept its code and stock; the new ones have none.
  await expect(table.getByLabel('รหัสของ สีส้มพีช')).toHaveValue(code);
  await expect(table.getByLabel('คงเหลือของ สีชมพูนู้ด')).toHaveValue('0');
  await table.getByLabel('เลือก สีชมพูนู้ด').check();
  await table.getByLabel('เลือก สีแดงอิฐ').check();
  await table.getByLabel('จำนวนคงเหลือใหม่').fill('5');
  await table.getByRole('button', { name: 'ตั้งจำนวนคงเหลือ' }).click();
  await expect(staff.getByTestId('admin-flash')).toContainText('ตั้งจำนวนคงเหลือของตัวเลือกที่เลือกแล้ว 2 รายการ');
  await expect(table.getByLabel('คงเหลือของ สีแดงอิฐ')).toHaveValue('5');
  // The nude shade gets wholesale tiers of its own: from 10 pieces, a fifth off its price.
  const nudePrice = Number(await table.getByLabel('ราคาของ สีชมพูนู้ด').inputValue());
  const ownTierBaht = Math.floor(nudePrice * 0.8);
  const nudeTiers = table.getByTestId('variant-tiers').nth(1);
  await expect(nudeTiers.locator('summary')).toContainText('ใช้ราคาส่งของสินค้า');
  await nudeTiers.locator('summary').click();
  await nudeTiers.getByLabel('ตั้งราคาส่งเอง').check();
  await nudeTiers.getByLabel('ราคาส่งของ สีชมพูนู้ด แถวที่ 1 ตั้งแต่จำนวน').fill('10');
  await nudeTiers.getByLabel('ราคาส่งของ สีชมพูนู้ด แถวที่ 1 ราคาต่อหน่วย').fill(String(ownTierBaht));
  await keepScreenshot(staff, `variant-tiers-open-${testInfo.project.name}`);
  await nudeTiers.getByRole('button', { name: 'บันทึกราคาส่ง ของ สีชมพูนู้ด' }).click();
  await expect(staff.getByTestId('admin-flash')).toContainText('บันทึกราคาส่งของตัวเลือก สีชมพูนู้ด แล้ว');
  const ownTierText = `฿${ownTierBaht.toLocaleString('en-US')}`;
  await expect(table.getByTestId('variant-tiers').nth(1).locator('summary')).toContainText(ownTierText);
  await keepScreenshot(staff, `variant-editor-${testInfo.project.name}`);
  const nudeCode = await table.getByLabel('รหัสของ สีชมพูนู้ด').inputValue();
  expect(nudeCode).toMatch(new RegExp(`^${code}-\\d+$`));

  await page.goto(`/product/${code}`);
  await waitForIslands(page);
  const shades = page.getByRole('group', { name: /^สี/ });
  await expect(shades.getByRole('radio')).toHaveCount(3);
  await shades.locator('label', { hasText: 'ชมพูนู้ด' }).click();
  await expect(page).toHaveURL(new RegExp(`\\?variant=${nudeCode}$`));
  await expect(page.getByText('มีสินค้า 5 ชิ้น')).toBeVisible();
  await expect(page.locator('[data-variant-code]')).toHaveText(nudeCode);
  // Its own tier on the product page; the brick red shade sells at the product's tiers, not the nude's.
  const tierTable = page.locator('[data-variant-tiers]');
  await expect(tierTable).toBeVisible();
  await expect(tierTable).toContainText('10 ขึ้นไป');
  await expect(tierTable).toContainText(ownTierText);
  await shades.locator('label', { hasText: 'แดงอิฐ' }).click();
  await expect(tierTable).not.toContainText(ownTierText);
});
