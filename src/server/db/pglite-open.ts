import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { keepFileSizes } from './pglite-file-sizes.ts';
import { migrateOrExplain } from './migrations.ts';
import { usePreparedStatements } from './pglite-statements.ts';

/**
 * Opens the embedded database as the shop runs it, on whichever thread calls this (client.ts, or the
 * database's own thread in pglite-worker.ts): trigram search loaded, file sizes kept when on disk,
 * migrations applied, statements kept parsed. A database in memory may start from a snapshot: a file that
 * PGlite's `dumpDataDir` wrote (the test suites seed the demo shop once and start every file from it).
 */
export async function openPgliteInstance(pgliteDir: string | null, migrationsFolder: string, snapshot: string | null = null): Promise<PGlite> {
  const client = pgliteDir
    ? await PGlite.create(pgliteDir, { extensions: { pg_trgm } })
    : await PGlite.create({ extensions: { pg_trgm }, ...(snapshot ? { loadDataDir: new Blob([await readFile(snapshot)]) } : {}) });
  if (pgliteDir) keepFileSizes(client);
  try {
    await applyMigrations(client, migrationsFolder);
  } catch (error) {
    await client.close();
    throw error;
  }
  // Every page the embedded database reads comes from the same file cache, so a random read costs about
  // what a sequential one does: at PostgreSQL's default of 4 the planner scanned the whole products table
  // for a common word with synonyms (about 4,800 pages through its small ring buffer, 130 ms) rather
  // than reading its matches from the trigram index (13 ms) (docs/decisions/223).
  await client.exec('set random_page_cost = 1.1');
  // Statements are parsed once; those with a text pattern are planned for their values on every run,
  // the rest keep a generic plan once it is no worse (pglite-statements.ts, docs/decisions/125).
  usePreparedStatements(client);
  return client;
}

/**
 * The migrations of a folder that the database has not had, all in one transaction: a failure names
 * the migration and leaves the database as it was (migrations.ts).
 */
export async function applyMigrations(client: PGlite, migrationsFolder: string): Promise<void> {
  await migrateOrExplain(
    migrationsFolder,
    async (text) => (await client.query<Record<string, unknown>>(text)).rows,
    () => migrate(drizzle(client), { migrationsFolder }),
  );
}

/** Closes it so that the data directory opens cleanly next time: a checkpoint flushes the WAL first. */
export async function closePgliteInstance(client: PGlite): Promise<void> {
  if (client.closed) return;
  await client.exec('CHECKPOINT');
  await client.close();
}
