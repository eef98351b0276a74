// What hashing a page costs the thread that renders pages (docs/decisions/162): `crypto.hash` on that
// thread against Web Crypto's `subtle.digest`, which hashes on libuv's pool but first copies the bytes
// and hands them over. Measured as this thread's own CPU time (process.threadCpuUsage), once with the
// pool idle and once while it compresses other pages, as it does under load in the shop's server.
//
//   node bench/page-hash.mjs
// BENCH_PAGES (default 2000) pages per round; 4 rounds each.
import { Buffer } from 'node:buffer';
import { hash, webcrypto } from 'node:crypto';
import { brotliCompress, constants } from 'node:zlib';

const count = Number(process.env.BENCH_PAGES ?? 2000);
// ~56 KB of Thai markup, about a listing page's size in bytes; a fresh copy per hash, as each page is.
const pages = Array.from({ length: 50 }, (_, i) => Buffer.from(`<div class="card">สินค้า ${i} ราคา ฿${i * 7}</div>`.repeat(900)));
const threadCpuMs = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function round(kind) {
  const started = threadCpuMs();
  for (let i = 0; i < count; i++) {
    const body = Buffer.from(pages[i % pages.length]);
    if (kind === 'subtle.digest') await webcrypto.subtle.digest('SHA-1', body);
    else {
      hash('sha1', body, 'base64url');
      await null;
    }
  }
  return (threadCpuMs() - started) / count;
}

let compressing = false;
const keepPoolBusy = () => {
  if (compressing) brotliCompress(pages[0], { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } }, keepPoolBusy);
};

console.log(`${(pages[0].length / 1024).toFixed(0)} KB pages, ${count} per round; this thread's CPU per page in ms (copy of the page included)`);
for (const poolBusy of [false, true]) {
  compressing = poolBusy;
  if (poolBusy) for (let i = 0; i < 3; i++) keepPoolBusy();
  const results = { 'crypto.hash': [], 'subtle.digest': [] };
  for (let i = 0; i < 4; i++) for (const kind of Object.keys(results)) results[kind].push(await round(kind));
  compressing = false;
  for (const [kind, values] of Object.entries(results)) {
    console.log(`${poolBusy ? 'pool compressing' : 'pool idle       '}  ${kind.padEnd(14)} ${values.map((value) => value.toFixed(3)).join('  ')}`);
  }
}
