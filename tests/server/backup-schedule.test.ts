/**
 * Scheduled rolling backups as the server runs them (BACKUP_EVERY_HOURS, BACKUP_KEEP; decision 207):
 * a server on the embedded database with a period of seconds writes archives, keeps only the newest,
 * reports them in /metrics, stops on SIGTERM, and `restore` accepts what it kept; two servers on one
 * PostgreSQL database sharing a DATA_DIR make one archive per period between them. The rules themselves
 * (due or not, which archives go) are tests/unit/backup-schedule.test.ts, with a clock instead of waits.
 * The PostgreSQL part needs the server at CI_POSTGRES_URL or 127.0.0.1:5432 (a failure in CI, a skip elsewhere).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readArchive } from '../../src/server/backup/archive';
import { periodMs, scheduledArchives } from '../../src/server/backup/schedule-rules';
import { createDatabase, dropDatabase, postgresReachable, startServer, stopServer, waitReady, type ServerProcess } from '../fixtures/server-process';

const reachable = await postgresReachable();
if (!reachable && process.env.CI) throw new Error('tests/server/backup-schedule.test.ts needs a PostgreSQL server in CI: none reachable (set CI_POSTGRES_URL)');

const PORT_EMBEDDED = 4870;
const PORT_A = 4871;
const PORT_B = 4872;
const TOKEN = 'backup-metrics-token-0123456789';
const root = path.resolve(import.meta.dirname, '../..');
const run = `${process.pid}_${Date.now() % 1_000_000}`;
const dirs: string[] = [];
const servers: ServerProcess[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-backup-schedule-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(servers.map((server) => stopServer(server, 'SIGKILL')));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const quiet = { SEED_DEMO: 'false', MAIL_POLL_SECONDS: '0', ORDER_SWEEP_SECONDS: '0', LOG_LEVEL: 'info' };

function start(port: number, env: Record<string, string>): ServerProcess {
  const server = startServer(port, { ...quiet, ...env });
  servers.push(server);
  return server;
}

const written = (server: ServerProcess) => server.output().split('\n').filter((line) => line.includes('"scheduled backup written"'));

/** Polls (no fixed sleep) until `done` holds, failing with the servers' output after `ms`. */
async function until(done: () => boolean, ms: number, ...watched: ServerProcess[]): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out; output:\n${watched.map((server) => server.output().slice(-3000)).join('\n---\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function restoreCli(file: string, dataDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/shop.ts', 'restore', file], { cwd: root, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATA_DIR: dataDir } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the backup schedule on the embedded database', () => {
  it('writes archives every period, keeps BACKUP_KEEP, reports them in /metrics, stops on SIGTERM, and restore accepts the one kept', async () => {
    const dataDir = tempDir();
    const startedAt = Date.now();
    // 0.001 hours: an archive every 3.6 s.
    const server = start(PORT_EMBEDDED, { DATA_DIR: dataDir, BACKUP_EVERY_HOURS: '0.001', BACKUP_KEEP: '1', METRICS_TOKEN: TOKEN });
    await waitReady(server);
    await until(() => written(server).length >= 1, 60_000, server);
    // A member who signs up now is in every later archive.
    const email = `scheduled-${run}@example.com`;
    const password = 'สำรองข้อมูลตามเวลา';
    const registered = await fetch(`${server.base}/api/member-insert/`, {
      method: 'POST',
      headers: { Origin: server.base, 'Content-Type': 'application/json' },
      body: JSON.stringify({ firstName: 'ตาม', lastName: 'เวลา', email, phone: '0891234567', password, confirmPassword: password, acceptTerms: true }),
    });
    expect(registered.status, await registered.clone().text()).toBe(201);
    const before = written(server).length;
    await until(() => written(server).length >= before + 1, 60_000, server);

    const metrics = await (await fetch(`${server.base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    const lastSuccess = Number(/^shop_backup_last_success_timestamp_seconds (\S+)$/m.exec(metrics)?.[1]);
    expect(lastSuccess * 1000).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(metrics).toMatch(/^shop_backup_failures_total 0$/m);
    expect(Number(/^shop_backup_last_duration_seconds (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('closed backup schedule');
    // Only the newest is kept, whole (no `.part` left), and each run deleted the one before it.
    const names = readdirSync(path.join(dataDir, 'backups'));
    const kept = scheduledArchives(names);
    expect(kept, names.join(', ')).toHaveLength(1);
    expect(names).toEqual([kept[0]!.name]);
    expect(written(server).at(-1)).toContain(kept[0]!.name);
    expect(written(server).at(-1)).toMatch(/"deleted":\["scheduled-[^"]+"\]/);

    const file = path.join(dataDir, 'backups', kept[0]!.name);
    const archive = await readArchive(file);
    expect((archive.tableRows('members') as { email: string }[]).map((member) => member.email)).toContain(email);
    const restored = await restoreCli(file, tempDir());
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/Restored .* \(pglite, migration \d+\)/);
  }, 180_000);
});

describe.skipIf(!reachable)('the backup schedule on several instances', () => {
  const dbName = `shop_backup_schedule_${run}`;
  afterAll(async () => {
    await dropDatabase(dbName).catch(() => {});
  });

  it('two servers on one PostgreSQL database and one DATA_DIR make one archive per period between them', async () => {
    const url = await createDatabase(dbName);
    const dataDir = tempDir();
    // 0.0015 hours: a period of 5.4 s. Both start together and race for every archive.
    const everyHours = 0.0015;
    const env = { DATABASE_URL: url, DATA_DIR: dataDir, BACKUP_EVERY_HOURS: String(everyHours), BACKUP_KEEP: '10' };
    const a = start(PORT_A, env);
    const b = start(PORT_B, env);
    await Promise.all([waitReady(a), waitReady(b)]);
    const archives = () => scheduledArchives(readdirSync(path.join(dataDir, 'backups')));
    await until(() => written(a).length + written(b).length >= 3, 90_000, a, b);
    await Promise.all([stopServer(a), stopServer(b)]);

    const kept = archives().reverse();
    // Every run that wrote is there (none overwrote another), and no two are less than a period apart.
    expect(kept.length).toBe(written(a).length + written(b).length);
    for (let i = 1; i < kept.length; i++) {
      expect(kept[i]!.at.getTime() - kept[i - 1]!.at.getTime(), kept.map((archive) => archive.name).join(', ')).toBeGreaterThanOrEqual(periodMs(everyHours));
    }
  }, 180_000);
});
