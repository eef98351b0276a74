// CPU per request by thread of the built server, under uncached load at a steady state: the thread
// that renders pages, PGlite's worker thread, V8's helper threads (garbage collector, compilers) and
// libuv's pool (compression, hashing), read from /proc/<pid>/task/*/stat before and after each round,
// beside the load generator's own CPU. Linux only. A warm-up round of the same load comes first, not
// counted: a server's first ~30 s are spent compiling its code (docs/decisions/159). The listing
// windows (one per category and sort, docs/decisions/168) are read then too, so the rounds measure
// pages whose ids are cut from them and whose cards are read fresh.
//
//   npm run build
//   BENCH_DATA_DIR=/tmp/big node bench/thread-cpu.mjs            (embedded database seeded with db:seed)
//   BENCH_DATABASE_URL=postgres://…/shop node bench/thread-cpu.mjs
// BENCH_KIND listing (default) or product; BENCH_SECONDS (default 8) per round; BENCH_ROUNDS (default 3);
// BENCH_PORT (default 4600). With BENCH_DATABASE_URL the PostgreSQL server's processes on this machine
// (every process named postgres) are counted too: they share the same two cores.
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startBuiltServer } from './built-server.mjs';

const port = Number(process.env.BENCH_PORT ?? 4600);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const kind = process.env.BENCH_KIND ?? 'listing';
const database = process.env.BENCH_DATA_DIR ? { DATA_DIR: process.env.BENCH_DATA_DIR } : { DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'memory://' };
const { base, stop, pid } = await startBuiltServer({ port, env: { SEED_DEMO: 'true', ...database } });

// /proc reports CPU time in clock ticks of 1/100 s on Linux.
const TICK_MS = 10;

/** CPU ticks used so far by each thread of the server, with the thread's name. */
function threadTicks() {
  const threads = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = Number(tid) === pid ? 'rendering thread' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      threads.set(tid, { name, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return threads;
}

/** CPU ticks used so far by every PostgreSQL server process on this machine (backends, walwriter, …). */
function postgresTicks() {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // a process that ended between the listing and the read
    }
  }
  return ticks;
}
const countPostgres = Boolean(process.env.BENCH_DATABASE_URL);

try {
  const home = await (await fetch(`${base}/`)).text();
  const categories = [...new Set([...home.matchAll(/\/product\/category\/([a-z0-9-]+)/g)].map((match) => match[1]))];
  const sorts = ['newest', 'price_asc', 'price_desc', 'name'];
  const probe = await fetch(`${base}/product/P99999`, { method: 'HEAD' });
  const products = probe.ok ? 100_000 : 360;
  let n = 0;
  const random = (max) => Math.floor(Math.random() * max);
  // The same URLs as bench/uncached.mjs: every request a different one for the page cache.
  const next =
    kind === 'product'
      ? () => `/product/P${String(1 + random(products - 1)).padStart(5, '0')}`
      : () => `/product/category/page/${1 + (n++ % 40)}?category=${categories[random(categories.length)]}&sort=${sorts[random(4)]}&n=${n}`;
  const drive = () =>
    new Promise((resolve, reject) => {
      autocannon(
        { url: base, connections: 10, duration: seconds, headers: { 'accept-encoding': 'br, gzip' }, requests: [{ setupRequest: (request) => ({ ...request, path: next() }) }] },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });

  await drive();
  console.log(`${kind} pages, ${products.toLocaleString('en')} products; 10 connections; ${seconds} s rounds after one of warm-up; CPU ms per request`);
  for (let round = 1; round <= rounds; round++) {
    const before = threadTicks();
    const postgresBefore = countPostgres ? postgresTicks() : 0;
    const ownBefore = process.cpuUsage();
    const result = await drive();
    const after = threadTicks();
    const postgres = countPostgres ? postgresTicks() - postgresBefore : 0;
    const own = process.cpuUsage(ownBefore);
    const requests = result.requests.total;
    const byName = new Map();
    for (const [tid, { name, ticks }] of after) byName.set(name, (byName.get(name) ?? 0) + ticks - (before.get(tid)?.ticks ?? 0));
    const perRequest = (ticks) => ((ticks * TICK_MS) / requests).toFixed(3);
    const parts = [...byName].filter(([, ticks]) => ticks > 0).sort((a, b) => b[1] - a[1]);
    const total = parts.reduce((sum, [, ticks]) => sum + ticks, 0);
    console.log(
      `round ${round}: ${(requests / seconds).toFixed(0)} req/s, p97.5 ${result.latency.p97_5} ms; server ${perRequest(total)} = ${parts.map(([name, ticks]) => `${name} ${perRequest(ticks)}`).join(' + ')}${countPostgres ? `; PostgreSQL server ${perRequest(postgres)}` : ''}; load generator ${((own.user + own.system) / 1000 / requests).toFixed(3)}`,
    );
  }
} finally {
  await stop();
}
