// JavaScript and CSS each page type loads, as the browser receives it (compressed bytes on the wire),
// measured in Chromium against the built server. `npm run build && node bench/page-weight.mjs`
import { chromium } from 'playwright-core';
import { findChromium } from '../scripts/find-chromium.mjs';
import { startBuiltServer } from './built-server.mjs';

const port = Number(process.env.BENCH_PORT ?? 4451);
const pages = [
  ['home', '/'],
  ['listing', '/product/category/makeup'],
  ['search', `/search/${encodeURIComponent('ลิป')}`],
  ['product', '/product/P00003'],
  ['content', '/aboutus'],
  ['cart', '/cart'],
  ['login', '/login'],
];

const { base, stop } = await startBuiltServer({ port });
try {
  const browser = await chromium.launch({ executablePath: (await findChromium()).path, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  console.log('page       status   JS files  JS bytes (wire)  CSS bytes (wire)  fonts (wire)');
  for (const [label, url] of pages) {
    const page = await browser.newPage();
    const sizes = { js: 0, jsFiles: 0, css: 0, font: 0 };
    const pending = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      pending.push(
        response.request().sizes().then((size) => {
          const bytes = size.responseBodySize;
          if (type === 'script') {
            sizes.js += bytes;
            sizes.jsFiles++;
          } else if (type === 'stylesheet') sizes.css += bytes;
          else if (type === 'font') sizes.font += bytes;
        }).catch(() => {}),
      );
    });
    const response = await page.goto(`${base}${url}`, { waitUntil: 'networkidle' });
    await Promise.all(pending);
    console.log(
      `${label.padEnd(11)}${String(response?.status()).padEnd(9)}${String(sizes.jsFiles).padStart(8)}  ${(sizes.js / 1024).toFixed(1).padStart(12)} KiB  ${(sizes.css / 1024).toFixed(1).padStart(13)} KiB  ${(sizes.font / 1024).toFixed(1).padStart(9)} KiB`,
    );
    await page.close();
  }
  await browser.close();
} finally {
  await stop();
}
