// Order placement throughput (issue 6): members place orders concurrently through POST /api/orders,
// each with its own idempotency key, first spread over many products, then all on one hot product
// (every checkout queues on the same row lock). Prints orders/s, latency and the error count, which
// must be 0, and checks that the stock taken equals what the orders bought.
//   npm run bench -- orders                      (fresh in-memory demo shop)
//   BENCH_DATABASE_URL=postgres://… npm run bench -- orders
// Knobs: BENCH_PORT (4445), BENCH_SECONDS (8 per phase), BENCH_CONNECTIONS (16), BENCH_MEMBERS (16).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { demoEpoch, demoProduct } from '../src/server/db/demo-catalog.ts';
import { startBuiltServer } from './built-server.mjs';

const port = Number(process.env.BENCH_PORT ?? 4445);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const memberCount = Number(process.env.BENCH_MEMBERS ?? 16);
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-orders-'));

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'memory://';
const { stop } = await startBuiltServer({
  port,
  env: { SEED_DEMO: 'true', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, PUBLIC_SITE_URL: base },
});

async function post(pathname, body, token, headers = {}) {
  const response = await fetch(`${base}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => ({})) };
}

async function member(index) {
  const password = `Bench-${index}-Orders-2569!`;
  const registered = await post('/api/member-insert', {
    firstName: 'ทดสอบ',
    lastName: `โหลด${index}`,
    email: `bench-${index}-${Date.now()}@bench.test`,
    phone: `09${String(10_000_000 + index * 7919 + (Date.now() % 1000)).slice(-8)}`,
    password,
    confirmPassword: password,
    acceptTerms: true,
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const token = registered.body.token;
  const address = await post(
    '/api/user/addresses',
    { recipientName: 'ผู้รับ ทดสอบ', phone: '0812345678', line1: '1 ถนนสีลม', subdistrict: 'สีลม', district: 'บางรัก', province: 'กรุงเทพมหานคร', postcode: '10500', isDefault: true },
    token,
  );
  if (address.status !== 201) throw new Error(`address: ${address.status} ${JSON.stringify(address.body)}`);
  return { token, addressId: address.body.data.id };
}

async function stockOf(token, codes) {
  const answer = await post('/api/order-quote', { lines: codes.map((code) => ({ product_code: code, amount: 1 })) }, token);
  return new Map(answer.body.data.lines.map((line) => [line.product_code, line.stock]));
}

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function phase(name, members, pickCode) {
  const latencies = [];
  const errors = new Map();
  const bought = new Map();
  let sequence = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      while (Date.now() < deadline) {
        const buyer = members[(worker + sequence) % members.length];
        const code = pickCode(sequence++);
        const t0 = performance.now();
        const answer = await post(
          '/api/orders',
          { lines: [{ product_code: code, amount: 1 }], address_id: buyer.addressId, delivery_code: 'ems', payment_method: 'promptpay' },
          buyer.token,
          { 'idempotency-key': `bench-${worker}-${sequence}-${Math.random().toString(36).slice(2)}` },
        );
        latencies.push(performance.now() - t0);
        if (answer.status === 201) bought.set(code, (bought.get(code) ?? 0) + 1);
        else errors.set(`${answer.status} ${answer.body.code ?? ''}`, (errors.get(`${answer.status} ${answer.body.code ?? ''}`) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const ok = [...bought.values()].reduce((a, b) => a + b, 0);
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  latencies.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(28)} ${String(ok).padStart(6)} orders  ${(ok / elapsed).toFixed(1).padStart(7)} orders/s  p50 ${percentile(latencies, 50).toFixed(0)} ms  p99 ${percentile(latencies, 99).toFixed(0)} ms  errors ${errorCount}${errorCount ? ` ${JSON.stringify(Object.fromEntries(errors))}` : ''}`,
  );
  return { bought, errorCount };
}

let failed = false;
try {
  const members = [];
  for (let i = 0; i < memberCount; i++) members.push(await member(i));
  // Products with plenty of stock, so "out of stock" is not what we measure.
  const products = [];
  for (let index = 0; index < 360 && products.length < 12; index++) {
    const product = demoProduct(index, demoEpoch);
    if (product.stock >= 1500) products.push(product.code);
  }
  const before = await stockOf(members[0].token, products);
  console.log(`${connections} concurrent checkouts, ${members.length} members, ${seconds} s per phase, ${databaseUrl.startsWith('postgres') ? 'PostgreSQL' : 'PGlite'}`);
  const spread = await phase('spread over 11 products', members, (n) => products[1 + (n % (products.length - 1))]);
  const hot = await phase('one hot product', members, () => products[0]);
  const after = await stockOf(members[0].token, products);
  for (const code of products) {
    const taken = before.get(code) - after.get(code);
    const ordered = (spread.bought.get(code) ?? 0) + (hot.bought.get(code) ?? 0);
    if (taken !== ordered) {
      console.log(`MISMATCH ${code}: stock went down by ${taken}, orders bought ${ordered}`);
      failed = true;
    }
  }
  const errors = spread.errorCount + hot.errorCount;
  console.log(failed ? 'stock check: FAILED' : 'stock check: stock taken = units ordered for every product');
  console.log(`errors: ${errors}`);
  if (errors > 0) failed = true;
} finally {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
