import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { database } from '../../src/server/db/client';
import { maintainEmbeddedDatabase, maintenanceFor } from '../../src/server/db/pglite-maintenance';

const activity = (live: number, dead: number, modifiedSinceAnalyze = 0) => ({ live, dead, modifiedSinceAnalyze });

describe('embedded database maintenance (no autovacuum in PGlite)', () => {
  it("follows autovacuum's default thresholds", () => {
    expect(maintenanceFor(activity(100_000, 20_050))).toBeNull();
    expect(maintenanceFor(activity(100_000, 20_051))).toBe('vacuum');
    expect(maintenanceFor(activity(0, 51))).toBe('vacuum');
    expect(maintenanceFor(activity(100_000, 0, 10_050))).toBeNull();
    expect(maintenanceFor(activity(100_000, 0, 10_051))).toBe('analyze');
    expect(maintenanceFor(activity(100_000, 30_000, 50_000))).toBe('vacuum');
  });

  it('vacuums a table whose rows were rewritten, analyses one that only grew, and leaves a quiet one alone', async () => {
    const opened = await database();
    if (opened.kind !== 'pglite') {
      // PostgreSQL runs its own autovacuum: the round does nothing there.
      expect(await maintainEmbeddedDatabase(opened)).toEqual([]);
      return;
    }
    await opened.rows(sql`create table maintenance_churn (id int primary key, n int not null)`);
    await opened.rows(sql`create table maintenance_growth (id int primary key)`);
    await opened.rows(sql`create table maintenance_quiet (id int primary key)`);
    try {
      await opened.rows(sql`insert into maintenance_churn select g, 0 from generate_series(1, 2000) g`);
      await opened.rows(sql`insert into maintenance_quiet select g from generate_series(1, 2000) g`);
      await maintainEmbeddedDatabase(opened);
      // Every row rewritten twice: 4,000 dead versions against 2,000 live ones.
      await opened.rows(sql`update maintenance_churn set n = n + 1`);
      await opened.rows(sql`update maintenance_churn set n = n + 1`);
      await opened.rows(sql`insert into maintenance_growth select g from generate_series(1, 500) g`);

      const runs = await maintainEmbeddedDatabase(opened);
      const byTable = new Map(runs.map((run) => [run.table, run.action]));
      expect(byTable.get('maintenance_churn')).toBe('vacuum');
      expect(byTable.get('maintenance_growth')).toBe('analyze');
      expect(byTable.has('maintenance_quiet')).toBe(false);

      await opened.rows(sql`select pg_stat_force_next_flush()`);
      const [churn] = await opened.rows<{ dead: number; vacuumed: boolean }>(
        sql`select n_dead_tup::int as dead, last_vacuum is not null as vacuumed from pg_stat_user_tables where relname = 'maintenance_churn'`,
      );
      expect(churn).toEqual({ dead: 0, vacuumed: true });
      // ANALYZE gave the planner the real row count.
      const [growth] = await opened.rows<{ tuples: number }>(sql`select reltuples::int as tuples from pg_class where relname = 'maintenance_growth'`);
      expect(growth!.tuples).toBe(500);
      // Nothing left to do right after a round.
      expect((await maintainEmbeddedDatabase(opened)).filter((run) => run.table.startsWith('maintenance_'))).toEqual([]);
    } finally {
      await opened.rows(sql`drop table maintenance_churn, maintenance_growth, maintenance_quiet`);
    }
  });
});
