import { sql } from 'drizzle-orm';
import type { Database } from './database.ts';

/** Fixed key for the advisory lock that serialises migrations and seeding across instances. */
export const MIGRATION_LOCK_KEY = 7_243_001;

/** Runs work under the cross-instance advisory lock (a no-op lock on single-process PGlite). */
export async function withStartupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return work();
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    return work();
  });
}
