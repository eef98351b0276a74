import { expect, test, type Page } from '@playwright/test';
import { grantRole } from './fixtures/roles';
import { keepScreenshot, waitForIslands } from './helpers';

/**
 * Security 7 of issue 32 in the browser: with no 'unsafe-inline' for scripts (docs/decisions/198), the
 * shop's pages run every script they carry. Chromium reports each blocked script as a console error
 * naming the Content Security Policy and as a `securitypolicyviolation` event; neither may happen, and
 * the islands and plain-DOM scripts must work (hydrated islands, the cart dropdown, the back office's).
 */

const PASSWORD = 'Csp-Password-2569!';

/** Collects CSP violations of the page from here on: console errors and the DOM event alike. */
function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample} at ${location.pathname} from ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`);
    });
  });
  return violations;
}

test.describe('Content-Security-Policy in the browser', () => {
  test('shop pages run their scripts with no violation', { tag: '@phone' }, async ({ page }, testInfo) => {
    const violations = watchViolations(page);
    for (const path of ['/', '/product', '/cart', '/login', '/no-such-page']) {
      await page.goto(path);
      await waitForIslands(page);
    }
    // A plain-DOM script and an island at work: the cart button opens its dropdown.
    await page.goto('/');
    await waitForIslands(page);
    await page.getByRole('button', { name: /ตะกร้าสินค้า/ }).first().click();
    await expect(page.getByText('ไม่มีสินค้าในตะกร้าสินค้าของคุณ').first()).toBeVisible();
    await keepScreenshot(page, `csp-home-${testInfo.project.name}`);
    expect(violations).toEqual([]);
  });

  test('back-office pages run their scripts with no violation', { tag: '@phone' }, async ({ page }, testInfo) => {
    const violations = watchViolations(page);
    const email = `csp-${testInfo.project.name}-${Date.now().toString(36)}@e2e.test`;
    const phone = `08${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const registered = await page.request.post('/api/member-insert', {
      data: { firstName: 'ทดสอบ', lastName: 'นโยบาย', email, phone, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true },
    });
    expect(registered.status(), await registered.text()).toBe(201);
    await grantRole(email, 'staff');
    for (const path of ['/admin', '/admin/orders', '/admin/products/new', '/admin/import']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await waitForIslands(page);
    }
    await keepScreenshot(page, `csp-admin-import-${testInfo.project.name}`);
    expect(violations).toEqual([]);
  });
});
