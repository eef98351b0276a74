import type { Page } from '@playwright/test';

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
