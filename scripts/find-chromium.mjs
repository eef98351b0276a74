// Finds a Chromium for Playwright without downloading one (docs/design.md section 9): an explicit
// PLAYWRIGHT_CHROMIUM_EXECUTABLE, Playwright's own browser, the system's, then @sparticuz/chromium.
import { existsSync } from 'node:fs';

export async function findChromium() {
  const explicit = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE;
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`PLAYWRIGHT_CHROMIUM_EXECUTABLE=${explicit} does not exist`);
    return { path: explicit, source: 'PLAYWRIGHT_CHROMIUM_EXECUTABLE' };
  }
  try {
    const { chromium } = await import('playwright-core');
    const own = chromium.executablePath();
    if (own && existsSync(own)) return { path: own, source: 'playwright' };
  } catch {
    // Playwright has no browser of its own installed: keep looking.
  }
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) {
    if (existsSync(candidate)) return { path: candidate, source: 'system' };
  }
  if (process.platform === 'linux' && process.arch === 'x64') {
    const { default: sparticuz } = await import('@sparticuz/chromium');
    return { path: await sparticuz.executablePath(), source: '@sparticuz/chromium' };
  }
  throw new Error('No Chromium found: install one or set PLAYWRIGHT_CHROMIUM_EXECUTABLE');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = await findChromium();
  console.log(found.path);
}
