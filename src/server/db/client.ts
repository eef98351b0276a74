import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { env } from '../env.ts';
import { onShutdown } from '../lifecycle.ts';
import { log } from '../log.ts';
import * as schema from './schema.ts';

/**
 * The one place that knows which database runs: PGlite (embedded, in DATA_DIR or in memory) or a
 * PostgreSQL server from DATABASE_URL. Everything else sees a Drizzle database with the same schema.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /** Rows of a raw query, whichever driver answers. */
  rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]>;
  close(): Promise<void>;
}

/** Fixed key for the advisory lock that serialises migrations and seeding across instances. */
const MIGRATION_LOCK_KEY = 7_243_001;

export function migrationsFolder(): string {
  return path.resolve(process.env.MIGRATIONS_DIR ?? 'drizzle');
}

function resultRows<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  let releaseLock = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = takeDataDirLock(dataDir);
  }
  const client = dataDir
    ? await PGlite.create(path.join(dataDir, 'pglite'), { extensions: { pg_trgm } })
    : await PGlite.create({ extensions: { pg_trgm } });
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrate(drizzle(client), { migrationsFolder: migrationsFolder() });
  return {
    db,
    kind: 'pglite',
    rows: async <T,>(query: SQL) => resultRows<T>(await db.execute(query)),
    async close() {
      if (client.closed) return;
      // A checkpoint flushes the WAL so the data directory opens cleanly next time.
      await client.exec('CHECKPOINT');
      await client.close();
      releaseLock();
    },
  } as Database;
}

/** PGlite is single-process: refuse to open a data directory another live process holds. */
function takeDataDirLock(dataDir: string): () => void {
  const lockFile = path.join(dataDir, 'shop.pid');
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processIsAlive(pid)) {
      throw new Error(
        `The embedded database in ${dataDir} is in use by process ${pid}. Stop it, or use DATABASE_URL with a PostgreSQL server to run several instances.`,
      );
    }
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const [{ default: postgres }, { drizzle }, { migrate }] = await Promise.all([
    import('postgres'),
    import('drizzle-orm/postgres-js'),
    import('drizzle-orm/postgres-js/migrator'),
  ]);
  // Migrations run on one dedicated connection holding an advisory lock, so instances starting
  // together apply them once.
  const migrator = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrate(drizzle(migrator), { migrationsFolder: migrationsFolder() });
  } finally {
    await migrator`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => {});
    await migrator.end({ timeout: 5 });
  }
  const client = postgres(url, { max: poolSize, onnotice: () => {}, idle_timeout: 30 });
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    rows: async <T,>(query: SQL) => resultRows<T>(await db.execute(query)),
    async close() {
      await client.end({ timeout: 5 });
    },
  } as Database;
}

/** Opens a database from a URL (see env DATABASE_URL) and applies the migrations. */
export async function openDatabase(options: {
  url: string | undefined;
  dataDir: string;
  poolSize?: number;
}): Promise<Database> {
  if (options.url?.startsWith('postgres')) return openPostgres(options.url, options.poolSize ?? 10);
  if (options.url === 'memory://') return openPglite(undefined);
  return openPglite(path.resolve(options.dataDir));
}

/** Runs work under the cross-instance advisory lock (a no-op lock on single-process PGlite). */
export async function withStartupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return work();
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    return work();
  });
}

const holderKey = Symbol.for('yimlamai.database');
type Holder = Record<symbol, Promise<Database> | undefined>;

/**
 * The process database, opened on first use with the configuration, seeded with the demo catalog
 * when empty and SEED_DEMO is on, and closed by the shutdown hooks.
 */
export function database(): Promise<Database> {
  const holder = globalThis as unknown as Holder;
  holder[holderKey] ??= (async () => {
    const config = env();
    const opened = await openDatabase({
      url: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: config.DATABASE_POOL_SIZE,
    });
    onShutdown('database', () => opened.close());
    if (config.SEED_DEMO) {
      const { seedDemoIfEmpty } = await import('./seed.ts');
      await seedDemoIfEmpty(opened);
    }
    log.info('database ready', { kind: opened.kind });
    return opened;
  })();
  holder[holderKey].catch(() => {
    holder[holderKey] = undefined;
  });
  return holder[holderKey];
}

export async function getDb(): Promise<Db> {
  return (await database()).db;
}
