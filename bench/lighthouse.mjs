// Lighthouse mobile performance (default mobile emulation and simulated throttling) for the home page, a
// listing and a product page of the built server: the median score of three runs each, with its metrics.
//
// Lighthouse is large and only this script needs it, so it is not a dependency. Install it beside the
// project first, then run against a build:
//   npm install --no-save lighthouse chrome-launcher      (or LIGHTHOUSE_DIR=/dir/with/node_modules)
//   npm run build && node bench/lighthouse.mjs
// BENCH_DATA_DIR runs it against a seeded embedded database instead of the in-memory demo shop.
// It needs a full Chromium (Debian's `chromium` package, or LIGHTHOUSE_CHROME): the serverless build the
// e2e suite can fall back to (@sparticuz/chromium) aborts Lighthouse's page load (net::ERR_ABORTED).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findChromium } from '../scripts/find-chromium.mjs';
import { startBuiltServer } from './built-server.mjs';

const port = Number(process.env.BENCH_PORT ?? 4457);
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const from = createRequire(path.join(process.env.LIGHTHOUSE_DIR ?? path.resolve(import.meta.dirname, '..'), 'package.json'));

async function load(name) {
  try {
    return await import(pathToFileURL(from.resolve(name)).href);
  } catch {
    // Skipped, not failed, so `npm run bench` goes on without it.
    console.log(`skipped: ${name} is not installed (npm install --no-save lighthouse chrome-launcher, or set LIGHTHOUSE_DIR)`);
    process.exit(0);
  }
}

const { default: lighthouse } = await load('lighthouse');
const chromeLauncher = await load('chrome-launcher');
const pages = [
  ['home', '/'],
  ['listing', '/product/category/makeup'],
  ['product', '/product/P00003'],
];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const env = process.env.BENCH_DATA_DIR ? { DATA_DIR: process.env.BENCH_DATA_DIR, DATABASE_URL: '' } : {};
const { base, stop } = await startBuiltServer({ port, env });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.LIGHTHOUSE_CHROME ?? (await findChromium()).path,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  console.log(`Lighthouse ${runs} runs per page, mobile; median score and the metrics of that run`);
  console.log('page      score  runs          FCP ms   LCP ms   TBT ms   CLS    SI ms');
  for (const [label, url] of pages) {
    await fetch(`${base}${url}`); // the page cache is warm, as for a shopper after the first visit
    const results = [];
    for (let i = 0; i < runs; i++) {
      // Headless Chromium now and then loses the trace of a load (NO_NAVSTART): that run is taken again.
      let lhr;
      for (let attempt = 0; attempt < 3; attempt++) {
        ({ lhr } = await lighthouse(`${base}${url}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }));
        if (!lhr.runtimeError) break;
        console.log(`          (${label} run ${i + 1}: ${lhr.runtimeError.code}, taken again)`);
      }
      results.push(lhr);
    }
    const failed = results.find((lhr) => lhr.runtimeError);
    if (failed) throw new Error(`Lighthouse could not measure ${url}: ${failed.runtimeError.code} ${failed.runtimeError.message}`);
    const scores = results.map((lhr) => Math.round(lhr.categories.performance.score * 100));
    const mid = results[scores.indexOf(median(scores))];
    const metric = (id) => mid.audits[id]?.numericValue ?? NaN;
    console.log(
      `${label.padEnd(10)}${String(median(scores)).padStart(5)}  ${scores.join(',').padEnd(12)}${metric('first-contentful-paint').toFixed(0).padStart(8)} ${metric('largest-contentful-paint').toFixed(0).padStart(8)} ${metric('total-blocking-time').toFixed(0).padStart(8)} ${metric('cumulative-layout-shift').toFixed(3).padStart(6)} ${metric('speed-index').toFixed(0).padStart(8)}`,
    );
    for (const audit of Object.values(mid.audits)) {
      if (audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'numeric' && audit.details?.type === 'opportunity') {
        console.log(`          - ${audit.title}: ${audit.displayValue ?? ''}`);
      }
    }
  }
} finally {
  chrome.kill();
  await stop();
}
