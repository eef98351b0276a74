// CSV import and export of the catalog at wholesale scale (issue 10): builds a 100,000-row CSV of new
// products, checks it (dry run), imports it in one transaction, re-imports it (nothing changes), then
// streams the whole catalog out. Prints rows/s for each step and the process's peak memory (RSS) during
// it, sampled every 20 ms, so the export shows it is streamed and not built in memory.
//   npm run bench -- catalog-csv                          (in-memory PGlite)
//   BENCH_DATABASE_URL=postgres://…/db npm run bench -- catalog-csv   (an EMPTY database)
// Knobs: BENCH_ROWS (100000).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TextEncoder } from 'node:util';

const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-csv-'));
process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'memory://';
process.env.DATA_DIR = dataDir;
process.env.SEED_DEMO = 'false';
process.env.LOG_LEVEL = 'error';

const { database } = await import('../src/server/db/client.ts');
const { seedDemo } = await import('../src/server/db/seed.ts');
const { dryRunImport, applyImport } = await import('../src/server/catalog-admin/csv-import.service.ts');
const { catalogCsvStream } = await import('../src/server/catalog-admin/csv-export.service.ts');
const { demoCategories, demoBrands } = await import('../src/server/db/demo-catalog.ts');

const db = await database();
await seedDemo(db.db, { products: 0 });

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
async function measure(label, count, work) {
  globalThis.gc?.();
  let peak = process.memoryUsage().rss;
  const start = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`${label.padEnd(22)} ${count.toLocaleString('en')} rows in ${seconds.toFixed(1)} s = ${Math.round(count / seconds).toLocaleString('en')} rows/s; RSS ${mb(start)} → peak ${mb(peak)}`);
  return result;
}

const lines = ['code,name,name_en,category,brand,price,stock,unit,active,recommended,tiers,description'];
for (let index = 0; index < rows; index++) {
  const category = demoCategories[index % demoCategories.length];
  const brand = index % 3 === 0 ? '' : demoBrands[index % demoBrands.length].code;
  const price = 50 + (index % 900);
  const tiers = index % 4 === 0 ? `12:${price - 5};60:${price - 10}` : '';
  lines.push(`W${String(index).padStart(6, '0')},"${category.items[index % category.items.length]} รุ่นส่ง ${index}",Wholesale ${index},${category.code},${brand},${price}.50,${index % 500},${category.unit},1,0,${tiers},"สินค้าขายส่ง ${category.name} แพ็กละ ${index % 50 + 1} ชิ้น"`);
}
const bytes = new TextEncoder().encode(`\uFEFF${lines.join('\r\n')}\r\n`);
console.log(`CSV of ${rows.toLocaleString('en')} products: ${mb(bytes.length)} (${db.kind})`);
const actor = { id: null, email: 'bench@example.test', role: 'owner', via: 'cli' };

const checked = await measure('dry run', rows, () => dryRunImport(bytes));
if (checked.errors.length > 0) throw new Error(`unexpected bad rows: ${JSON.stringify(checked.errors.slice(0, 3))}`);
const applied = await measure('import (one tx)', rows, () => applyImport(actor, bytes));
if (applied.creates !== rows) throw new Error(`created ${applied.creates}, expected ${rows}`);
const again = await measure('re-import (no change)', rows, () => applyImport(actor, bytes));
if (again.unchanged !== rows) throw new Error(`re-import changed ${rows - again.unchanged} rows`);

let exported = 0;
let exportedBytes = 0;
await measure('export (streamed)', rows, async () => {
  const reader = catalogCsvStream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    exportedBytes += value.length;
    for (const byte of value) if (byte === 10) exported++;
  }
});
console.log(`export: ${(exported - 1).toLocaleString('en')} rows, ${mb(exportedBytes)}`);

const { runShutdownHooks } = await import('../src/server/lifecycle.ts');
await runShutdownHooks();
rmSync(dataDir, { recursive: true, force: true });
