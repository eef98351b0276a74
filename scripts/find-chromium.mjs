// Finds a Chromium for Playwright without downloading one (docs/design.md section 9): an explicit
// PLAYWRIGHT_CHROMIUM_EXECUTABLE, Playwright's own browser, then a headless shell (the system's, then
// @sparticuz/chromium's) before a full system Chromium. The shell is what Playwright itself runs headless:
// a full Chromium's headless mode starts its browser UI in every page and took twice the time and CPU of
// the end-to-end suite (docs/decisions/213).
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
  if (existsSync('/usr/bin/chromium-headless-shell')) return { path: '/usr/bin/chromium-headless-shell', source: 'system headless shell' };
  if (process.platform === 'linux' && process.arch === 'x64') {
    const { default: sparticuz } = await import('@sparticuz/chromium');
    return { path: await sparticuz.executablePath(), source: '@sparticuz/chromium' };
  }
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) {
    if (existsSync(candidate)) return { path: candidate, source: 'system' };
  }
  throw new Error('No Chromium found: install one or set PLAYWRIGHT_CHROMIUM_EXECUTABLE');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = await findChromium();
  console.log(found.path);
}
