// How much JavaScript the cart adds to a page, gzip-compressed, from the build in dist/:
// the closure of the cart islands' static imports minus what the page's other islands and the React
// renderer load anyway, and separately what loads lazily (SweetAlert2, on the first remove).
//   npm run build && node bench/cart-weight.mjs            (product page P00001)
//   CART_WEIGHT_PATH=/aboutus node bench/cart-weight.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startBuiltServer } from './built-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const client = path.join(root, 'dist/client');
const port = Number(process.env.BENCH_PORT ?? 4452);
const base = `http://127.0.0.1:${port}`;
const pagePath = process.env.CART_WEIGHT_PATH ?? '/product/P00001';
const cartIslands = /\/(CartButton|AddToCart|CartPage)\.[^/]+\.js$/;

const read = (url) => readFileSync(path.join(client, url), 'utf8');
const gz = (url) => gzipSync(readFileSync(path.join(client, url)), { level: 9 }).length;

/** Static and dynamic imports of a built chunk, as /_astro/... URLs. */
function imports(url) {
  const code = read(url);
  const dir = path.posix.dirname(url);
  const resolve = (spec) => path.posix.join(dir, spec);
  const staticOnes = [...code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*?from\s*)?["'](\.\/[^"']+\.js)["']/g)].map((m) => resolve(m[1]));
  const lazy = [...code.matchAll(/import\(["'](\.\/[^"']+\.js)["']\)/g)].map((m) => resolve(m[1]));
  // Vite lists a dynamic import's chunks in __vite__mapDeps as paths from the site root.
  const mapped = [...code.matchAll(/"(_astro\/[^"]+\.js)"/g)].map((m) => `/${m[1]}`);
  return { staticOnes, lazy: [...lazy, ...mapped] };
}

function closure(entries) {
  const seen = new Set();
  const lazy = new Set();
  const stack = [...entries];
  while (stack.length > 0) {
    const url = stack.pop();
    if (seen.has(url)) continue;
    seen.add(url);
    const found = imports(url);
    stack.push(...found.staticOnes);
    for (const chunk of found.lazy) lazy.add(chunk);
  }
  return { seen, lazy };
}

const { stop } = await startBuiltServer({ port });
try {
  const html = await (await fetch(`${base}${pagePath}`)).text();
  const islands = [...new Set([...html.matchAll(/component-url="([^"]+)"/g)].map((m) => m[1]))];
  const renderers = [...new Set([...html.matchAll(/renderer-url="([^"]+)"/g)].map((m) => m[1]))];
  const cart = islands.filter((url) => cartIslands.test(url));
  const others = [...islands.filter((url) => !cartIslands.test(url)), ...renderers];
  const cartClosure = closure(cart);
  const baseline = closure(others).seen;
  const added = [...cartClosure.seen].filter((url) => !baseline.has(url));
  const lazy = [...cartClosure.lazy].filter((url) => !cartClosure.seen.has(url) && !baseline.has(url));
  const sum = (urls) => urls.reduce((total, url) => total + gz(url), 0);
  console.log(`page ${pagePath}: cart islands ${cart.map((url) => path.posix.basename(url)).join(', ') || '(none)'}`);
  for (const url of added) console.log(`  ${path.posix.basename(url).padEnd(40)} ${(gz(url) / 1024).toFixed(2).padStart(7)} KiB gzip`);
  console.log(`cart adds on load: ${(sum(added) / 1024).toFixed(2)} KiB gzip in ${added.length} files (React and the other islands' chunks not counted)`);
  console.log(`loaded on first remove: ${(sum(lazy) / 1024).toFixed(2)} KiB gzip (${lazy.map((url) => path.posix.basename(url)).join(', ')})`);
} finally {
  await stop();
}
