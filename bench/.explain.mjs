process.env.SEED_DEMO='false'; process.env.LOG_LEVEL='error';
const { sql } = await import('drizzle-orm');
const { database } = await import('../src/server/db/client.ts');
const { runShutdownHooks } = await import('../src/server/lifecycle.ts');
const db = await database();
for (const q of process.argv.slice(2)) {
  const t = performance.now();
  const rows = await db.rows(sql.raw('explain analyze ' + q));
  console.log(rows.map(r => r['QUERY PLAN']).join('\n'));
  console.log('---', (performance.now()-t).toFixed(1), 'ms');
}
await runShutdownHooks();
