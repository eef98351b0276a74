import { expect, test, type Page } from '@playwright/test';
import { placeOrder, signUp } from './fixtures/member';
import { keepScreenshot, waitForIslands } from './helpers';

/**
 * Issue 29, items 11 and 12: no public page, account page or step of checkout scrolls sideways on a phone
 * (320, 360, 390 and 430 px; the desktop project checks a tablet, a small laptop and its own 1280 px);
 * scrolled to its end, no page has text under the floating contact button; and a content page's body
 * headings are smaller than its title.
 *
 * Each page is loaded once, at the project's own size, and measured at every width by resizing the
 * viewport: the CSS answers each width as a fresh load would, and a walk of thirty pages at four widths
 * stays under a few minutes.
 */
const widths = (project: string) => (project === 'phone' ? [320, 360, 390, 430] : [768, 1024, 1280]);

interface Overflow {
  documentWidth: number;
  viewportWidth: number;
  widest: string[];
}

/** How wide the document is against the viewport, and the elements sticking out past its right edge. */
function measureOverflow(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const viewportWidth = document.documentElement.clientWidth;
    const widest = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.right > viewportWidth + 0.5 && element.checkVisibility();
      })
      .slice(-5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right=${Math.round(element.getBoundingClientRect().right)} "${element.textContent?.trim().slice(0, 40) ?? ''}"`);
    return { documentWidth: document.documentElement.scrollWidth, viewportWidth, widest };
  });
}

/**
 * Scrolled to the end of the page, the words under the floating contact button (its visible buttons'
 * boxes against the boxes of every text line on the page). An empty list: the button covers no text.
 */
async function textUnderFloatingButton(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const menu = document.querySelector('[data-testid="floating-menu"]');
    if (!menu) return [];
    const buttons = [...menu.querySelectorAll<HTMLElement>('a, label')].filter((element) => element.checkVisibility()).map((element) => element.getBoundingClientRect());
    const covered: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!node.textContent?.trim() || !parent || menu.contains(parent) || !parent.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      range.selectNodeContents(node);
      for (const line of range.getClientRects()) {
        const hit = buttons.some((box) => line.right > box.left && line.left < box.right && line.bottom > box.top && line.top < box.bottom);
        if (hit) covered.push(node.textContent.trim().slice(0, 60));
      }
    }
    return covered;
  });
}

async function walk(page: Page, paths: string[], project: string, shotPrefix: string): Promise<void> {
  const original = page.viewportSize()!;
  const problems: Record<string, unknown> = {};
  for (const path of paths) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBeLessThan(500);
    await waitForIslands(page);
    await page.evaluate(() => document.fonts.ready);
    for (const width of widths(project)) {
      await page.setViewportSize({ width, height: original.height });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const overflow = await measureOverflow(page);
      if (overflow.documentWidth > overflow.viewportWidth || overflow.viewportWidth !== width) problems[`${path} @${width}: sideways`] = overflow;
      const shot = `${shotPrefix}-${path.replace(/[^a-z0-9]+/gi, '_')}-${width}`;
      if (width === 320 || width === 768) await keepScreenshot(page, `${shot}-top`, { fullPage: false });
      const covered = await textUnderFloatingButton(page);
      if (covered.length > 0) problems[`${path} @${width}: under the floating button`] = covered;
      if (width === 390 || width === 1024) await keepScreenshot(page, `${shot}-end`, { fullPage: false });
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    }
    await page.setViewportSize(original);
  }
  expect(problems).toEqual({});
}

async function firstHref(page: Page, selector: string): Promise<string> {
  const href = await page.locator(selector).first().getAttribute('href');
  expect(href, selector).toBeTruthy();
  return href!;
}

test.describe('phone layout', { tag: '@phone' }, () => {
  test('no public page scrolls sideways, and the floating button covers no text at the end of a page', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    await page.goto('/');
    const product = await firstHref(page, 'a[href^="/product/P"]');
    const category = await firstHref(page, 'a[href^="/product/category/"]');
    await page.goto('/promotions');
    const promotion = await firstHref(page, 'a[href^="/promotions/"]');
    await page.goto('/gallery');
    const album = await firstHref(page, 'main a[href^="/gallery/"]');
    const paths = [
      '/',
      '/product',
      category,
      '/product/category/page/2',
      product,
      '/search/ตุ๊กตา',
      '/search/%E0%B8%A5%E0%B8%94%2050%25',
      '/product?page=999',
      '/promotions',
      promotion,
      '/gallery',
      album,
      '/aboutus',
      '/howtoorder',
      '/contact',
      '/address',
      '/cart',
      '/login',
      '/register',
      '/resetpassword',
      '/this-page-does-not-exist',
    ];
    await walk(page, paths, testInfo.project.name, `layout-public-${testInfo.project.name}`);
  });

  test('no account page or step of checkout scrolls sideways, and the floating button covers no text', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    await signUp(page, testInfo, 'phone-layout');
    await page.goto('/');
    const product = await firstHref(page, 'a[href^="/product/P"]');
    const orderNo = await placeOrder(page, testInfo, product.split('/').pop()!, 'phone-layout');
    // Something in the cart, so the cart and checkout show their whole forms (and the free-delivery strip).
    await page.goto(product);
    await waitForIslands(page);
    await page.getByRole('button', { name: 'หยิบใส่ตะกร้า' }).click();
    // And on the wishlist, so its page shows a row (docs/decisions/209); /cart shows it as recently viewed.
    const wished = await page.request.post('/api/user/wishlist', { data: { code: product.split('/').pop() }, headers: { Origin: new URL(page.url()).origin } });
    expect(wished.status()).toBe(200);
    const paths = [
      '/cart',
      '/order',
      `/order/payment?no=${orderNo}`,
      `/order/delivery?no=${orderNo}`,
      `/order/success?no=${orderNo}`,
      '/user/purchase',
      '/user/purchase?tab=cancelled',
      '/user/account/profile',
      '/user/account/address',
      '/user/account/password',
      '/user/quotations',
      '/user/wishlist',
      '/quotation/new',
    ];
    await walk(page, paths, testInfo.project.name, `layout-account-${testInfo.project.name}`);
  });

  test('My Purchase: the status tabs scroll on their own with a cue, and the chosen tab is in sight', async ({ page }, testInfo) => {
    await signUp(page, testInfo, 'phone-tabs');
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto('/user/purchase?tab=cancelled');
    const strip = page.getByRole('navigation', { name: 'สถานะคำสั่งซื้อ' });
    const tabs = await strip.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth, overflowX: getComputedStyle(element).overflowX, background: getComputedStyle(element).backgroundImage }));
    // Wider than the phone: it scrolls inside itself, and its edges carry shadows (the cue).
    expect(tabs.scrollWidth).toBeGreaterThan(tabs.clientWidth);
    expect(tabs.overflowX).toBe('auto');
    expect(tabs.background).toContain('radial-gradient');
    const active = strip.getByRole('link', { name: 'ยกเลิกแล้ว' });
    await expect(active).toHaveAttribute('aria-current', 'page');
    await expect(active).toBeInViewport({ ratio: 1 });
    await keepScreenshot(page, `purchase-tabs-${testInfo.project.name}`, { fullPage: false });
  });

  test('content pages: headings in the body are smaller than the page title, at every width', async ({ page }, testInfo) => {
    const sizes: Record<string, { title: number; body: number[] }> = {};
    for (const path of ['/aboutus', '/howtoorder', '/contact', '/address']) {
      await page.goto(path);
      for (const width of widths(testInfo.project.name)) {
        await page.setViewportSize({ width, height: 800 });
        const measured = await page.evaluate(() => {
          const px = (element: Element) => Number.parseFloat(getComputedStyle(element).fontSize);
          const titles = document.querySelectorAll('main h1');
          if (titles.length !== 1) throw new Error(`${titles.length} h1 in main`);
          return { title: px(titles[0]!), body: [...document.querySelectorAll('main :is(h2, h3, h4, h5, h6)')].map(px) };
        });
        sizes[path] = measured;
        for (const size of measured.body) expect(size, `${path} @${width}: a body heading of ${size}px under a title of ${measured.title}px`).toBeLessThan(measured.title);
      }
    }
    // How to order has a subheading (สอบถามเพิ่มเติม): the rule above was put to the test.
    expect(sizes['/howtoorder']!.body.length).toBeGreaterThan(0);
  });
});
