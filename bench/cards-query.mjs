/**
 * What reading a page of product cards costs at the service, the way listing and search pages read
 * them (`summariesByIds`: one JSON value per page, docs/decisions/153) beside the same cards read as
 * 24 rows of twelve columns (the card columns every other card query uses). Random ids, interleaved
 * rounds, on the catalog in DATA_DIR / DATABASE_URL (seed it first).
 *
 *   DATA_DIR=/tmp/big node bench/cards-query.mjs [--runs 1000]
 *   DATABASE_URL=postgres://…/shop_big node bench/cards-query.mjs
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

process.env.SEED_DEMO = 'false';
process.env.LOG_LEVEL ??= 'error';
const { values } = parseArgs({ options: { runs: { type: 'string', default: '1000' } } });
const runs = Number(values.runs);

const { sql } = await import('drizzle-orm');
const { database } = await import('../src/server/db/client.ts');
const { summariesByIds, summaryQuery, toSummary } = await import('../src/server/catalog/product.repo.ts');
const { products } = await import('../src/server/db/schema.ts');
const { runShutdownHooks } = await import('../src/server/lifecycle.ts');

const db = await database();
const [{ n }] = await db.rows(sql`select max(id)::int as n from products`);
const asRows = summaryQuery(db.db, sql`${products.id} = any(${sql.placeholder('ids')}::int[])`).prepare('bench_cards_as_rows');
const readers = {
  'as 24 rows': async (ids) => {
    const rows = await asRows.execute({ ids });
    const byId = new Map(rows.map((row) => [row.id, toSummary(row)]));
    return ids.map((id) => byId.get(id));
  },
  'as one JSON value': (ids) => summariesByIds(db.db, ids),
};
const page = () => Array.from({ length: 24 }, () => 1 + Math.floor(Math.random() * n));
async function time(read, count) {
  const started = performance.now();
  for (let i = 0; i < count; i++) await read(page());
  return (performance.now() - started) / count;
}

console.log(`${n.toLocaleString('en')} products on ${db.kind}; ${runs} pages of 24 random cards per round`);
for (const read of Object.values(readers)) await time(read, 200);
for (let round = 1; round <= 3; round++) {
  const line = [];
  for (const [label, read] of Object.entries(readers)) line.push(`${label} ${(await time(read, runs)).toFixed(3)} ms`);
  console.log(`round ${round}: ${line.join(', ')}`);
}
await runShutdownHooks();
