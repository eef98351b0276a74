import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

/**
 * The database as the rest of the shop sees it, whichever driver runs (client.ts opens it). A module
 * of its own so that what client.ts loads (the seed) can name these types without importing it back.
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
  /**
   * LISTEN on a channel: `onMessage` gets each NOTIFY payload; `onResubscribed` runs when a lost
   * listening connection is back (notifications sent meanwhile are gone). Returns the unsubscribe.
   */
  subscribe(channel: string, onMessage: (payload: string) => void, onResubscribed: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

