/**
 * GET /metrics for the operator (docs/design.md section 13, "Running it" in README.md): Prometheus text
 * through prom-client. Answered only when METRICS_TOKEN is set, and then only to
 * `Authorization: Bearer <METRICS_TOKEN>`; without the setting the path is the shop's 404.
 *
 * What this process saw (requests, page caches, login refusals) is counted here as it happens; what the
 * whole shop holds (orders by status, slip checks, the mail outbox) is read from the database when
 * scraped, so every instance reports the same shop-wide figures and a restart loses none of them.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sql, type SQL } from 'drizzle-orm';
import { countedEvents, type CountedEvent } from '../src/server/metrics/counted-events.ts';
import { backupScheduleStatus } from '../src/server/backup/schedule-status.ts';
import { ORDER_STATUSES } from '../src/lib/orders.ts';
import type { SlipCheckStatus } from '../src/server/db/schema.ts';

/** What a request was, for its labels: the route pattern Astro matched, or what answered before Astro. */
export type RequestRoute = { route: string };

export interface ShopMetrics {
  /** Answers GET /metrics when it is that request; false when it is another path. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** Counts one finished request. `astroCache` is Astro's X-Astro-Cache header (HIT or MISS) when it had one. */
  observe(route: string, method: string, status: number, seconds: number, astroCache: string | undefined): void;
  /** Counts one answer of the finished page cache in front of Astro, or one miss that went on to Astro. */
  finishedPage(hit: boolean): void;
}

const EVENT_HELP: Record<CountedEvent, string> = {
  login_failed: 'wrong password or unknown account',
  login_refused: 'refused before the password was checked (too many failures)',
  second_step_failed: 'wrong two-step code',
  second_step_locked: 'two-step lock started (account or address)',
};

/** Reads rows from the shop's database (the one the server opened). */
export type ReadRows = (query: SQL) => Promise<Record<string, unknown>[]>;

/** The shop's metrics on a registry of their own; `readRows` reads the database when scraped. */
export function shopMetrics(token: string | undefined, readRows: ReadRows): ShopMetrics {
  const register = new Registry();
  // Event loop delay (nodejs_eventloop_lag_*), memory, handles, GC: prom-client's defaults.
  collectDefaultMetrics({ register, prefix: 'shop_' });

  const requests = new Histogram({
    name: 'shop_http_request_duration_seconds',
    help: 'Requests by route pattern, method and status, with their time to the last byte',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register],
  });
  const pageCache = new Counter({
    name: 'shop_page_cache_requests_total',
    help: "Page cache answers: 'finished' is the cache of compressed pages in front of Astro, 'route' Astro's route cache",
    labelNames: ['cache', 'result'] as const,
    registers: [register],
  });
  const seenEvents = new Map<CountedEvent, number>();
  new Counter({
    name: 'shop_auth_events_total',
    help: `Sign-in events in this process: ${Object.entries(EVENT_HELP).map(([event, help]) => `${event} = ${help}`).join('; ')}`,
    labelNames: ['event'] as const,
    registers: [register],
    collect() {
      for (const event of Object.keys(EVENT_HELP) as CountedEvent[]) {
        const now = countedEvents().get(event) ?? 0;
        this.inc({ event }, now - (seenEvents.get(event) ?? 0));
        seenEvents.set(event, now);
      }
    },
  });

  // Scheduled backups (BACKUP_EVERY_HOURS, decision 207): alert when the newest is older than two periods.
  new Gauge({
    name: 'shop_backup_last_success_timestamp_seconds',
    help: 'Unix time of the newest scheduled backup this instance wrote or saw in the store (0: none yet, or the schedule is off)',
    registers: [register],
    collect() {
      this.set(backupScheduleStatus().lastSuccessSeconds);
    },
  });
  new Gauge({
    name: 'shop_backup_last_duration_seconds',
    help: 'How long the last scheduled backup this instance wrote took (0: none yet)',
    registers: [register],
    collect() {
      this.set(backupScheduleStatus().lastDurationSeconds);
    },
  });
  let seenBackupFailures = 0;
  new Counter({
    name: 'shop_backup_failures_total',
    help: 'Scheduled backups that failed in this instance (the archives already kept stay)',
    registers: [register],
    collect() {
      const now = backupScheduleStatus().failures;
      this.inc(now - seenBackupFailures);
      seenBackupFailures = now;
    },
  });

  const read = async <T,>(query: SQL) => (await readRows(query)) as T[];
  new Gauge({
    name: 'shop_database_ping_seconds',
    help: 'Time for `select 1` when scraped: rises when the pool (PostgreSQL) or the embedded database thread queues work',
    registers: [register],
    async collect() {
      const started = process.hrtime.bigint();
      await read(sql`select 1 as ok`);
      this.set(Number(process.hrtime.bigint() - started) / 1e9);
    },
  });
  new Gauge({
    name: 'shop_orders',
    help: 'Orders in the shop by status (placed = all of them; a rise in expired or cancelled is worth a look)',
    labelNames: ['status'] as const,
    registers: [register],
    async collect() {
      this.reset();
      // Every status has a sample, 0 included, so an alert on one never reads "no data".
      for (const status of ORDER_STATUSES) this.set({ status }, 0);
      for (const row of await read<{ status: string; n: number }>(sql`select status, count(*)::int as n from orders group by status`)) {
        this.set({ status: row.status }, Number(row.n));
      }
    },
  });
  new Gauge({
    name: 'shop_slip_checks',
    help: "What the QR of each order's current slip said: verified, warning (amount, account or reference did not match) or no_qr",
    labelNames: ['result'] as const,
    registers: [register],
    async collect() {
      this.reset();
      for (const result of ['verified', 'warning', 'no_qr'] satisfies SlipCheckStatus[]) this.set({ result }, 0);
      for (const row of await read<{ status: string; n: number }>(sql`select status, count(*)::int as n from order_slip_checks group by status`)) {
        this.set({ result: row.status }, Number(row.n));
      }
    },
  });
  new Gauge({
    name: 'shop_mail_outbox',
    help: 'Mails in the outbox by status: pending (waiting or retrying) and failed (gave up; shown in the back office)',
    labelNames: ['status'] as const,
    registers: [register],
    async collect() {
      this.reset();
      this.set({ status: 'pending' }, 0);
      this.set({ status: 'failed' }, 0);
      for (const row of await read<{ status: string; n: number }>(sql`select status, count(*)::int as n from mail_outbox where status <> 'sent' group by status`)) {
        this.set({ status: row.status }, Number(row.n));
      }
    },
  });
  new Gauge({
    name: 'shop_mail_outbox_oldest_pending_seconds',
    help: 'Age of the oldest mail not sent yet (0 when none waits)',
    registers: [register],
    async collect() {
      const [row] = await read<{ age: number | null }>(
        sql`select extract(epoch from now() - min(created_at))::float8 as age from mail_outbox where status = 'pending'`,
      );
      this.set(Math.max(0, Number(row?.age ?? 0)));
    },
  });

  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  return {
    serve(req, res) {
      if ((req.url ?? '').split('?')[0] !== '/metrics' || !expected) return false;
      const given = Buffer.from(String(req.headers.authorization ?? ''));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8', 'WWW-Authenticate': 'Bearer', 'Cache-Control': 'no-store' });
        res.end('ต้องส่ง Authorization: Bearer <METRICS_TOKEN>\n');
        return true;
      }
      register.metrics().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': register.contentType, 'Cache-Control': 'no-store' });
          res.end(text);
        },
        (error: unknown) => {
          res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
          res.end(`metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`);
        },
      );
      return true;
    },
    observe(route, method, status, seconds, astroCache) {
      requests.observe({ route, method, status: String(status) }, seconds);
      if (astroCache === 'HIT' || astroCache === 'MISS') pageCache.inc({ cache: 'route', result: astroCache.toLowerCase() });
    },
    finishedPage(hit) {
      pageCache.inc({ cache: 'finished', result: hit ? 'hit' : 'miss' });
    },
  };
}
