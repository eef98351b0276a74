/**
 * What an operator watches (issue 34, section 3): GET /metrics behind METRICS_TOKEN, and /readyz that
 * says "not ready" while migrations run, while the database does not answer, and while the server
 * drains before it stops. The built server as a separate process; the PostgreSQL cases need the
 * server at CI_POSTGRES_URL or 127.0.0.1:5432 (a failure in CI, a skip elsewhere).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK_KEY } from '../../src/server/db/startup-lock';
import { POSTGRES_BASE, createDatabase, demoShopForFile, dropDatabase, postgresReachable, startServer, stopServer, waitReady, type ServerProcess } from '../fixtures/server-process';

const reachable = await postgresReachable();
if (!reachable && process.env.CI) throw new Error('tests/server/operations.test.ts needs a PostgreSQL server in CI: none reachable (set CI_POSTGRES_URL)');

const PORT_METRICS = 4541;
const PORT_PLAIN = 4542;
const PORT_MIGRATING = 4543;
const PORT_PROXIED = 4544;
const PROXY_PORT = 4545;
const PORT_DRAIN = 4546;
const TOKEN = 'metrics-token-for-tests-0123456789';
const run = `${process.pid}_${Date.now() % 1_000_000}`;
const dirs: string[] = [];
const servers: ServerProcess[] = [];
const databases: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-ops-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(servers.map((server) => stopServer(server, 'SIGKILL')));
  for (const name of databases) await dropDatabase(name).catch(() => {});
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Asks again until `check` is true; a guard against hanging, not a measure of time. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never: ${what}`);
}

const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

/** The value of one sample line of Prometheus text, by its name and labels as written. */
function sample(text: string, nameAndLabels: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${nameAndLabels} `));
  return line === undefined ? undefined : Number(line.slice(nameAndLabels.length + 1));
}

describe('GET /metrics', () => {
  const shop = demoShopForFile(PORT_METRICS, { METRICS_TOKEN: TOKEN });

  it('answers only with the bearer token, in Prometheus text', async () => {
    expect((await fetch(`${shop.base}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${shop.base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN.slice(0, -1)}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const right = await fetch(`${shop.base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(right.headers.get('cache-control')).toBe('no-store');
  });

  it('counts requests by route pattern, the page caches, sign-in failures, and reads the shop from the database', async () => {
    // A product page twice (rendered, then from a cache), an unknown page, a wrong password.
    for (let i = 0; i < 2; i++) expect((await fetch(`${shop.base}/product/P00001`)).status).toBe(200);
    expect((await fetch(`${shop.base}/no-such-page-${run}`)).status).toBe(404);
    const login = await fetch(`${shop.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: shop.base },
      body: JSON.stringify({ login: `nobody-${run}@example.com`, password: 'ไม่ใช่รหัสนี้แน่นอน' }),
    });
    expect(login.status).toBe(401);

    const text = await (await fetch(`${shop.base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    // By the route's pattern, never by the path a visitor typed (bounded label values).
    expect(sample(text, 'shop_http_request_duration_seconds_count{route="/product/[code]",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(`no-such-page-${run}`);
    expect(sample(text, 'shop_http_request_duration_seconds_count{route="/api/auth/login",method="POST",status="401"}')).toBe(1);
    const cacheAnswers = ['finished', 'route'].flatMap((cache) => ['hit', 'miss'].map((result) => sample(text, `shop_page_cache_requests_total{cache="${cache}",result="${result}"}`) ?? 0));
    expect(cacheAnswers.reduce((sum, value) => sum + value, 0)).toBeGreaterThanOrEqual(2);
    expect((sample(text, 'shop_page_cache_requests_total{cache="finished",result="hit"}') ?? 0) + (sample(text, 'shop_page_cache_requests_total{cache="route",result="hit"}') ?? 0)).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'shop_auth_events_total{event="login_failed"}')).toBe(1);
    expect(sample(text, 'shop_auth_events_total{event="second_step_locked"}')).toBe(0);
    // The demo shop's orders and mails, read when scraped.
    expect(sample(text, 'shop_orders{status="pending_payment"}')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'shop_mail_outbox{status="failed"}')).toBe(0);
    expect(sample(text, 'shop_mail_outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'shop_slip_checks{result="warning"}')).toBe(0);
    expect(sample(text, 'shop_database_ping_seconds')).toBeGreaterThan(0);
    // prom-client's defaults: the event loop's delay and memory.
    expect(sample(text, 'shop_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'shop_process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  const shop = demoShopForFile(PORT_PLAIN);

  it('is the shop’s not-found page', async () => {
    const response = await fetch(`${shop.base}/metrics`, { headers: { Authorization: 'Bearer anything-at-all-here' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
  });
});

describe('/readyz', () => {
  it('says "starting" while another instance holds the migration lock, and serves once migrations ran', { skip: !reachable, timeout: 120_000 }, async () => {
    const name = `shop_ops_migrating_${run}`;
    databases.push(name);
    const url = await createDatabase(name);
    // Another instance migrating: the lock every instance takes before it migrates.
    const other = postgres(url, { max: 1, onnotice: () => {} });
    await other`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    const server = startServer(PORT_MIGRATING, { DATABASE_URL: url, DATA_DIR: dataDir(), SEED_DEMO: 'true', MAIL_POLL_SECONDS: '0', ORDER_SWEEP_SECONDS: '0' });
    servers.push(server);
    try {
      await eventually(async () => (await fetch(`${server.base}/healthz`)).ok, 'the server listens');
      const ready = await fetch(`${server.base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await json(ready)).toEqual({ status: 'starting', waitingFor: 'database' });
      const page = await fetch(`${server.base}/`);
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('5');
      expect(await page.text()).toContain('ร้านกำลังเริ่มทำงาน');
    } finally {
      await other`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
      await other.end({ timeout: 5 });
    }
    await waitReady(server);
    expect(await json(await fetch(`${server.base}/readyz`))).toEqual({ status: 'ready', database: 'postgres' });
    expect((await fetch(`${server.base}/`)).status).toBe(200);
  });

  it('says "unavailable" while the database does not answer, and ready again when it does', { skip: !reachable, timeout: 120_000 }, async () => {
    const name = `shop_ops_proxied_${run}`;
    databases.push(name);
    await createDatabase(name);
    // A TCP relay to PostgreSQL that the test can hold: bytes stop flowing, connections stay open,
    // as with a database server that hangs or a network that drops packets.
    const target = new URL(POSTGRES_BASE);
    let held = false;
    const waiting: Array<() => void> = [];
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      const pass = (from: net.Socket, to: net.Socket) =>
        from.on('data', (chunk) => {
          if (!held) return void to.write(chunk);
          from.pause();
          waiting.push(() => {
            to.write(chunk);
            from.resume();
          });
        });
      pass(client, upstream);
      pass(upstream, client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(PROXY_PORT, '127.0.0.1', resolve));
    try {
      const credentials = target.username ? `${target.username}${target.password ? `:${target.password}` : ''}@` : '';
      const server = startServer(PORT_PROXIED, {
        DATABASE_URL: `postgres://${credentials}127.0.0.1:${PROXY_PORT}/${name}`,
        DATA_DIR: dataDir(),
        SEED_DEMO: 'false',
        MAIL_POLL_SECONDS: '0',
        ORDER_SWEEP_SECONDS: '0',
      });
      servers.push(server);
      await waitReady(server);

      held = true;
      const notAnswering = await fetch(`${server.base}/readyz`);
      expect(notAnswering.status).toBe(503);
      expect(await json(notAnswering)).toEqual({ status: 'unavailable', reason: 'database not answering' });
      // Alive all the same: a liveness probe must not restart a server whose database is away.
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);

      held = false;
      for (const resume of waiting.splice(0)) resume();
      await waitReady(server);
      await stopServer(server);
    } finally {
      held = false;
      for (const resume of waiting.splice(0)) resume();
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it('says "draining" after SIGTERM for SHUTDOWN_DRAIN_MS while pages are still served, then the server stops', { timeout: 120_000 }, async () => {
    const server = startServer(PORT_DRAIN, {
      DATABASE_URL: 'memory://',
      DATA_DIR: dataDir(),
      SEED_DEMO: 'true',
      MAIL_POLL_SECONDS: '0',
      ORDER_SWEEP_SECONDS: '0',
      // Long enough for the requests below on a loaded machine; the test waits for the exit anyway.
      SHUTDOWN_DRAIN_MS: '8000',
      LOG_LEVEL: 'info',
    });
    servers.push(server);
    await waitReady(server);
    server.child.kill('SIGTERM');
    await eventually(async () => (await fetch(`${server.base}/readyz`)).status === 503, '/readyz turns 503');
    const draining = await fetch(`${server.base}/readyz`);
    expect(await json(draining)).toEqual({ status: 'draining' });
    expect((await fetch(`${server.base}/product/P00002`)).status).toBe(200);
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    expect(await server.exited).toBe(0);
    // In that order: draining, then shutting down.
    const messages = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { message: string }).message);
    expect(messages.indexOf('draining')).toBeGreaterThanOrEqual(0);
    expect(messages.indexOf('shutting down')).toBeGreaterThan(messages.indexOf('draining'));
  });
});
