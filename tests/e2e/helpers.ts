import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page, TestInfo } from '@playwright/test';

/**
 * Waits until every island on the page has hydrated (Astro drops the `ssr` attribute then). An island
 * that hydrates when seen (`client:visible`) below the fold of a phone is scrolled to, as a reader would.
 */
export async function waitForIslands(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const waiting = document.querySelectorAll('astro-island[ssr]');
    // The island itself has no box (display: contents); Astro watches its first child.
    document.querySelector('astro-island[ssr][client="visible"]')?.firstElementChild?.scrollIntoView({ block: 'center' });
    return waiting.length === 0;
  });
}

/** The e2e server's DATA_DIR (playwright.config.ts): mail outbox and operator socket live there. */
export function e2eDataDir(): string {
  const port = Number(process.env.E2E_PORT ?? 4399);
  return process.env.E2E_DATA_DIR ?? `${process.env.TMPDIR ?? '/tmp'}/shop-e2e-${port}`;
}

/**
 * Runs a step that changes, or reads, something every page shows (the shop's phone number, a content page
 * other tests read) while no other worker runs such a step: a lock directory in the e2e server's DATA_DIR.
 * A lock older than `staleMs` (two minutes: no step holds it that long) belongs to a killed run and is
 * taken over. `name` gives a lock of its own to state only some tests share (the reviews' approval switch).
 */
export async function withShopWideState<T>(step: () => Promise<T>, { name = 'e2e-shop-wide', staleMs = 2 * 60_000 }: { name?: string; staleMs?: number } = {}): Promise<T> {
  const lock = path.join(e2eDataDir(), `${name}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > staleMs) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await step();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * A screenshot for a person to look at, taken only when E2E_SHOTS names a folder: nothing compares it,
 * so a CI run does not pay for it (`E2E_SHOTS=/tmp/shots npm run test:e2e` takes them all).
 */
export async function keepScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const folder = process.env.E2E_SHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: options.fullPage ?? true });
}

/**
 * A browser context of its own (a second person: staff beside a shopper), made like the test's project:
 * its viewport and phone settings, Thai locale and Bangkok time. `options` adds to or overrides them.
 */
export function projectContext(browser: Browser, testInfo: TestInfo, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const use = testInfo.project.use;
  return browser.newContext({
    baseURL: use.baseURL,
    viewport: use.viewport,
    userAgent: use.userAgent,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    locale: 'th-TH',
    timezoneId: 'Asia/Bangkok',
    ...options,
  });
}
