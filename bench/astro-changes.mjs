// Does each of the shop's changes to Astro's code earn its place (docs/upgrading-astro.md)? Builds the
// shop once per change with that change switched off (SHOP_PATCHES_OFF), and once as it stands, then
// measures the builds in alternating rounds with bench/uncached.mjs on the same data directory: product,
// listing and deep listing pages, each as a ratio to the static file measured around it. The machine
// drifts between minutes, so one run decides nothing; a change's gain is "clear" on a target only when
// every run with it off measured below every run with it on.
//
//   DATA_DIR=/tmp/big node scripts/seed.ts --products 100000
//   BENCH_DATA_DIR=/tmp/big node bench/astro-changes.mjs
// BENCH_ROUNDS (default 3); BENCH_CHANGES (default: every change of the server build); BENCH_SKIP_BUILD=1
// reuses the builds in .bench-builds/. `lazy-import` changes only the browser's JavaScript, which
// bench/js-gzip.mjs measures in bytes, so it is not measured here.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const buildsDir = path.join(root, '.bench-builds');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const changes = (process.env.BENCH_CHANGES ?? 'page-body-stream,cached-body-uncopied,csp-digests-remembered')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
if (!process.env.BENCH_DATA_DIR && !process.env.BENCH_DATABASE_URL) {
  console.error('BENCH_DATA_DIR (a data directory seeded with 100,000 products) or BENCH_DATABASE_URL is required');
  process.exit(2);
}
const variants = ['as it stands', ...changes.map((name) => `${name} off`)];
const entryOf = (variant) => path.join(buildsDir, variant.replaceAll(' ', '-'), 'server', 'entry.mjs');

function build(variant, off) {
  const target = path.dirname(path.dirname(entryOf(variant)));
  if (process.env.BENCH_SKIP_BUILD && existsSync(target)) return;
  console.log(`building: ${variant}`);
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'astro'), ['build'], {
    cwd: root,
    env: { ...process.env, SHOP_PATCHES_OFF: off, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`build with ${off || 'nothing'} off failed`);
  rmSync(target, { recursive: true, force: true });
  cpSync(path.join(root, 'dist'), target, { recursive: true });
}

function measure(variant) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'uncached.mjs')], {
      cwd: root,
      env: { ...process.env, ASTRO_SERVER_ENTRY: entryOf(variant), BENCH_ONLY: 'product,listing,deep', BENCH_WARMUP: process.env.BENCH_WARMUP ?? '20' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${variant}: bench/uncached.mjs exited with ${code}\n${output}`));
      const around = (label) => {
        const line = output.split('\n').find((row) => row.startsWith(label));
        return line ? Number(line.trim().split(/\s+/).at(-1)) : NaN;
      };
      resolve({ product: around('product page'), listing: around('listing page'), deep: around('deep listing') });
    });
  });
}

// The builds: each change off alone, then the build as it stands last, so `dist` ends as it began.
for (const name of changes) build(`${name} off`, name);
build('as it stands', '');
cpSync(path.dirname(path.dirname(entryOf('as it stands'))), path.join(root, 'dist'), { recursive: true });

const runs = new Map(variants.map((variant) => [variant, []]));
for (let round = 0; round < rounds; round++) {
  // Each round starts one variant later, so no variant always runs first or last; the build as it
  // stands runs between the others, to show the drift.
  const order = variants.slice(1).map((_, i) => variants[1 + ((i + round) % (variants.length - 1))]);
  const withBase = order.flatMap((variant, i) => (i % 2 === 0 ? ['as it stands', variant] : [variant]));
  for (const variant of withBase) {
    const result = await measure(variant);
    runs.get(variant).push(result);
    console.log(`round ${round + 1}: ${variant.padEnd(28)} product ${result.product.toFixed(2)}  listing ${result.listing.toFixed(2)}  deep ${result.deep.toFixed(2)}`);
  }
}

const targets = ['product', 'listing', 'deep'];
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const base = runs.get('as it stands');
console.log(`\n× around (median, min–max) over ${rounds} rounds; gain = median as it stands / median off − 1; "clear" = every run off below every run on`);
console.log(`${'variant'.padEnd(28)}${targets.map((target) => target.padEnd(30)).join('')}`);
for (const [variant, results] of runs) {
  const cells = targets.map((target) => {
    const values = results.map((result) => result[target]);
    let cell = `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
    if (variant !== 'as it stands') {
      const onValues = base.map((result) => result[target]);
      const gain = median(onValues) / median(values) - 1;
      const clear = Math.max(...values) < Math.min(...onValues);
      cell += ` ${gain >= 0 ? '+' : ''}${(gain * 100).toFixed(0)}%${clear ? ' clear' : ''}`;
    }
    return cell.padEnd(30);
  });
  console.log(`${variant.padEnd(28)}${cells.join('')}`);
}
