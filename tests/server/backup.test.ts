/**
 * Backups that restore (issue 34, sections 1 and 2), as an operator runs them: `npm run shop -- backup`
 * against a running shop on the embedded database while eight clients place orders, then `restore` into
 * a fresh DATA_DIR and into PostgreSQL, each restored shop started and asked for what its members had.
 * The PostgreSQL move needs the server at CI_POSTGRES_URL or 127.0.0.1:5432 (a failure in CI, a skip
 * elsewhere).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArchive } from '../../src/server/backup/archive';
import { smallSlip } from '../fixtures/slips';
import { createDatabase, dropDatabase, postgresReachable, startServer, stopServer, waitReady, type ServerProcess } from '../fixtures/server-process';

const reachable = await postgresReachable();
if (!reachable && process.env.CI) throw new Error('tests/server/backup.test.ts needs a PostgreSQL server in CI: none reachable (set CI_POSTGRES_URL)');

const PORT_SHOP = 4547;
const PORT_RESTORED = 4548;
const PORT_MOVED = 4549;
const STAFF_EMAIL = 'backup-staff@example.com';
const PASSWORD = 'สำรองข้อมูลทุกคืน';
const root = path.resolve(import.meta.dirname, '../..');
const run = `${process.pid}_${Date.now() % 1_000_000}`;
const dirs: string[] = [];
const servers: ServerProcess[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-backup-'));
  dirs.push(dir);
  return dir;
}

/** `npm run shop -- …` as an operator types it, with this environment. */
function shopCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/shop.ts', ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

interface Member {
  token: string;
  addressId: string;
}

async function call<T = Record<string, unknown>>(base: string, method: string, url: string, options: { body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = { Origin: base };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const response = await fetch(`${base}${url}`, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as { data?: T; token?: string; message?: string } };
}

let memberCount = 0;
async function newMember(base: string, email = `backup-${run}-${++memberCount}@example.com`): Promise<Member> {
  const phone = `09${String((Number(run.replace(/\D/g, '')) * 13 + memberCount) % 100_000_000).padStart(8, '0')}`;
  const registered = await call(base, 'POST', '/api/member-insert/', {
    body: { firstName: 'สำรอง', lastName: 'ข้อมูล', email, phone, password: PASSWORD, confirmPassword: PASSWORD, acceptTerms: true },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const address = await call<{ id: string }>(base, 'POST', '/api/user/addresses', {
    token: registered.body.token,
    body: { recipientName: 'สำรอง ข้อมูล', phone: '0812345678', line1: '9 ถนนสุขุมวิท', subdistrict: 'คลองเตย', district: 'คลองเตย', province: 'กรุงเทพมหานคร', postcode: '10110' },
  });
  expect(address.status, JSON.stringify(address.body)).toBe(201);
  return { token: registered.body.token!, addressId: address.body.data!.id };
}

function placeOrder(base: string, member: Member, key: string) {
  return call<{ order_no: string }>(base, 'POST', '/api/orders', {
    token: member.token,
    body: { idempotency_key: key, lines: [{ product_code: 'P00012', amount: 1 }], address_id: member.addressId, delivery_code: 'kerry', payment_method: 'promptpay' },
  });
}

async function uploadSlip(base: string, member: Member, orderNo: string): Promise<void> {
  const form = new FormData();
  form.set('no', orderNo);
  form.set('slip', new Blob([await smallSlip()], { type: 'image/png' }), 'slip.png');
  const response = await fetch(`${base}/api/order-slip`, { method: 'POST', headers: { Origin: base, Authorization: `Bearer ${member.token}` }, body: form });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function slipBytes(base: string, member: Member, orderNo: string): Promise<Buffer> {
  const response = await fetch(`${base}/api/order-slip?no=${orderNo}`, { headers: { Authorization: `Bearer ${member.token}` } });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function receiptNo(base: string, member: Member, orderNo: string): Promise<string> {
  const answer = await call<{ documents?: { receipt_no: string | null } }>(base, 'POST', '/api/order-get', { token: member.token, body: { no: orderNo } });
  return answer.body.data?.documents?.receipt_no ?? `(${answer.status} ${answer.body.message ?? 'no receipt'})`;
}

const shopDir = tempDir();
let shop: ServerProcess;
let staff: Member;
let buyer: Member;
let paidOrder = '';
let paidReceipt = '';
let slip: Buffer;
const acknowledgedBefore: string[] = [];
let archiveFile = '';

beforeAll(async () => {
  shop = startServer(PORT_SHOP, { DATA_DIR: shopDir, SEED_DEMO: 'true', SHOP_ADMIN_EMAILS: STAFF_EMAIL, MAIL_POLL_SECONDS: '0', ORDER_SWEEP_SECONDS: '0' });
  servers.push(shop);
  await waitReady(shop);
  staff = await newMember(shop.base, STAFF_EMAIL);
  buyer = await newMember(shop.base);
  // A paid order with a slip and a receipt: what an accountant needs back after a disaster.
  paidOrder = (await placeOrder(shop.base, buyer, `paid-${run}`)).body.data!.order_no;
  await uploadSlip(shop.base, buyer, paidOrder);
  const confirmed = await call(shop.base, 'POST', '/api/order-status-update', { token: staff.token, body: { no: paidOrder, action: 'confirm_payment' } });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  paidReceipt = await receiptNo(shop.base, buyer, paidOrder);
  expect(paidReceipt).toMatch(/^RE\d{4}-\d{6}$/);
  slip = await slipBytes(shop.base, buyer, paidOrder);

  // Eight clients keep ordering while the backup is taken.
  const clients = await Promise.all(Array.from({ length: 8 }, () => newMember(shop.base)));
  let ordering = true;
  const acknowledged: { orderNo: string; at: number }[] = [];
  const loops = clients.map(async (client, index) => {
    for (let n = 0; ordering; n++) {
      const placed = await placeOrder(shop.base, client, `load-${run}-${index}-${n}`);
      if (placed.status === 201) acknowledged.push({ orderNo: placed.body.data!.order_no, at: Date.now() });
    }
  });
  while (acknowledged.length < 8) await new Promise((resolve) => setTimeout(resolve, 50));
  const backupStarted = Date.now();
  acknowledgedBefore.push(...acknowledged.filter((entry) => entry.at < backupStarted).map((entry) => entry.orderNo));
  archiveFile = path.join(tempDir(), 'shop.tar.gz');
  const backup = await shopCli(['backup', '--out', archiveFile], { DATA_DIR: shopDir });
  const ordersDuring = acknowledged.length - acknowledgedBefore.length;
  ordering = false;
  await Promise.all(loops);
  expect(backup.code, backup.output).toBe(0);
  expect(backup.output).toMatch(/Backup written: .*shop\.tar\.gz/);
  expect(backup.output).toMatch(/took \d+\.\d s/);
  // Sales went on while it ran: orders were acknowledged between its start and its end.
  console.log(`backup under load: ${backup.output.split('\n').find((line) => line.includes('took'))?.trim()}; ${ordersDuring} orders placed while it ran`);
}, 240_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => stopServer(server, 'SIGKILL')));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('npm run shop -- backup', () => {
  it('holds every order acknowledged before it started, with its lines, slip and receipt, and says so in its manifest', async () => {
    const archive = await readArchive(archiveFile);
    const { manifest } = archive;
    expect(manifest.database).toBe('pglite');
    const orders = archive.tableRows('orders') as { id: string; order_no: string }[];
    const lines = archive.tableRows('order_lines') as { order_id: string }[];
    const byNo = new Map(orders.map((order) => [order.order_no, order.id]));
    for (const orderNo of [paidOrder, ...acknowledgedBefore]) {
      expect(byNo.has(orderNo), orderNo).toBe(true);
      expect(lines.some((line) => line.order_id === byNo.get(orderNo)), `${orderNo} has lines`).toBe(true);
    }
    expect((archive.tableRows('receipts') as { receipt_no: string }[]).map((row) => row.receipt_no)).toContain(paidReceipt);
    expect(manifest.files.some((file) => file.visibility === 'private' && file.key.startsWith('slips/'))).toBe(true);
    expect(manifest.files.some((file) => file.visibility === 'public' && file.key.startsWith('products/'))).toBe(true);
    expect(manifest.tables.find((table) => table.name === 'orders')?.rows).toBe(orders.length);
    expect(manifest.sequences.order_number_seq).toBeDefined();
  });
});

describe('npm run shop -- restore', () => {
  it('refuses a cut archive and a damaged one, each with its reason, and writes nothing', async () => {
    const bytes = readFileSync(archiveFile);
    const cut = path.join(tempDir(), 'cut.tar.gz');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const target = tempDir();
    const refused = await shopCli(['restore', cut], { DATA_DIR: target });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/Not restored: the archive is damaged or cut short/);

    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    const damaged = path.join(tempDir(), 'damaged.tar.gz');
    writeFileSync(damaged, flipped);
    const refusedAgain = await shopCli(['restore', damaged], { DATA_DIR: target });
    expect(refusedAgain.code).toBe(1);
    expect(refusedAgain.output).toMatch(/Not restored: .*(damaged|checksum)/);
  }, 120_000);

  it('refuses a target whose shop server is running', async () => {
    const refused = await shopCli(['restore', archiveFile], { DATA_DIR: shopDir });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('A shop server is running');
  });

  it('restores into a fresh DATA_DIR: the shop starts, members stay signed in, orders, slips and receipts are there; a second restore is refused', async () => {
    const target = tempDir();
    const restored = await shopCli(['restore', archiveFile], { DATA_DIR: target });
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/Restored .* \(pglite, migration \d+\)/);
    const again = await shopCli(['restore', archiveFile], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.output).toContain('the target is not empty');

    const server = startServer(PORT_RESTORED, { DATA_DIR: target, SEED_DEMO: 'false', MAIL_POLL_SECONDS: '0', ORDER_SWEEP_SECONDS: '0' });
    servers.push(server);
    await waitReady(server);
    // The session made on the old shop works on the restored one.
    const order = await call<{ status: string; lines?: unknown[]; items?: unknown[] }>(server.base, 'POST', '/api/order-get', { token: buyer.token, body: { no: paidOrder } });
    expect(order.status, JSON.stringify(order.body)).toBe(200);
    expect(JSON.stringify(order.body.data)).toContain('P00012');
    expect(await slipBytes(server.base, buyer, paidOrder)).toEqual(slip);
    expect(await receiptNo(server.base, buyer, paidOrder)).toBe(paidReceipt);
    const receiptPdf = await fetch(`${server.base}/order/receipt.pdf?no=${paidOrder}`, { headers: { Authorization: `Bearer ${buyer.token}` } });
    expect(receiptPdf.status).toBe(200);
    expect(Buffer.from(await receiptPdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await fetch(`${server.base}/product/P00012`)).status).toBe(200);
    await stopServer(server);
  }, 180_000);
});

describe.skipIf(!reachable)('from the embedded database to PostgreSQL', () => {
  const dbName = `shop_backup_move_${run}`;
  let url = '';
  beforeAll(async () => {
    url = await createDatabase(dbName);
  });
  afterAll(async () => {
    await dropDatabase(dbName).catch(() => {});
  });

  it('moves every table row for row; members stay signed in; the next receipt number follows without a gap', async () => {
    const uploads = tempDir();
    const moved = await shopCli(['restore', archiveFile, '--database', url], { DATA_DIR: uploads });
    expect(moved.code, moved.output).toBe(0);
    const archive = await readArchive(archiveFile);
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      for (const table of archive.manifest.tables) {
        const [row] = await sql.unsafe<{ rows: string }[]>(`select coalesce(json_agg(t), '[]'::json)::text as rows from "${table.name}" t`);
        const inPostgres = (JSON.parse(row!.rows) as unknown[]).map((value) => JSON.stringify(value)).sort();
        const inArchive = archive.tableRows(table.name).map((value) => JSON.stringify(value)).sort();
        expect(inPostgres, table.name).toEqual(inArchive);
      }
    } finally {
      await sql.end({ timeout: 5 });
    }

    const server = startServer(PORT_MOVED, { DATABASE_URL: url, DATA_DIR: uploads, SEED_DEMO: 'false', SHOP_ADMIN_EMAILS: STAFF_EMAIL, MAIL_POLL_SECONDS: '0', ORDER_SWEEP_SECONDS: '0' });
    servers.push(server);
    await waitReady(server);
    expect(await slipBytes(server.base, buyer, paidOrder)).toEqual(slip);
    // A new order paid on the moved shop takes the receipt number after the last one issued before.
    const next = (await placeOrder(server.base, buyer, `moved-${run}`)).body.data!.order_no;
    await uploadSlip(server.base, buyer, next);
    const confirmed = await call(server.base, 'POST', '/api/order-status-update', { token: staff.token, body: { no: next, action: 'confirm_payment' } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const sequenceOf = (receipt: string) => Number(/(\d+)$/.exec(receipt)?.[1]);
    expect(sequenceOf(await receiptNo(server.base, buyer, next))).toBe(sequenceOf(paidReceipt) + 1);
    await stopServer(server);
  }, 180_000);
});
