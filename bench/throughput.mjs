// Page throughput against a static file, in one run, with the same load (docs/design.md bar 5).
//   npm run bench                         (fresh in-memory demo shop)
//   BENCH_DATA_DIR=/tmp/big npm run bench (an embedded database seeded with db:seed --products 100000)
// Starts the built server (run `npm run build` first), warms each URL, then drives each one with
// autocannon for BENCH_SECONDS at BENCH_CONNECTIONS and prints requests/s and the ratio to the static file.
import autocannon from 'autocannon';
import { startBuiltServer } from './built-server.mjs';

const port = Number(process.env.BENCH_PORT ?? 4450);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

const { base, stop } = await startBuiltServer({
  port,
  env: {
    SEED_DEMO: 'true',
    ...(process.env.BENCH_DATA_DIR ? { DATA_DIR: process.env.BENCH_DATA_DIR } : { DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'memory://' }),
  },
});

function drive(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers: { 'accept-encoding': 'gzip, br' } }, (error, result) => {
      if (error) reject(error);
      else resolve(result);
    });
  });
}

try {
  const home = await (await fetch(`${base}/`)).text();
  const cssAsset = /\/_astro\/[^"']+\.css/.exec(home)?.[0] ?? '/favicon.svg';
  const targets = [
    ['static asset', cssAsset],
    ['home page', '/'],
    ['category listing', '/product/category/skincare'],
    ['category listing p2 + filters', '/product/category/page/2?category=makeup&sort=price_asc'],
    ['search page', `/search/${encodeURIComponent('ลิป')}`],
  ];
  const rows = [];
  for (const [label, target] of targets) {
    const warm = await fetch(`${base}${target}`);
    await warm.arrayBuffer();
    const result = await drive(`${base}${target}`);
    rows.push({ label, target, status: warm.status, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx, cache: warm.headers.get('x-astro-cache') ?? '-' });
  }
  const staticRps = rows[0].rps || 1;
  console.log(`\nthroughput, ${connections} connections × ${seconds} s each (${process.env.BENCH_DATA_DIR ? 'embedded DB ' + process.env.BENCH_DATA_DIR : 'in-memory demo DB'})`);
  console.log('target                              status  cache   req/s    p50 ms  p99 ms  errors  ratio to static');
  for (const row of rows) {
    console.log(
      `${row.label.padEnd(36)}${String(row.status).padEnd(8)}${row.cache.padEnd(8)}${row.rps.toFixed(0).padStart(6)}  ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)}  ${String(row.errors).padStart(6)}  ${(row.rps / staticRps).toFixed(2)}`,
    );
  }
} finally {
  await stop();
}
