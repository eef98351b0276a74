// Gzip size of the JavaScript each catalog page type loads, computed from the built files in
// dist/client (gzip -9 of each script the browser fetched), so the number does not depend on what
// encoding the server negotiates. `npm run build && node bench/js-gzip.mjs`
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { findChromium } from '../scripts/find-chromium.mjs';
import { startBuiltServer } from './built-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 4452);
const pages = [
  ['home', '/'],
  ['listing', '/product/category/makeup'],
  ['search', `/search/${encodeURIComponent('ลิป')}`],
  ['product', '/product/P00003'],
  ['promotions', '/promotions'],
  ['content', '/aboutus'],
];

const { base, stop } = await startBuiltServer({ port });
try {
  const browser = await chromium.launch({ executablePath: (await findChromium()).path, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  // docs/design.md section 15: at most 75 KB (75,000 bytes) of gzip JavaScript on every anonymous page.
  const budget = 75_000;
  console.log('page        JS files  raw KiB  gzip KiB  gzip bytes  budget  scripts');
  for (const [label, url] of pages) {
    const page = await browser.newPage();
    const scripts = new Set();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
    });
    await page.goto(`${base}${url}`, { waitUntil: 'networkidle' });
    let raw = 0;
    let gzip = 0;
    for (const script of scripts) {
      const file = readFileSync(path.join(root, 'dist/client', script));
      raw += file.length;
      gzip += gzipSync(file, { level: 9 }).length;
    }
    const names = [...scripts].map((s) => path.basename(s).replace(/\.[A-Za-z0-9_-]{8}\.js$/, '')).sort().join(' ');
    const verdict = gzip <= budget ? 'met' : `+${gzip - budget}`;
    console.log(
      `${label.padEnd(12)}${String(scripts.size).padStart(8)}  ${(raw / 1024).toFixed(1).padStart(7)}  ${(gzip / 1024).toFixed(1).padStart(8)}  ${String(gzip).padStart(10)}  ${verdict.padStart(6)}  ${names}`,
    );
    await page.close();
  }
  await browser.close();
} finally {
  await stop();
}
