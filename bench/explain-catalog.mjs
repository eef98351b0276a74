/**
 * Where a catalog page's time goes: runs what the product page, listings (shallow and deep, by
 * category, brand and sort) and search ask of the database, captures every query the services send,
 * and prints EXPLAIN (ANALYZE, BUFFERS) of each: execution time, the plan's top node and rows read.
 *
 *   DATA_DIR=/tmp/big node bench/explain-catalog.mjs [--full] [--only product|listing|search]
 *   DATABASE_URL=postgres://… node bench/explain-catalog.mjs
 *
 * --full prints whole plans. Seed first: `npm run db:seed -- --products 100000`.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

process.env.SEED_DEMO = 'false';
process.env.LOG_LEVEL ??= 'error';
const { values } = parseArgs({ options: { full: { type: 'boolean', default: false }, only: { type: 'string' } } });

const { database, observeQueries } = await import('../src/server/db/client.ts');
const catalog = await import('../src/server/catalog/catalog.service.ts');
const { queryFromSearchParams } = await import('../src/server/catalog/listing-query.ts');
const { runShutdownHooks } = await import('../src/server/lifecycle.ts');
const { sql } = await import('drizzle-orm');

const opened = await database();
const client = opened.db.$client;
const [{ n }] = await opened.rows(sql`select count(*)::int as n from products`);
const [{ code: someCode }] = await opened.rows(sql`select code from products where active order by id desc offset ${Math.floor(n / 2)} limit 1`);
const [{ code: brandCode }] = await opened.rows(sql`select b.code from brands b join products p on p.brand_id = b.id group by b.code order by count(*) desc limit 1`);
const [{ code: categoryCode }] = await opened.rows(sql`select c.code from categories c join products p on p.category_id = c.id group by c.code order by count(*) desc limit 1`);

// One session (a reserved connection on PostgreSQL) so replayed plan settings apply to the EXPLAIN.
const session = opened.kind === 'pglite' ? client : await client.reserve();
const run = async (text, params = []) => {
  const result = opened.kind === 'pglite' ? await session.query(text, params) : await session.unsafe(text, params);
  return result.rows ?? result;
};

async function explain(text, params) {
  return (await run(`explain (analyze, buffers) ${text}`, params)).map((row) => row['QUERY PLAN']);
}

const listing = (params) => () => catalog.findProducts(queryFromSearchParams(new globalThis.URLSearchParams(params)));
const cases = [
  ['product', `product page ${someCode}: detail`, () => catalog.findProductByCode(someCode)],
  ['product', 'product page: related (same category)', async () => catalog.relatedProducts(await catalog.findProductByCode(someCode), 6)],
  ['listing', 'all products, newest, page 1', listing({})],
  ['listing', `category ${categoryCode}, price_asc, page 2`, listing({ category: categoryCode, sort: 'price_asc', page: '2' })],
  ['listing', 'all, price_asc, page 3000 (deep)', listing({ sort: 'price_asc', page: '3000' })],
  ['listing', `category ${categoryCode}, newest, page 300 (deep)`, listing({ category: categoryCode, page: '300' })],
  ['listing', `brand ${brandCode}, price_desc, page 1`, listing({ brand: brandCode, sort: 'price_desc' })],
  ['listing', `brand ${brandCode} + price 100–500, name, page 1`, listing({ brand: brandCode, min: '100', max: '500', sort: 'name' })],
  ['search', 'search ของขวัญ (every product), relevance', listing({ q: 'ของขวัญ' })],
  ['search', 'search ลิป, relevance', listing({ q: 'ลิป' })],
  ['search', 'search ของชำร่วย, page 2', listing({ q: 'ของชำร่วย', page: '2' })],
  ['search', 'search Glow Lab (brand)', listing({ q: 'Glow Lab' })],
  ['search', 'search ลิปสติด (typo)', listing({ q: 'ลิปสติด' })],
];

console.log(`catalog: ${n} products on ${opened.kind}`);
for (const [group, label, run] of cases) {
  if (values.only && values.only !== group) continue;
  catalog.clearProductQueryCache();
  await run(); // warm: plans, buffers
  catalog.clearProductQueryCache();
  const captured = [];
  observeQueries((text, params) => captured.push({ text, params }));
  const started = performance.now();
  await run();
  const wall = performance.now() - started;
  observeQueries(null);
  console.log(`\n── ${label}: ${wall.toFixed(1)} ms at the service, ${captured.length} queries`);
  await run('reset all');
  for (const { text, params } of captured) {
    if (/^\s*(begin|commit|rollback|savepoint|release)/i.test(text)) continue;
    if (text.includes('set_config')) {
      // The services set plan options for their transaction; replay them for the session so the
      // EXPLAIN below shows the plan the service really got.
      const forSession = text.replaceAll(', true)', ', false)');
      await run(forSession, params);
      continue;
    }
    const plan = await explain(text, params);
    const execution = plan.find((line) => line.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
    const short = text.replace(/\s+/g, ' ').slice(0, 150);
    console.log(`  ${execution.padStart(12)}  ${short}`);
    const interesting = values.full ? plan : plan.filter((line, index) => index === 0 || /Scan|Sort Method|Buffers: shared/.test(line)).slice(0, 6);
    for (const line of interesting) console.log(`                ${line.trim().slice(0, 160)}`);
  }
}
if (session !== client) session.release();
await runShutdownHooks();
