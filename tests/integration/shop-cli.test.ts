import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb, openDatabase } from '../../src/server/db/client';
import { auditLog, mailOutbox, members, orders } from '../../src/server/db/schema';
import { runOperatorCommand } from '../../src/server/operator/commands';
import { startOperatorSocket } from '../../src/server/operator/socket';
import { uploadSlip, type OrderMember } from '../../src/server/orders/order.service';
import { createMember, productWithStock, placeTestOrder } from '../fixtures/orders';
import { smallSlip } from '../fixtures/slips';

const root = path.resolve(import.meta.dirname, '../..');
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const PNG = await smallSlip();

/** Runs `npm run shop -- …` as an operator would: a separate process with the server's configuration. */
function shop(env: Record<string, string>, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/shop.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('operator CLI while the shop runs', () => {
  // This process plays the running server: it holds the database (in-memory PGlite, or PostgreSQL in CI)
  // and, as runtime/main.ts does on the embedded database, answers the operator socket in DATA_DIR.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-cli-running-'));
  const cliEnv = onPostgres ? { DATABASE_URL: process.env.TEST_DATABASE_URL!, DATA_DIR: dataDir } : { DATABASE_URL: 'memory://', DATA_DIR: dataDir };
  let socket: Awaited<ReturnType<typeof startOperatorSocket>> | undefined;

  beforeAll(async () => {
    await getDb();
    if (!onPostgres) socket = await startOperatorSocket(dataDir, runOperatorCommand);
  });
  afterAll(async () => {
    await socket?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('grants a role, with its audit row, without stopping the server', async () => {
    const member = await createMember();
    const granted = await shop(cliEnv, 'grant', 'owner', member.email.toUpperCase());
    expect(granted.stderr).toBe('');
    expect(granted.status).toBe(0);
    expect(granted.stdout).toContain('role owner');
    const db = await getDb();
    const [row] = await db.select({ scopes: members.scopes }).from(members).where(eq(members.id, member.id));
    expect(row!.scopes).toEqual(['owner']);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, member.id), eq(auditLog.action, 'staff.grant')));
    expect(audit).toMatchObject({ via: 'cli', entityType: 'member', before: { role: null }, after: { role: 'owner' } });

    // A new role replaces the old one; revoke takes it away.
    expect((await shop(cliEnv, 'grant', 'editor', member.email)).stdout).toContain('role editor');
    const revoked = await shop(cliEnv, 'revoke', member.email);
    expect(revoked.stdout).toContain('role none');
    const [after] = await db.select({ scopes: members.scopes }).from(members).where(eq(members.id, member.id));
    expect(after!.scopes).toEqual([]);
  });

  it('confirms a payment through the running server', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 1 }]);
    await uploadSlip(member as OrderMember, order.orderNo, PNG);
    const confirmed = await shop(cliEnv, 'confirm-payment', order.orderNo.toLowerCase());
    expect(confirmed.stderr).toBe('');
    expect(confirmed.stdout).toContain(`${order.orderNo}  paid`);
    const [row] = await (await getDb()).select({ status: orders.status }).from(orders).where(eq(orders.orderNo, order.orderNo));
    expect(row!.status).toBe('paid');
  });

  it('answers mistakes with the usage or the shop’s Thai message', async () => {
    const unknown = await shop(cliEnv, 'show', 'YL00000000001');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('ไม่พบคำสั่งซื้อนี้');
    const noRole = await shop(cliEnv, 'grant', 'boss', 'someone@example.test');
    expect(noRole.status).toBe(2);
    expect(noRole.stderr).toContain('grant needs a role');
    const auditRows = async () => (await (await getDb()).select({ id: auditLog.id }).from(auditLog)).length;
    const before = await auditRows();
    const nobody = await shop(cliEnv, 'grant', 'staff', 'nobody@example.test');
    expect(nobody.status).toBe(1);
    expect(nobody.stderr).toContain('No member with the email');
    expect(await auditRows()).toBe(before);
    const usage = await shop(cliEnv, 'fly');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run shop');
  });
  it('lists failed mails and resends one; the mail goes out before the command ends', async () => {
    const [mail] = await (await getDb())
      .insert(mailOutbox)
      .values({ kind: 'password_reset', toAddress: 'lost@example.com', payload: { name: 'สมใจ', link: 'http://localhost:4321/resetpassword?token=abc' }, status: 'failed', attempts: 8, lastError: '451 try later' })
      .returning({ id: mailOutbox.id });
    const failed = await shop(cliEnv, 'mail-failed');
    expect(failed.status).toBe(0);
    expect(failed.stdout).toMatch(new RegExp(`${mail!.id}\\s+failed\\s+password_reset\\s+tries 8`));
    expect(failed.stdout).toContain('last error: 451 try later');

    const resent = await shop(cliEnv, 'mail-resend', String(mail!.id));
    expect(resent.stderr).toBe('');
    expect(resent.stdout).toContain(`Mail ${mail!.id} to lost@example.com is due again.`);
    // The command waits for the attempt, whichever worker makes it (its own, or a running server's).
    expect(resent.stdout).toContain(`Mail ${mail!.id} sent.`);
    const [row] = await (await getDb()).select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, mail!.id));
    expect(row!.status).toBe('sent');
    expect((await shop(cliEnv, 'mail-failed')).stdout).not.toMatch(new RegExp(`^\\s*${mail!.id}\\s`, 'm'));
    expect((await shop(cliEnv, 'mail-list', '--status', 'sent')).stdout).toMatch(new RegExp(`${mail!.id}\\s+sent`));
    const again = await shop(cliEnv, 'mail-resend', String(mail!.id));
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('ลิงก์ตั้งรหัสผ่านใหม่ส่งไปแล้ว');
    expect((await shop(cliEnv, 'mail-resend', 'x')).stderr).toContain('mail-resend needs a mail id');
  });
});

describe.skipIf(onPostgres)('operator CLI on an embedded database nobody serves', () => {
  it('opens it itself when no server holds it, and says so clearly when one holds it without answering', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-cli-'));
    try {
      const env = { DATABASE_URL: '', DATA_DIR: dataDir };
      const held = await openDatabase({ url: undefined, dataDir });
      await held.db.insert(members).values({ firstName: 'เจ้าของ', lastName: 'ร้าน', email: 'Owner@Yimlamai.shop', phone: '0899999999', passwordHash: 'x' });
      const refused = await shop(env, 'list');
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('operator socket did not answer');
      await held.close();

      const granted = await shop(env, 'grant-admin', 'owner@yimlamai.shop');
      expect(granted.stderr).toBe('');
      expect(granted.stdout).toContain('role staff');
      expect((await shop(env, 'list')).stdout).toContain('No orders.');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // A new embedded database migrated from nothing, then the CLI started three times, each loading the
    // database engine: far more than the suite's default minute on a busy 2-core machine.
  }, 180_000);
});
