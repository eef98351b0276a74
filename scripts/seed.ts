/**
 * `npm run db:seed -- [--products N] [--orders N]`: loads the demo catalog into an empty database, and/or
 * adds demo products until the catalog holds N (for scale tests, e.g. 100000), and/or adds N demo orders
 * by a thousand demo buyers (src/server/db/seed-orders.ts). Uses the same configuration as the server
 * (DATABASE_URL, DATA_DIR); stop the server first when it runs on the embedded database.
 */
import { parseArgs } from 'node:util';
import { ConfigError, env } from '../src/server/env.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { ensureDemoProducts, seedDemoIfEmpty } from '../src/server/db/seed.ts';
import { addDemoOrders } from '../src/server/db/seed-orders.ts';

const { values } = parseArgs({ options: { products: { type: 'string' }, orders: { type: 'string' } } });
const wanted = values.products === undefined ? undefined : Number(values.products);
if (wanted !== undefined && (!Number.isInteger(wanted) || wanted < 1 || wanted > 2_000_000)) {
  console.error('--products must be a whole number between 1 and 2000000');
  process.exit(2);
}
const orders = values.orders === undefined ? undefined : Number(values.orders);
if (orders !== undefined && (!Number.isInteger(orders) || orders < 1 || orders > 5_000_000)) {
  console.error('--orders must be a whole number between 1 and 5000000');
  process.exit(2);
}

let config;
try {
  config = env();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const started = Date.now();
  const seeded = await seedDemoIfEmpty(database, Math.min(wanted ?? 360, 360));
  if (seeded) console.log('Demo shop loaded (company, categories, brands, promotions, gallery, jobs).');
  if (wanted !== undefined) {
    let last = 0;
    const added = await ensureDemoProducts(database.db, wanted, (done) => {
      if (done - last >= 10_000 || done === wanted) {
        console.log(`  ${done.toLocaleString('en')} products`);
        last = done;
      }
    });
    console.log(`Added ${added.toLocaleString('en')} products; the catalog holds at least ${wanted.toLocaleString('en')}.`);
  }
  if (orders !== undefined) {
    let last = 0;
    const total = await addDemoOrders(database.db, orders, (done) => {
      if (done - last >= 10_000 || done === orders) {
        console.log(`  ${done.toLocaleString('en')} orders`);
        last = done;
      }
    });
    console.log(`Added ${orders.toLocaleString('en')} orders; the shop holds ${total.toLocaleString('en')}.`);
  }
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s (${database.kind}).`);
} finally {
  await database.close();
}
