import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The shop's migrations as they run at start (client.ts on PostgreSQL, pglite-open.ts on the embedded
 * database): Drizzle's migrator applies every migration the database has not had, all of them in ONE
 * transaction, and records each in `drizzle.__drizzle_migrations`. So a migration that fails leaves
 * the database exactly as it was: no table, row or journal entry of that start's migrations stays
 * (tests/integration/migrations.test.ts proves it on both databases). What this module adds is the
 * reason an operator can act on: which migration failed, why, and where the database still is
 * (docs/operations.md "Upgrading", docs/decisions/208).
 */

/** One entry of drizzle/meta/_journal.json: the migration's file name without `.sql`, and its time. */
export interface MigrationEntry {
  tag: string;
  when: number;
}

/** The migrations of a folder, in the order they run. */
export function migrationJournal(folder: string): MigrationEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: MigrationEntry[] };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/** The SQL of one migration as written. */
export function migrationSql(folder: string, tag: string): string {
  return readFileSync(path.join(folder, `${tag}.sql`), 'utf8');
}

/** Start-up stopped by a migration: the message is the whole story, on one line. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Runs a query on the connection that migrates: its rows, whichever driver. */
export type MigrationQuery = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * The `when` of the last migration the database recorded, or null when it has none (Drizzle decides
 * what to run by this time: every migration of the folder with a later one).
 */
export async function lastAppliedMigration(query: MigrationQuery): Promise<number | null> {
  const [table] = await query(`select to_regclass('drizzle.__drizzle_migrations')::text as name`);
  if (!table?.name) return null;
  const [row] = await query('select max(created_at)::text as last from drizzle.__drizzle_migrations');
  return row?.last == null ? null : Number(row.last);
}

/**
 * Runs the migrator; if it fails, throws a MigrationError naming the migration that failed, the
 * database's own reason, and the migration the database is still at.
 */
export async function migrateOrExplain(folder: string, query: MigrationQuery, migrate: () => Promise<void>): Promise<void> {
  try {
    await migrate();
  } catch (error) {
    throw await explainMigrationFailure(error, folder, query);
  }
}

export async function explainMigrationFailure(error: unknown, folder: string, query: MigrationQuery): Promise<MigrationError> {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const code = (cause as { code?: unknown } | null)?.code;
  const reason = `${cause instanceof Error ? cause.message : String(cause)}${typeof code === 'string' ? ` (${code})` : ''}`;
  let entries: MigrationEntry[];
  let last: number | null;
  try {
    entries = migrationJournal(folder);
    last = await lastAppliedMigration(query);
  } catch {
    return new MigrationError(`the migrations in ${folder} could not be applied: ${reason}`, { cause: error });
  }
  const applied = entries.filter((entry) => last !== null && entry.when <= last);
  const pending = entries.filter((entry) => last === null || entry.when > last);
  const at = applied.at(-1)?.tag ?? 'no migration yet (an empty database)';
  const failedQuery = (error as { query?: unknown } | null)?.query;
  const failing = typeof failedQuery === 'string' ? pending.find((entry) => migrationSql(folder, entry.tag).includes(failedQuery.trim())) : undefined;
  // Not one of the migrations' statements (creating Drizzle's journal, the commit): still nothing applied.
  if (!failing) return new MigrationError(`the migrations were not applied: ${reason}; the database is at ${at}`, { cause: error });
  const together = pending.length === 1 ? 'it was the only one waiting' : `the ${pending.length} waiting (${pending[0]?.tag} to ${pending.at(-1)?.tag}) ran in one transaction`;
  return new MigrationError(
    `migration ${failing.tag} failed: ${reason}. Nothing was applied (${together}, rolled back): the database is still at ${at}. Fix the migration, or start the previous release.`,
    { cause: error },
  );
}
