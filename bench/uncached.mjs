// Uncached pages at catalog scale (docs/design.md section 15): every request a different URL, so the page
// cache never answers: product pages, listing pages (sorted, shallow), deep listing pages (past the
// result window: the capped answer), searches for different words, and the cached home page while searches
// run beside it (a slow page must not hold up the others). Each rate is printed as a ratio
// to the shop's own static file and to a bare node:http server sending the same bytes from memory,
// all measured in this run on this machine, with p50/p95 latency. Each page target is also given as a
// ratio to the static file measured just before and just after it ("× around"), since this machine's
// speed drifts from minute to minute.
//
//   npm run build
//   BENCH_DATA_DIR=/tmp/big node bench/uncached.mjs            (embedded database, seeded with db:seed)
//   BENCH_DATABASE_URL=postgres://…/shop node bench/uncached.mjs
//   node bench/uncached.mjs                                     (fresh in-memory demo shop, 360 products)
// BENCH_SECONDS (default 6) per target, BENCH_CONNECTIONS (default 10), BENCH_PORT (default 4500);
// BENCH_WARMUP (default 30) seconds of warm-up first, 0 for none (see below);
// ASTRO_SERVER_ENTRY=/path/to/other-build/server/entry.mjs measures another build (a copy of dist);
// BENCH_ONLY=product,listing,deep measures only those page targets (keys: home, product, listing, deep,
// search), with the bare server and the static file always (bench/astro-changes.mjs uses it).
//
// The warm-up: a server spends its first half minute compiling its hot code (docs/decisions/159,
// 165), so product and listing pages are rendered first for BENCH_WARMUP seconds. No measured URL
// and no measured listing's cached ids come from it: its product pages are left out of the measured
// draw, and its listings carry a price filter, so their id pages and counts are cached under other keys.
// The measured listings (a category and a sort) read their category's and sort's window of ids on
// their first page and cut the others from it (docs/decisions/168): the first few dozen of them read
// it, and every later one only its cards.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBuiltServer } from './built-server.mjs';

const port = Number(process.env.BENCH_PORT ?? 4500);
const barePort = port + 1;
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const warmupSeconds = Number(process.env.BENCH_WARMUP ?? 30);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((key) => key.trim())) : null;
const wanted = (key) => !only || only.has(key);
const root = path.resolve(import.meta.dirname, '..');

const database = process.env.BENCH_DATA_DIR
  ? { DATA_DIR: process.env.BENCH_DATA_DIR }
  : { DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'memory://' };
const { base, stop } = await startBuiltServer({ port, env: { SEED_DEMO: 'true', ...database } });

/** The bare server gets the exact bytes the shop sends for the CSS with `Accept-Encoding: br`. */
function startBare(file, encoding) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.mjs'), String(barePort), file, 'text/css; charset=utf-8', encoding ?? ''], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(() => child.kill('SIGTERM')));
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
}

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Drives `nextPath()` (a new path per request) and returns rate, p50, p95, errors. */
function drive(url, nextPath, clients = connections, duration = seconds) {
  return new Promise((resolve, reject) => {
    const times = [];
    const statuses = new Map();
    const instance = autocannon(
      {
        url,
        connections: clients,
        duration,
        headers: { 'accept-encoding': 'br, gzip' },
        ...(nextPath ? { requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }] } : {}),
      },
      (error, result) => {
        if (error) return reject(error);
        times.sort((a, b) => a - b);
        resolve({ rps: result.requests.average, p50: percentile(times, 50), p95: percentile(times, 95), errors: result.errors + result.timeouts, statuses });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      times.push(responseTime);
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    });
  });
}

let stopBare = () => {};
try {
  // How many products: codes are P00001…, so probe the largest seeded size that exists.
  let products = 360;
  for (const size of [100_000, 10_000, 1_000]) {
    const probe = await fetch(`${base}/product/P${String(size - 1).padStart(5, '0')}`, { method: 'HEAD' });
    if (probe.ok) {
      products = size;
      break;
    }
  }
  const home = await (await fetch(`${base}/`)).text();
  const cssPath = /\/_astro\/[^"']+\.css/.exec(home)?.[0];
  if (!cssPath) throw new Error('no stylesheet on the home page: run `npm run build` first');
  // The build under test: ASTRO_SERVER_ENTRY points the server (and so this) at another build to compare.
  const clientDir = path.resolve(path.dirname(path.resolve(root, process.env.ASTRO_SERVER_ENTRY ?? 'dist/server/entry.mjs')), '../client');
  const cssFile = path.join(clientDir, cssPath);
  const brFile = existsSync(`${cssFile}.br`) ? `${cssFile}.br` : cssFile;
  stopBare = await startBare(brFile, brFile.endsWith('.br') ? 'br' : undefined);
  const categories = [...new Set([...home.matchAll(/\/product\/category\/([a-z0-9-]+)/g)].map((match) => match[1]))];
  const words = ['ลิป', 'เซรั่ม', 'ตุ๊กตา', 'กระเป๋า', 'ของชำร่วย', 'ของขวัญ', 'glow lab', 'สมุด', 'ต่างหู', 'ปากกา', 'หมวก', 'เทียน', 'ลูกโป่ง', 'แก้ว', 'ผ้าพันคอ', 'พวงกุญแจ'];
  const sorts = ['newest', 'price_asc', 'price_desc', 'name'];
  let n = 0;
  const random = (max) => Math.floor(Math.random() * max);
  const codeOf = (number) => `P${String(number).padStart(5, '0')}`;
  // The warm-up's product pages come from the last tenth of the codes, so however long it runs, most
  // of the catalog is left for the measured draw (the 360-product demo included).
  const warmedCodes = new Set();
  const warmCode = () => codeOf(products - 1 - random(Math.max(1, Math.floor(products / 10))));
  const code = () => {
    for (;;) {
      const drawn = codeOf(1 + random(products - 1));
      if (!warmedCodes.has(drawn)) return drawn;
    }
  };
  const listingPath = (filter = '') =>
    `/product/category/page/${1 + (n++ % 40)}?category=${categories[random(categories.length)]}&sort=${sorts[random(4)]}${filter}&n=${n}`;
  if (warmupSeconds > 0) {
    const warmups = [
      drive(`${base}/product/P00001`, () => {
        const drawn = warmCode();
        warmedCodes.add(drawn);
        return `/product/${drawn}`;
      }, Math.ceil(connections / 2), warmupSeconds),
      drive(`${base}/product`, () => listingPath(`&min=${1 + random(20)}`), Math.max(1, Math.floor(connections / 2)), warmupSeconds),
    ];
    const [productWarmup, listingWarmup] = await Promise.all(warmups);
    console.log(`warm-up: ${warmupSeconds} s, product pages ${productWarmup.rps.toFixed(0)} req/s, price-filtered listing pages ${listingWarmup.rps.toFixed(0)} req/s (not measured)`);
  }
  const staticUrl = `${base}${cssPath}`;
  const searchPath = () => `/search/page/${1 + random(40)}?q=${encodeURIComponent(words[random(words.length)])}&sort=${['relevance', ...sorts][random(5)]}&n=${n++}`;
  const targets = [
    ['bare node:http, same bytes', `http://127.0.0.1:${barePort}/`, null],
    ['static file (CSS, br)', staticUrl, null],
    ...(wanted('home') ? [['cached home page', `${base}/`, null]] : []),
    ...(wanted('product') ? [['product page, each a different one', `${base}/product/P00001`, () => `/product/${code()}`]] : []),
    // Every combination of category, sort and page 1–40 is a new URL for the page cache.
    ...(wanted('listing') ? [['listing page 1–40 (category, sort)', `${base}/product`, () => listingPath()]] : []),
    ...(wanted('deep') ? [['deep listing page 43–3000', `${base}/product`, () => `/product/category/page/${43 + random(2958)}?sort=price_asc&n=${n++}`]] : []),
    // Word × sort × page 1–40: few repeats, so neither the page cache nor the id-page cache answers.
    ...(wanted('search') ? [['search, word × sort × page 1–40', `${base}/search`, searchPath]] : []),
  ];
  const rows = [];
  // The machine's speed drifts from minute to minute, so each page target also gets the static file
  // measured just before and just after it (half as long), and "× around" is its rate over their mean.
  let staticBefore = null;
  for (const [label, url, next] of targets) {
    const warm = await fetch(next ? new URL(next(), base) : url);
    await warm.arrayBuffer();
    const row = { label, status: warm.status, ...(await drive(url, next)) };
    if (next) {
      const staticAfter = (await drive(staticUrl, null, connections, Math.max(1, Math.round(seconds / 2)))).rps;
      row.around = (staticBefore + staticAfter) / 2;
      staticBefore = staticAfter;
    } else if (url === staticUrl) {
      staticBefore = row.rps;
    }
    rows.push(row);
  }
  // A slow request must not hold up the others: the cached home page while searches run beside it
  // (4 connections searching, the other connections on the home page; decision 156).
  if (wanted('home') && wanted('search')) {
    const [beside, homeBeside] = await Promise.all([
      drive(`${base}/search`, searchPath, 4),
      drive(`${base}/`, null, Math.max(1, connections - 4)),
    ]);
    rows.push({ label: 'cached home page while searches run', status: 200, ...homeBeside });
    rows.push({ label: '  searches beside it (4 connections)', status: 200, ...beside });
  }
  const bare = rows[0].rps || 1;
  const staticRps = rows[1].rps || 1;
  console.log(`\nuncached pages: ${products.toLocaleString('en')} products on ${process.env.BENCH_DATA_DIR ? 'PGlite ' + process.env.BENCH_DATA_DIR : process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'in-memory PGlite demo'}; ${connections} connections × ${seconds} s each`);
  console.log('target                                   req/s   p50 ms   p95 ms  errors  non-2xx  × static  × bare  × around');
  for (const row of rows) {
    const non2xx = [...row.statuses].filter(([status]) => status < 200 || status >= 300).reduce((sum, [, count]) => sum + count, 0);
    console.log(
      `${row.label.padEnd(40)}${row.rps.toFixed(0).padStart(6)}  ${row.p50.toFixed(1).padStart(7)}  ${row.p95.toFixed(1).padStart(7)}  ${String(row.errors).padStart(6)}  ${String(non2xx).padStart(7)}  ${(row.rps / staticRps).toFixed(2).padStart(8)}  ${(row.rps / bare).toFixed(2).padStart(6)}${row.around ? (row.rps / row.around).toFixed(2).padStart(10) : ''}`,
    );
  }
  console.log('× around: over the mean of the static file measured just before and just after that target');
  console.log('targets (section 15): static ≥ 0.5 × bare; cached home ≥ 0.5 × static; product and listing ≥ 0.2 × static; every listing page p95 < 100 ms; a cached page keeps answering at once while searches run');
} finally {
  stopBare();
  await stop();
}
