import { sql } from 'drizzle-orm';
import type { Database } from './database.ts';
import { errorFields, log } from '../log.ts';
import { onShutdown } from '../lifecycle.ts';

/**
 * The embedded database has no autovacuum: PGlite is one backend, with no launcher to start the
 * workers. Every order, stock count, cart and session rewrites rows, and without VACUUM the dead row
 * versions stay. Tables and indexes grow, the visibility map is never set so index-only scans read
 * the table as well, and without ANALYZE the planner keeps the row counts of the seed. The server that
 * owns the embedded database does autovacuum's job on a timer, with autovacuum's own default
 * thresholds (docs/decisions/164). PostgreSQL servers run their own autovacuum; this is not used there.
 */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE_FACTOR = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;
export const MAINTENANCE_EVERY_MS = 10 * 60_000;

export type TableActivity = {
  live: number;
  dead: number;
  modifiedSinceAnalyze: number;
};

export type Maintenance = 'vacuum' | 'analyze';

/** What autovacuum would do to this table now: VACUUM (with ANALYZE), ANALYZE alone, or nothing. */
export function maintenanceFor(activity: TableActivity): Maintenance | null {
  if (activity.dead > VACUUM_THRESHOLD + VACUUM_SCALE_FACTOR * activity.live) return 'vacuum';
  if (activity.modifiedSinceAnalyze > ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * activity.live) return 'analyze';
  return null;
}

export interface MaintenanceRun {
  schema: string;
  table: string;
  action: Maintenance;
  ms: number;
}

/**
 * One round: the statistics are flushed first (a single backend only sends its counts now and then),
 * then each table that needs it is vacuumed or analysed, one at a time. Each statement holds the
 * database thread while it runs, as any statement does: on 100,000 products, with a quarter of them
 * rewritten, `vacuum (analyze) products` took 2.6 s; a round with nothing to do takes a few ms.
 */
export async function maintainEmbeddedDatabase(database: Database): Promise<MaintenanceRun[]> {
  if (database.kind !== 'pglite') return [];
  await database.rows(sql`select pg_stat_force_next_flush()`);
  const tables = await database.rows<TableActivity & { schema: string; table: string }>(sql`
    select schemaname as schema, relname as table, n_live_tup::int as live, n_dead_tup::int as dead,
           n_mod_since_analyze::int as "modifiedSinceAnalyze"
    from pg_stat_user_tables
    order by n_dead_tup desc`);
  const runs: MaintenanceRun[] = [];
  for (const row of tables) {
    const action = maintenanceFor(row);
    if (!action) continue;
    const target = sql`${sql.identifier(row.schema)}.${sql.identifier(row.table)}`;
    const started = performance.now();
    await database.rows(action === 'vacuum' ? sql`vacuum (analyze) ${target}` : sql`analyze ${target}`);
    runs.push({ schema: row.schema, table: row.table, action, ms: Math.round(performance.now() - started) });
  }
  return runs;
}

/** Starts the rounds in this process (the one that opened the embedded database); stopped at shutdown. */
export function startEmbeddedMaintenance(database: Database, everyMs = MAINTENANCE_EVERY_MS): void {
  if (database.kind !== 'pglite') return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    maintainEmbeddedDatabase(database)
      .then((runs) => {
        if (runs.length > 0) log.info('embedded database maintained', { tables: runs });
      })
      .catch((error: unknown) => log.warn('embedded database maintenance failed', errorFields(error)))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  onShutdown('embedded database maintenance', () => clearInterval(timer));
}
