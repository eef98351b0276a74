import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { env } from '../env.ts';
import { onShutdown } from '../lifecycle.ts';
import { log } from '../log.ts';
import type { Database, Db } from './database.ts';
import * as schema from './schema.ts';
import { plannedPerValue } from './plan-per-value.ts';
import { postgresTarget } from './postgres-url.ts';
import { MIGRATION_LOCK_KEY } from './startup-lock.ts';
import { migrateOrExplain } from './migrations.ts';

/**
 * The one place that knows which database runs: PGlite (embedded, in DATA_DIR or in memory) or a
 * PostgreSQL server from DATABASE_URL. Everything else sees a Drizzle database with the same schema
 * (types in database.ts, re-exported here).
 */
export type { Database, DatabaseKind, Db, DbOrTx, Tx } from './database.ts';
export { withStartupLock } from './startup-lock.ts';

export function migrationsFolder(): string {
  return path.resolve(process.env.MIGRATIONS_DIR ?? 'drizzle');
}

type QueryObserver = (query: string, params: unknown[]) => void;
let queryObserver: QueryObserver | null = null;

/**
 * Sees every query Drizzle sends (text and parameters), for the profiling script
 * (bench/explain-catalog.mjs runs EXPLAIN ANALYZE on what a page really sends). Null: off, one check
 * per query.
 */
export function observeQueries(observer: QueryObserver | null): void {
  queryObserver = observer;
}

const logger = {
  logQuery(query: string, params: unknown[]) {
    queryObserver?.(query, params);
  },
};

/** Rows of a raw `execute`, whichever driver answered (postgres.js gives an array, PGlite `{ rows }`). */
export function resultRows<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

async function openPglite(dataDir: string | undefined, onThread: boolean, snapshot: string | null = null): Promise<Database> {
  let releaseLock = () => {};
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = takeDataDirLock(dataDir);
  }
  try {
    const pgliteDir = dataDir ? path.join(dataDir, 'pglite') : null;
    const { client, close } = (onThread ? await openPgliteOnThread(pgliteDir, snapshot) : null) ?? (await openPgliteHere(pgliteDir, snapshot));
    const { drizzle } = await import('drizzle-orm/pglite');
    // The thread's client is not a PGlite instance, but it answers every call Drizzle's session makes.
    const db = drizzle(client as unknown as PGlite, { schema, logger }) as unknown as Db;
    return {
      db,
      kind: 'pglite',
      rows: async <T,>(query: SQL) => resultRows<T>(await db.execute(query)),
      async subscribe(channel: string, onMessage: (payload: string) => void) {
        // PGlite delivers NOTIFY to its own listeners after commit.
        const unsubscribe = await client.listen(channel, onMessage);
        return async () => {
          if (!client.closed) await unsubscribe();
        };
      },
      async close() {
        if (client.closed) return;
        await close();
        releaseLock();
      },
    } as Database;
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** What both ways of running PGlite offer the shop: Drizzle's client, with LISTEN, and how to close it. */
interface OpenedPglite {
  client: {
    listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
    readonly closed: boolean;
  };
  close(): Promise<void>;
}

/**
 * PGlite on its own worker thread (pglite-worker.ts opens, migrates and runs it; decision 156); null
 * when the worker's source is not there to run.
 */
async function openPgliteOnThread(pgliteDir: string | null, snapshot: string | null): Promise<OpenedPglite | null> {
  const { pgliteWorkerFile, startPgliteThread } = await import('./pglite-thread.ts');
  const workerFile = pgliteWorkerFile();
  if (!workerFile) {
    log.warn('the embedded database runs on the main thread: pglite-worker.ts was not found');
    return null;
  }
  const client = await startPgliteThread(workerFile, { dataDir: pgliteDir, migrationsFolder: migrationsFolder(), snapshot });
  return { client, close: () => client.close() };
}

/** PGlite on the calling thread: scripts and tests that want no second thread. */
async function openPgliteHere(pgliteDir: string | null, snapshot: string | null): Promise<OpenedPglite> {
  const { openPgliteInstance, closePgliteInstance } = await import('./pglite-open.ts');
  const client = await openPgliteInstance(pgliteDir, migrationsFolder(), snapshot);
  return { client, close: () => closePgliteInstance(client) };
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

/**
 * Applies a folder's migrations to a PostgreSQL database as every instance does at start: on one
 * dedicated connection holding an advisory lock, so instances starting together apply them once; all
 * that wait run in one transaction, so a failure leaves the database as it was (migrations.ts).
 */
export async function migratePostgres(databaseUrl: string, folder: string): Promise<void> {
  const { url, host } = postgresTarget(databaseUrl);
  const [{ default: postgres }, { drizzle }, { migrate }] = await Promise.all([
    import('postgres'),
    import('drizzle-orm/postgres-js'),
    import('drizzle-orm/postgres-js/migrator'),
  ]);
  const migrator = postgres(url, { ...(host ? { host } : {}), max: 1, onnotice: () => {} });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrateOrExplain(folder, (text) => migrator.unsafe(text), () => migrate(drizzle(migrator), { migrationsFolder: folder }));
  } finally {
    await migrator`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => {});
    await migrator.end({ timeout: 5 });
  }
}

async function openPostgres(databaseUrl: string, poolSize: number): Promise<Database> {
  const { url, host } = postgresTarget(databaseUrl);
  const target = host ? { host } : {};
  const [{ default: postgres }, { drizzle }] = await Promise.all([import('postgres'), import('drizzle-orm/postgres-js')]);
  await migratePostgres(databaseUrl, migrationsFolder());
  const client = postgres(url, { ...target, max: poolSize, onnotice: () => {}, idle_timeout: 30 });
  // Drizzle asks postgres.js for an unnamed statement each time (parsed and planned on every run)
  // unless a query is given a name. A statement without a text pattern is prepared once per connection
  // instead, and PostgreSQL keeps its plan once five runs show a generic plan costs no more; a pattern
  // statement is still planned for its values (plan-per-value.ts, docs/decisions/148). Transactions
  // run on their own reserved connection object and keep Drizzle's unnamed statements.
  const unsafe = client.unsafe;
  client.unsafe = ((query: string, parameters?: never[], options?: { prepare?: boolean }) =>
    unsafe(query, parameters, { ...options, prepare: options?.prepare === true || !plannedPerValue(query) })) as typeof client.unsafe;
  const db = drizzle(client, { schema, logger }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    rows: async <T,>(query: SQL) => resultRows<T>(await db.execute(query)),
    subscribe: (channel: string, onMessage: (payload: string) => void, onResubscribed: () => void) =>
      listenOnPostgres(postgres, url, target, channel, onMessage, onResubscribed),
    async close() {
      await client.end({ timeout: 5 });
    },
  } as Database;
}

type PostgresFactory = typeof import('postgres');

/**
 * One dedicated connection that LISTENs, and LISTENs again with back-off whenever it drops (a
 * restarted server, a failover, a killed backend). postgres.js's own `listen` retries only once.
 */
async function listenOnPostgres(
  postgres: PostgresFactory,
  url: string,
  target: { host?: string },
  channel: string,
  onMessage: (payload: string) => void,
  onResubscribed: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const options = {
    ...target,
    max: 1,
    idle_timeout: null,
    max_lifetime: null,
    connect_timeout: 5,
    fetch_types: false,
    onnotice: () => {},
    // Undocumented in the types but part of postgres.js: NOTIFY messages on this connection.
    onnotify: (name: string, payload: string) => {
      if (name === channel) onMessage(payload);
    },
    onclose: () => schedule(0),
  };
  const listener = postgres(url, options as unknown as Parameters<PostgresFactory>[1]);
  const listen = () => listener.unsafe(`listen "${channel.replace(/"/g, '""')}"`);
  function schedule(attempt: number): void {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      if (stopped) return;
      listen().then(
        () => {
          log.warn('cache invalidation listener reconnected', { channel });
          onResubscribed();
        },
        () => schedule(attempt + 1),
      );
    }, Math.min(5_000, 200 * 2 ** attempt));
    retry.unref();
  }
  await listen();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await listener.end({ timeout: 2 });
  };
}

/** Opens a database from a URL (see env DATABASE_URL) and applies the migrations. */
export async function openDatabase(options: {
  url: string | undefined;
  dataDir: string;
  poolSize?: number;
  /** The embedded database on a worker thread of its own (decision 156); off: on the calling thread. */
  pgliteThread?: boolean;
  /** memory:// only: a PGlite dump (`dumpDataDir`) the database starts from instead of empty. */
  snapshot?: string;
}): Promise<Database> {
  if (options.url?.startsWith('postgres')) return openPostgres(options.url, options.poolSize ?? 10);
  const onThread = options.pgliteThread ?? false;
  if (options.url === 'memory://') return openPglite(undefined, onThread, options.snapshot ?? null);
  return openPglite(path.resolve(options.dataDir), onThread);
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
      pgliteThread: config.PGLITE_THREAD,
      snapshot: config.DATABASE_SNAPSHOT,
    });
    onShutdown('database', () => opened.close());
    if (config.SEED_DEMO) {
      const { seedDemoIfEmpty } = await import('./seed.ts');
      await seedDemoIfEmpty(opened);
    }
    // Every instance drops cached pages when another one changes what they show (docs/design.md 13).
    const { startInvalidationBus } = await import('../cache/invalidation-bus.ts');
    await startInvalidationBus(opened);
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
