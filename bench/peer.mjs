// The shop against the Next.js 15 listing page whose source is in docs/performance.md (a dynamic page with
// no database at all), in one run, same connections and seconds, interleaved: the shop's cached listing
// should reach 10 × its rate and the demo shop's uncached product and listing pages at least 1 ×
// (docs/design.md section 15).
//
// The peer is built outside the repository once (never committed):
//   write its five files (docs/performance.md) into "$(mktemp -d)/peer", then there: npm install && npx next build
// then, after `npm run build` here:
//   BENCH_PEER_DIR=/tmp/…/peer node bench/peer.mjs
// BENCH_SECONDS (default 6), BENCH_CONNECTIONS (default 10), BENCH_PORT (default 4510; the peer gets +1).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBuiltServer } from './built-server.mjs';

const peerDir = process.env.BENCH_PEER_DIR;
if (!peerDir || !existsSync(path.join(peerDir, '.next'))) {
  console.log('peer: set BENCH_PEER_DIR to a built copy of the Next.js peer page in docs/performance.md (see the comment at the top of bench/peer.mjs); skipped.');
  process.exit(0);
}
const port = Number(process.env.BENCH_PORT ?? 4510);
const peerPort = port + 1;
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

const nextBin = path.join(peerDir, 'node_modules/next/dist/bin/next');
const peer = spawn(process.execPath, [nextBin, 'start', '-p', String(peerPort), '-H', '127.0.0.1'], {
  cwd: peerDir,
  env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: false,
});
const stopPeer = () => new Promise((resolve) => (peer.exitCode !== null ? resolve() : (peer.once('exit', resolve), peer.kill('SIGTERM'))));
const { base, stop } = await startBuiltServer({ port, env: { SEED_DEMO: 'true', DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'memory://' } });
const peerBase = `http://127.0.0.1:${peerPort}`;

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function drive(url, nextPath) {
  return new Promise((resolve, reject) => {
    const times = [];
    let bad = 0;
    const instance = autocannon(
      { url, connections, duration: seconds, headers: { 'accept-encoding': 'br, gzip' }, ...(nextPath ? { requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }] } : {}) },
      (error, result) => {
        if (error) return reject(error);
        times.sort((a, b) => a - b);
        resolve({ rps: result.requests.average, p50: percentile(times, 50), p95: percentile(times, 95), bad: bad + result.errors });
      },
    );
    instance.on('response', (_client, status, _bytes, time) => {
      times.push(time);
      if (status >= 400) bad++;
    });
  });
}

try {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(peerBase)).ok) break;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  let n = 0;
  const random = (max) => Math.floor(Math.random() * max);
  const sorts = ['newest', 'price_asc', 'price_desc', 'name'];
  const categories = ['skincare', 'makeup', 'stationery', 'accessories', 'party-favours'];
  const targets = [
    ['Next.js listing (peer, dynamic, no DB)', peerBase, null],
    ['shop: cached listing', `${base}/product/category/makeup`, null],
    ['shop: uncached listing', `${base}/product`, () => `/product/category/page/${1 + random(3)}?category=${categories[random(categories.length)]}&sort=${sorts[random(4)]}&n=${n++}`],
    ['shop: uncached product page', `${base}/product/P00001`, () => `/product/P${String(1 + random(359)).padStart(5, '0')}?n=${n++}`],
    ['Next.js listing again (drift check)', peerBase, null],
  ];
  const rows = [];
  for (const [label, url, next] of targets) {
    await (await fetch(next ? new URL(next(), url) : url)).arrayBuffer();
    rows.push({ label, ...(await drive(url, next)) });
  }
  const peerRps = (rows[0].rps + rows[4].rps) / 2 || 1;
  console.log(`\nshop (360-product demo) vs Next.js peer, ${connections} connections × ${seconds} s each`);
  console.log('target                                   req/s   p50 ms   p95 ms  errors  × peer');
  for (const row of rows) {
    console.log(`${row.label.padEnd(40)}${row.rps.toFixed(0).padStart(6)}  ${row.p50.toFixed(1).padStart(7)}  ${row.p95.toFixed(1).padStart(7)}  ${String(row.bad).padStart(6)}  ${(row.rps / peerRps).toFixed(2).padStart(6)}`);
  }
  console.log('targets (section 15): cached listing ≥ 10 × peer; uncached product and listing ≥ 1 × peer');
} finally {
  await stop();
  await stopPeer();
}
