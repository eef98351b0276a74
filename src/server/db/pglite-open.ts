import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { keepFileSizes } from './pglite-file-sizes.ts';
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
  await migrate(drizzle(client), { migrationsFolder });
  // Statements are parsed once; those with a text pattern are planned for their values on every run,
  // the rest keep a generic plan once it is no worse (pglite-statements.ts, docs/decisions/125).
  usePreparedStatements(client);
  return client;
}

/** Closes it so that the data directory opens cleanly next time: a checkpoint flushes the WAL first. */
export async function closePgliteInstance(client: PGlite): Promise<void> {
  if (client.closed) return;
  await client.exec('CHECKPOINT');
  await client.close();
}
