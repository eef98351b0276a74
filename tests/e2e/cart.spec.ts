import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatBaht } from '../../src/lib/money';
import type { CartQuote, CartQuoteLine } from '../../src/lib/cart-limits';

/**
 * The cart of docs/design.md sections 5 and 7 in a real browser: the navbar dropdown, the remove
 * confirmation, the /cart page with server re-pricing, two tabs, and adding from the product page.
 * Products are chosen from the demo catalog through the quote endpoint, so no code is hard-wired to
 * a price. Nothing here changes server data, so the desktop and phone projects can share one server.
 */

const KEY = 'shoppingCart';
type Stored = { product_code: string; product_name: string; product_price: number; product_image: string | null; amount: number; stock?: number };

let catalog: CartQuoteLine[] | undefined;

/** The first 80 demo products as the server prices them one at a time. */
async function demoLines(request: APIRequestContext): Promise<CartQuoteLine[]> {
  if (catalog) return catalog;
  const codes = Array.from({ length: 80 }, (_, i) => `P${String(i + 1).padStart(5, '0')}`);
  const response = await request.post('/api/cart/quote', { data: { items: codes.map((product_code) => ({ product_code, amount: 1 })) } });
  expect(response.ok()).toBeTruthy();
  catalog = ((await response.json()) as { data: CartQuote }).data.lines;
  return catalog;
}

async function pick(request: APIRequestContext, wanted: (line: CartQuoteLine) => boolean, skip: string[] = []): Promise<CartQuoteLine> {
  const line = (await demoLines(request)).find((candidate) => !candidate.unavailable && wanted(candidate) && !skip.includes(candidate.product_code));
  if (!line) throw new Error('no demo product fits');
  return line;
}

const plain = (line: CartQuoteLine) => line.tiers.length === 0 && line.stock >= 20;
const tiered = (line: CartQuoteLine) => line.tiers.length > 0 && line.stock >= 200;

function stored(line: CartQuoteLine, amount: number, over: Partial<Stored> = {}): Stored {
  return { product_code: line.product_code, product_name: line.product_name ?? '', product_price: line.unit_price, product_image: line.product_image, amount, ...over };
}

/** Answers the remove confirmation once it is on screen. */
async function answer(page: Page, button: 'ตกลง' | 'ยกเลิก') {
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('คุณแน่ใจไหม ?')).toBeVisible();
  await dialog.getByRole('button', { name: button }).click();
  await expect(dialog).toBeHidden();
}

/** Puts a cart in localStorage (as a returning shopper would have it) and opens a page. */
async function withCart(page: Page, items: unknown, path = '/cart'): Promise<void> {
  await page.goto('/aboutus');
  await page.evaluate(([key, value]) => localStorage.setItem(key as string, value as string), [KEY, typeof items === 'string' ? items : JSON.stringify(items)]);
  await page.goto(path);
  await hydrated(page);
}

/** The navbar cart island has run (Astro drops `ssr` from an island once it hydrated). */
async function hydrated(page: Page): Promise<void> {
  await page.locator('astro-island:not([ssr]) .cart-dropdown').waitFor();
}

async function readCart(page: Page): Promise<Stored[]> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null'), KEY);
}

const cartButton = (page: Page) => page.getByRole('button', { name: 'ตะกร้าสินค้า', exact: true });
const badge = (page: Page) => page.getByTestId('cart-count');
const panel = (page: Page) => page.getByRole('region', { name: 'สินค้าในตะกร้า' });
const cartLine = (page: Page, code: string) => page.locator(`li.cart-line[data-product-code="${code}"]`);

async function openDropdown(page: Page) {
  await hydrated(page);
  await cartButton(page).click();
  await expect(panel(page)).toBeVisible();
}

test.describe('cart', () => {
  test('an empty cart says so in the dropdown', async ({ page }) => {
    await page.goto('/aboutus');
    await expect(badge(page)).toHaveText('0');
    await openDropdown(page);
    await expect(panel(page).getByText('ไม่มีสินค้าในตะกร้าสินค้าของคุณ')).toBeVisible();
    await expect(cartButton(page)).toHaveAttribute('aria-expanded', 'true');
  });

  test('the dropdown lists lines and the total, links to /cart and /order, and Escape closes it', { tag: '@phone' }, async ({ page, request }) => {
    const a = await pick(request, plain);
    const b = await pick(request, plain, [a.product_code]);
    await withCart(page, [stored(a, 2), stored(b, 1, { product_image: null })], '/aboutus');
    await expect(badge(page)).toHaveText('2');
    await openDropdown(page);
    const box = await panel(page).boundingBox();
    const viewport = page.viewportSize();
    expect(box?.width).toBe(Math.min(320, (viewport?.width ?? 0) - 16));
    expect(box?.height).toBeLessThanOrEqual(430);
    await expect(panel(page).getByText(`${formatBaht(a.unit_price_satang)} x 2`)).toBeVisible();
    await expect(panel(page).getByText(a.product_name ?? '')).toBeVisible();
    await expect(panel(page).locator(`li[data-product-code="${b.product_code}"] img`)).toHaveAttribute('src', '/images/placeholder.svg');
    await expect(panel(page).getByText('ยอดสั่งซื้อทั้งหมด')).toBeVisible();
    await expect(panel(page).getByTestId('cart-total')).toHaveText(formatBaht(a.unit_price_satang * 2 + b.unit_price_satang));
    await expect(panel(page).getByRole('link', { name: 'ดูตะกร้าสินค้า' })).toHaveAttribute('href', '/cart');
    await expect(panel(page).getByRole('link', { name: 'สั่งซื้อสินค้า' })).toHaveAttribute('href', '/order');
    await expect(panel(page).getByRole('button', { name: 'ลบ' })).toHaveCount(2);

    await panel(page).getByRole('link', { name: 'ดูตะกร้าสินค้า' }).focus();
    await page.keyboard.press('Escape');
    await expect(panel(page)).toBeHidden();
    await expect(cartButton(page)).toBeFocused();
    await expect(cartButton(page)).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Enter');
    await expect(panel(page)).toBeVisible();
  });

  test('the dropdown scrolls when the lines are taller than 430px', { tag: '@phone' }, async ({ page, request }) => {
    const lines = (await demoLines(request)).filter((line) => !line.unavailable).slice(0, 12);
    await withCart(page, lines.map((line) => stored(line, 1)), '/aboutus');
    await openDropdown(page);
    const box = await panel(page).boundingBox();
    expect(box?.height).toBeLessThanOrEqual(430);
    const list = panel(page).locator('ul');
    const overflow = await list.evaluate((element) => element.scrollHeight > element.clientHeight && getComputedStyle(element).overflowY === 'auto');
    expect(overflow).toBe(true);
  });

  test('remove asks first: Cancel keeps the line, OK removes it', async ({ page, request }) => {
    const a = await pick(request, plain);
    await withCart(page, [stored(a, 1)], '/aboutus');
    await openDropdown(page);
    await panel(page).getByRole('button', { name: 'ลบ' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('คุณแน่ใจไหม ?')).toBeVisible();
    await expect(dialog.getByText('คุณจะไม่สามารถย้อนกลับได้ !')).toBeVisible();
    await dialog.getByRole('button', { name: 'ยกเลิก' }).click();
    await expect(dialog).toBeHidden();
    expect(await readCart(page)).toHaveLength(1);
    await expect(badge(page)).toHaveText('1');

    await panel(page).getByRole('button', { name: 'ลบ' }).click();
    await answer(page, 'ตกลง');
    await expect(panel(page).getByText('ไม่มีสินค้าในตะกร้าสินค้าของคุณ')).toBeVisible();
    expect(await readCart(page)).toEqual([]);
    await expect(badge(page)).toHaveText('0');
  });

  test('the cart page: reduce stops at 1, update sets the amount, totals follow, reload keeps it', { tag: '@phone' }, async ({ page, request }) => {
    const a = await pick(request, plain);
    const b = await pick(request, plain, [a.product_code]);
    await withCart(page, [stored(a, 2), stored(b, 1)]);
    const line = cartLine(page, a.product_code);
    await expect(line.getByTestId('unit-price')).toHaveText(formatBaht(a.unit_price_satang));
    await expect(page.getByTestId('cart-subtotal')).toHaveText(formatBaht(a.unit_price_satang * 2 + b.unit_price_satang));

    await line.getByRole('button', { name: 'ลดจำนวน' }).click();
    await expect(line.getByRole('textbox')).toHaveValue('1');
    await expect(line.getByRole('button', { name: 'ลดจำนวน' })).toBeDisabled();
    expect((await readCart(page))[0]?.amount).toBe(1);

    await line.getByRole('textbox').fill('5');
    await line.getByRole('textbox').press('Enter');
    await expect(line.getByTestId('line-total')).toHaveText(formatBaht(a.unit_price_satang * 5));
    expect((await readCart(page))[0]?.amount).toBe(5);
    await expect(page.getByTestId('cart-subtotal')).toHaveText(formatBaht(a.unit_price_satang * 5 + b.unit_price_satang));
    await expect(page.getByTestId('cart-pieces')).toHaveText('6 ชิ้น');

    await page.reload();
    await expect(cartLine(page, a.product_code).getByRole('textbox')).toHaveValue('5');
    await expect(badge(page)).toHaveText('2');
    await expect(page.getByRole('main').getByRole('link', { name: 'สั่งซื้อสินค้า' })).toHaveAttribute('href', '/order');
    await expect(page.getByRole('main').getByRole('link', { name: 'เลือกซื้อสินค้าต่อ' })).toHaveAttribute('href', '/product');
  });

  test('plus never goes above the stock', async ({ page, request }) => {
    const few = await pick(request, (line) => line.stock > 1 && line.stock <= 300 && line.tiers.length === 0);
    await withCart(page, [stored(few, few.stock - 1)]);
    const line = cartLine(page, few.product_code);
    await expect(line.getByRole('button', { name: 'เพิ่มจำนวน' })).toBeEnabled();
    await line.getByRole('button', { name: 'เพิ่มจำนวน' }).click();
    await expect(line.getByRole('textbox')).toHaveValue(String(few.stock));
    await expect(line.getByRole('button', { name: 'เพิ่มจำนวน' })).toBeDisabled();
    await line.getByRole('textbox').fill(String(few.stock + 50));
    await line.getByRole('textbox').press('Enter');
    await expect(line.getByRole('textbox')).toHaveValue(String(few.stock));
  });

  test('removing on the cart page asks first too', async ({ page, request }) => {
    const a = await pick(request, plain);
    await withCart(page, [stored(a, 1)]);
    await cartLine(page, a.product_code).getByRole('button', { name: 'ลบ' }).click();
    await answer(page, 'ยกเลิก');
    await expect(cartLine(page, a.product_code)).toBeVisible();
    await cartLine(page, a.product_code).getByRole('button', { name: 'ลบ' }).click();
    await answer(page, 'ตกลง');
    await expect(page.getByRole('main').getByText('ไม่มีสินค้าในตะกร้าสินค้าของคุณ')).toBeVisible();
  });

  test('a second tab follows the change', async ({ page, context, request }) => {
    const a = await pick(request, plain);
    await withCart(page, [stored(a, 1)]);
    const other = await context.newPage();
    await other.goto('/aboutus');
    await expect(badge(other)).toHaveText('1');
    await cartLine(page, a.product_code).getByRole('button', { name: 'เพิ่มจำนวน' }).click();
    await openDropdown(other);
    await expect(panel(other).getByText(`${formatBaht(a.unit_price_satang)} x 2`)).toBeVisible();
    await cartLine(page, a.product_code).getByRole('button', { name: 'ลบ' }).click();
    await answer(page, 'ตกลง');
    await expect(badge(other)).toHaveText('0');
    await expect(panel(other).getByText('ไม่มีสินค้าในตะกร้าสินค้าของคุณ')).toBeVisible();
    await other.close();
  });

  test('a price that changed on the server wins on /cart, and the stored cart takes it', async ({ page, request }) => {
    const a = await pick(request, plain);
    const oldPrice = a.unit_price + 25;
    await withCart(page, [stored(a, 2, { product_price: oldPrice, product_name: 'ชื่อเก่า' })]);
    const line = cartLine(page, a.product_code);
    await expect(line.getByTestId('cart-line-note')).toHaveText(`ราคาเปลี่ยนจาก ${formatBaht(Math.round(oldPrice * 100))} เป็น ${formatBaht(a.unit_price_satang)}`);
    await expect(line.getByTestId('unit-price')).toHaveText(formatBaht(a.unit_price_satang));
    await expect(line.getByRole('link', { name: a.product_name ?? '' })).toBeVisible();
    await expect(page.getByTestId('cart-subtotal')).toHaveText(formatBaht(a.unit_price_satang * 2));
    await expect.poll(async () => (await readCart(page))[0]).toMatchObject({ product_price: a.unit_price, product_name: a.product_name, amount: 2 });
  });

  test('a tampered localStorage price does not change what the server quotes', async ({ page, request }) => {
    const a = await pick(request, plain);
    const quoted = page.waitForResponse((response) => response.url().endsWith('/api/cart/quote') && response.request().method() === 'POST');
    await withCart(page, [stored(a, 3, { product_price: 0.01 })]);
    const quote = ((await (await quoted).json()) as { data: CartQuote }).data;
    expect(quote.subtotal_satang).toBe(a.unit_price_satang * 3);
    expect(quote.lines[0]).toMatchObject({ price_changed: true, last_seen_price: 0.01, unit_price_satang: a.unit_price_satang });
    await expect(page.getByTestId('cart-subtotal')).toHaveText(formatBaht(a.unit_price_satang * 3));
  });

  test('a wholesale tier applies at its quantity, with a note on how many more reach it', async ({ page, request }) => {
    const t = await pick(request, tiered);
    const [tier] = t.tiers;
    if (!tier) throw new Error('no tier');
    await withCart(page, [stored(t, tier.min_quantity - 1)]);
    const line = cartLine(page, t.product_code);
    await expect(line.getByTestId('next-tier')).toHaveText(`ซื้อเพิ่มอีก 1 ชิ้น ราคาชิ้นละ ${formatBaht(tier.price_satang)}`);
    await expect(line.getByTestId('unit-price')).toHaveText(formatBaht(t.retail_price_satang));
    await line.getByRole('button', { name: 'เพิ่มจำนวน' }).click();
    await expect(line.getByTestId('unit-price')).toHaveText(formatBaht(tier.price_satang));
    await expect(line.getByTestId('line-total')).toHaveText(formatBaht(tier.price_satang * tier.min_quantity));
    await expect(line.getByText('ราคาส่ง')).toBeVisible();
    expect((await readCart(page))[0]).toMatchObject({ amount: tier.min_quantity, product_price: tier.price });
    await line.getByRole('button', { name: 'ลดจำนวน' }).click();
    await expect(line.getByTestId('unit-price')).toHaveText(formatBaht(t.retail_price_satang));
  });

  test('unknown products are flagged, not totalled, and block the checkout until removed', async ({ page, request }) => {
    const a = await pick(request, plain);
    await withCart(page, [stored(a, 1), { product_code: 'GONE-404', product_name: 'สินค้าเลิกขาย', product_price: 99, product_image: null, amount: 1 }]);
    const gone = cartLine(page, 'GONE-404');
    await expect(gone.getByTestId('cart-line-note')).toHaveText('สินค้านี้ไม่มีจำหน่ายแล้ว กรุณาลบออกจากตะกร้า');
    await expect(page.getByTestId('cart-subtotal')).toHaveText(formatBaht(a.unit_price_satang));
    await expect(page.getByRole('main').getByRole('button', { name: 'สั่งซื้อสินค้า' })).toBeDisabled();
    await gone.getByRole('button', { name: 'ลบ' }).click();
    await answer(page, 'ตกลง');
    await expect(page.getByRole('main').getByRole('link', { name: 'สั่งซื้อสินค้า' })).toBeVisible();
  });

  test('a corrupt stored value is repaired without breaking the page', async ({ page, request }) => {
    const a = await pick(request, plain);
    await withCart(page, '{not json', '/aboutus');
    await expect(badge(page)).toHaveText('0');
    await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), KEY)).toBe('[]');
    await withCart(page, [{ ...stored(a, 2), amount: -4 }, 'junk', stored(a, 2.5), { product_code: 42 }], '/cart');
    await expect(cartLine(page, a.product_code).getByRole('textbox')).toHaveValue('2');
    await expect(badge(page)).toHaveText('1');
  });

  test('/cart is private', async ({ request }) => {
    const response = await request.get('/cart');
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('private, no-store');
    expect(response.headers()['set-cookie']).toBeUndefined();
  });

  test('the badge filling in moves nothing (no layout shift from the cart)', { tag: '@phone' }, async ({ page, request }) => {
    // Twelve lines: a two-digit count is the widest badge a normal cart shows.
    const lines = (await demoLines(request)).filter((line) => !line.unavailable).slice(0, 12);
    await page.goto('/aboutus');
    await page.evaluate(([key, value]) => localStorage.setItem(key as string, value as string), [KEY, JSON.stringify(lines.map((line) => stored(line, 1)))]);
    await page.addInitScript(() => {
      const w = window as unknown as { __shifts: { value: number; inCart: boolean }[] };
      w.__shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] }[]) {
          if (entry.hadRecentInput) continue;
          const inCart = (entry.sources ?? []).some((source) => source.node instanceof Element && source.node.closest('.cart-dropdown') !== null);
          w.__shifts.push({ value: entry.value, inCart });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const path of ['/', '/aboutus']) {
      await page.goto(path, { waitUntil: 'networkidle' });
      await expect(badge(page)).toHaveText('12');
      await page.waitForTimeout(300);
      const shifts = await page.evaluate(() => (window as unknown as { __shifts: { value: number; inCart: boolean }[] }).__shifts);
      const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
      test.info().annotations.push({ type: 'CLS', description: `${path}: ${total.toFixed(4)} (${shifts.length} shifts, ${shifts.filter((s) => s.inCart).length} in the cart button)` });
      expect(shifts.filter((shift) => shift.inCart)).toEqual([]);
      expect(total).toBeLessThan(0.01);
    }
  });
});

test.describe('adding from the product page', () => {
  test('add twice gives amount 2 under shoppingCart with the section 7 shape, and the badge follows', async ({ page, request }) => {
    const a = await pick(request, plain);
    await page.goto(`/product/${a.product_code}`);
    await expect(badge(page)).toHaveText('0');
    const add = page.getByRole('button', { name: 'หยิบใส่ตะกร้า' });
    await add.click();
    await expect(page.getByRole('status').filter({ hasText: 'ลงตะกร้าแล้ว' })).toBeVisible();
    await expect(badge(page)).toHaveText('1');
    await add.click();
    const raw = await page.evaluate((key) => localStorage.getItem(key), KEY);
    const items = JSON.parse(raw ?? 'null') as Record<string, unknown>[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      product_code: a.product_code,
      product_name: a.product_name,
      product_price: a.unit_price,
      product_image: a.product_image,
      amount: 2,
    });
    for (const [field, type] of Object.entries({ product_code: 'string', product_name: 'string', product_price: 'number', amount: 'number' })) {
      expect(typeof items[0]?.[field], field).toBe(type);
    }
    await expect(badge(page)).toHaveText('1');
  });

  test('the chosen quantity is added, and the stepper stays between 1 and the stock', async ({ page, request }) => {
    const a = await pick(request, plain);
    await page.goto(`/product/${a.product_code}`);
    const minus = page.getByRole('button', { name: 'ลดจำนวน' });
    const plus = page.getByRole('button', { name: 'เพิ่มจำนวน' });
    await expect(minus).toBeDisabled();
    await plus.click();
    await plus.click();
    await minus.click();
    await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
    await expect.poll(async () => (await readCart(page))[0]?.amount).toBe(2);
    await openDropdown(page);
    await expect(panel(page).getByText(`${formatBaht(a.unit_price_satang)} x 2`)).toBeVisible();
  });

  test('a sold-out product cannot be added', async ({ page, request }) => {
    const soldOut = await pick(request, (line) => line.stock === 0);
    await page.goto(`/product/${soldOut.product_code}`);
    await expect(page.getByRole('button', { name: 'สินค้าหมด' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'หยิบใส่ตะกร้า' })).toHaveCount(0);
  });
});

test.describe('adding from product cards', () => {
  test('a card button adds one piece, updates the badge and shows feedback', async ({ page }) => {
    await page.goto('/product/category/skincare');
    await page.evaluate((key) => localStorage.removeItem(key), KEY);
    await page.reload();
    await hydrated(page);
    const card = page.locator('article.product-card').filter({ has: page.locator('button[data-add-to-cart]') }).first();
    const code = await card.getAttribute('data-product-code');
    const button = card.locator('button[data-add-to-cart]');
    await button.click();
    await expect(button).toContainText('เพิ่มลงตะกร้าแล้ว');
    await expect(badge(page).first()).toHaveText('1');
    await button.click();
    await expect.poll(async () => (await readCart(page)).map((line) => [line.product_code, line.amount])).toEqual([[code, 2]]);
    await expect(badge(page).first()).toHaveText('1');
  });
});
