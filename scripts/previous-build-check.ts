/**
 * Expand then contract, for real (docs/operations.md "Upgrading", docs/decisions/208): runs the
 * PREVIOUS release's built server against a database migrated to the LATEST schema, as happens during
 * a rolling upgrade while old instances still serve, and has it show pages and take an order.
 *
 *   npm run upgrade-check                                    # embedded database in a scratch directory
 *   npm run upgrade-check -- --database postgres://postgres@127.0.0.1:5432/shop_upgrade_check
 *   npm run upgrade-check -- --previous <commit>             # another build than the one found below
 *
 * The previous release is main's commit before the latest migration arrived (the first-parent parent
 * of the commit that added the latest tag to drizzle/meta/_journal.json, looked for on main, then on
 * HEAD's own history; HEAD itself while that migration is not committed yet). It is exported with `git archive`, installed and built once, and kept in
 * /tmp/shop-previous-build/<commit> for the next run. The database (an empty PostgreSQL database, which
 * is created if missing, or a scratch DATA_DIR) is migrated and seeded with the demo shop by this
 * checkout's code; the previous build then starts on it (its own, older migrations find nothing to do).
 * Takes minutes the first time (npm ci, astro build); not part of CI, whose static check is
 * tests/unit/migration-rules.test.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';

const root = path.resolve(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: { database: { type: 'string' }, previous: { type: 'string' }, port: { type: 'string', default: '4890' }, cache: { type: 'string', default: '/tmp/shop-previous-build' } },
});
const port = Number(options.port);
const base = `http://127.0.0.1:${port}`;

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const say = (line: string) => process.stdout.write(`${line}\n`);

const journal = JSON.parse(readFileSync(path.join(root, 'drizzle/meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
const latest = journal.entries.at(-1)!.tag;
/** The first-parent commit of `ref` that added the latest migration's tag to the journal. */
function introducedOn(ref: string): string | undefined {
  try {
    return git('log', '--first-parent', '--format=%H', `-S"tag": "${latest}"`, ref, '--', 'drizzle/meta/_journal.json').split('\n').filter(Boolean).at(-1);
  } catch {
    return undefined; // no such branch
  }
}
// main's history first: a branch that merged main would otherwise find its own merge commit.
const introduced = introducedOn('main') ?? introducedOn('HEAD');
const previous = git('rev-parse', options.previous ?? (introduced ? `${introduced}^1` : 'HEAD'));
say(`latest migration: ${latest}${introduced ? ` (added by ${introduced.slice(0, 9)})` : ' (not committed yet)'}`);
say(`previous build:   ${previous.slice(0, 9)} ${git('log', '-1', '--format=%s', previous).slice(0, 100)}`);

// The previous build, exported, installed and built once.
const buildDir = path.join(options.cache, previous);
if (!existsSync(path.join(buildDir, 'dist/server/entry.mjs'))) {
  say(`building it in ${buildDir} (npm ci, astro build)…`);
  rmSync(buildDir, { recursive: true, force: true });
  mkdirSync(buildDir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${previous} | tar -x -C "${buildDir}"`], { cwd: root, stdio: 'inherit' });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: buildDir, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync(path.join(buildDir, 'node_modules/.bin/astro'), ['build'], { cwd: buildDir, stdio: ['ignore', 'ignore', 'inherit'] });
}

// A database at the latest schema with the demo shop, made by this checkout's code.
const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-upgrade-check-'));
process.env.DATA_DIR = dataDir;
process.env.LOG_LEVEL ??= 'warn';
if (options.database) {
  const url = new URL(options.database);
  const name = decodeURIComponent(url.pathname.slice(1));
  const server = postgres(Object.assign(new URL(url), { pathname: '/postgres' }).href, { max: 1, onnotice: () => {} });
  const [exists] = await server`select 1 from pg_database where datname = ${name}`;
  if (!exists) await server.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  await server.end();
}
const { openDatabase } = await import('../src/server/db/client.ts');
const { seedDemoIfEmpty } = await import('../src/server/db/seed.ts');
const opened = await openDatabase({ url: options.database, dataDir, poolSize: 2 });
await seedDemoIfEmpty(opened);
await opened.close();
say(`database:         ${options.database ? url(options.database) : `embedded, ${dataDir}`} at ${latest}, demo shop`);

function url(database: string): string {
  const parsed = new URL(database);
  parsed.password = '';
  return parsed.href;
}

// The previous build serving on it.
let output = '';
const child = spawn(process.execPath, ['runtime/main.ts'], {
  cwd: buildDir,
  env: {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_SITE_URL: base,
    DATA_DIR: dataDir,
    ...(options.database ? { DATABASE_URL: options.database } : {}),
    SEED_DEMO: 'false',
    MAIL_POLL_SECONDS: '0',
    ORDER_SWEEP_SECONDS: '0',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

const failures: string[] = [];
try {
  for (let ready = false; !ready; ) {
    if (child.exitCode !== null) throw new Error(`the previous build stopped: ${output.trim()}`);
    ready = await fetch(`${base}/readyz`).then((response) => response.ok, () => false);
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  say('previous build:   ready');
  for (const page of ['/', '/product', '/product/P00012', '/search/ลิปสติก', '/promotions', '/cart', '/login']) {
    const response = await fetch(`${base}${encodeURI(page)}`);
    say(`  GET ${page} ${response.status}`);
    if (response.status !== 200) failures.push(`GET ${page}: ${response.status}`);
  }
  const orderNo = await placeOrder();
  say(`  order ${orderNo} placed and read back`);
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
const errors = output.split('\n').filter((line) => line.includes('"level":"error"'));
for (const line of errors.slice(0, 5)) failures.push(`it logged: ${line.slice(0, 400)}`);
if (failures.length > 0) {
  say(`FAILED: the previous build does not work on the latest schema:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
say(`OK: the previous build (${previous.slice(0, 9)}) serves and takes orders on the schema of ${latest}.`);

async function call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: { data?: Record<string, unknown>; token?: string; message?: string } }> {
  const headers: Record<string, string> = { Origin: base, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  const response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

/** A new member signs up, saves an address, orders and reads the order back, all through the previous build. */
async function placeOrder(): Promise<string> {
  const stamp = Date.now() % 100_000_000;
  const password = 'Upgrade-check-2026!';
  const registered = await call('POST', '/api/member-insert/', {
    firstName: 'ทดสอบ', lastName: 'อัปเกรด', email: `upgrade-${stamp}@example.com`, phone: `09${String(stamp).padStart(8, '0')}`,
    password, confirmPassword: password, acceptTerms: true,
  });
  if (registered.status !== 201 || !registered.body.token) throw new Error(`sign-up: ${registered.status} ${JSON.stringify(registered.body)}`);
  const token = registered.body.token;
  const address = await call('POST', '/api/user/addresses', { recipientName: 'ทดสอบ อัปเกรด', phone: '0812345678', line1: '9 ถนนสุขุมวิท', subdistrict: 'คลองเตย', district: 'คลองเตย', province: 'กรุงเทพมหานคร', postcode: '10110' }, token);
  if (address.status !== 201) throw new Error(`address: ${address.status} ${JSON.stringify(address.body)}`);
  const order = await call('POST', '/api/orders', { idempotency_key: `upgrade-${stamp}`, lines: [{ product_code: 'P00012', amount: 2 }], address_id: address.body.data?.id, delivery_code: 'kerry', payment_method: 'promptpay' }, token);
  if (order.status !== 201 && order.status !== 200) throw new Error(`order: ${order.status} ${JSON.stringify(order.body)}`);
  const orderNo = String(order.body.data?.order_no);
  const read = await call('POST', '/api/order-get', { no: orderNo }, token);
  if (read.status !== 200 || read.body.data?.status !== 'pending_payment') throw new Error(`order-get: ${read.status} ${JSON.stringify(read.body)}`);
  return orderNo;
}
