import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { onShutdown } from '../lifecycle.ts';
import { errorFields, log } from '../log.ts';

/**
 * The invalidation bus (docs/design.md section 13, docs/decisions/142): a change that makes cached pages
 * stale names their tags once; every instance drops them.
 *
 *  - In this process, every registered dropper runs at once (the Astro bundle and the Node server
 *    are separate module graphs, so droppers live on globalThis, one per graph).
 *  - Other instances hear it through PostgreSQL NOTIFY on one channel (in-process NOTIFY on PGlite)
 *    and run their droppers on arrival: well within a second of the commit.
 *  - An instance whose listening connection dropped cannot know what it missed, so it drops
 *    everything once it listens again.
 *
 * The tag `catalog` is on every cached page, so it means "everything".
 */
export const INVALIDATION_CHANNEL = 'shop_cache_invalidation';
export const ALL_TAGS: readonly string[] = ['catalog'];
/** NOTIFY payloads are limited to 8000 bytes; past this, one "everything" is cheaper anyway. */
const MAX_PAYLOAD = 7_000;

export type Dropper = (tags: readonly string[]) => Promise<void> | void;

interface BusState {
  instanceId: string;
  droppers: Map<symbol, Dropper>;
  started: Promise<void> | undefined;
  /** The opened database, set when it starts the bus (this module never opens one). */
  database: Database | undefined;
  received: number;
  resubscribed: number;
}

const stateKey = Symbol.for('yimlamai.invalidationBus');

function state(): BusState {
  const holder = globalThis as unknown as Record<symbol, BusState | undefined>;
  holder[stateKey] ??= { instanceId: randomUUID(), droppers: new Map(), started: undefined, database: undefined, received: 0, resubscribed: 0 };
  return holder[stateKey];
}

/** Registers what this module graph drops for a set of tags; returns the unregister. */
export function registerDropper(dropper: Dropper): () => void {
  const key = Symbol('dropper');
  state().droppers.set(key, dropper);
  return () => state().droppers.delete(key);
}

async function dropHere(tags: readonly string[]): Promise<void> {
  const results = await Promise.allSettled([...state().droppers.values()].map(async (drop) => drop(tags)));
  for (const result of results) {
    if (result.status === 'rejected') log.warn('cache drop failed', errorFields(result.reason));
  }
}

/**
 * Drops these tags here and on every other instance. Other features call this for changes that are
 * not catalog rows (settings, content pages): `invalidateTags(['content'])`. Catalog changes go
 * through `invalidateCatalog(change)`, which picks the tags.
 */
export async function invalidateTags(tags: readonly string[]): Promise<void> {
  const unique = [...new Set(tags)];
  if (unique.length === 0) return;
  await dropHere(unique);
  await publish(unique);
}

/**
 * The shop's settings (company record: name, contacts, payment and delivery options) changed: they
 * show on every page, so every cached page goes, and every instance reloads the record.
 */
export async function invalidateSettings(): Promise<void> {
  await invalidateTags(['settings', ...ALL_TAGS]);
}

/** Tells the other instances; best effort (the 60 s page lifetime stays as the safety net). */
export async function publish(tags: readonly string[]): Promise<void> {
  // Code without an open database (unit tests, the build) has no other instance to tell.
  const database = state().database;
  if (!database) return;
  try {
    let payload = JSON.stringify({ from: state().instanceId, tags });
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) payload = JSON.stringify({ from: state().instanceId, tags: ALL_TAGS });
    await database.rows(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${payload})`);
  } catch (error) {
    log.warn('cache invalidation publish failed', errorFields(error));
  }
}

function parse(payload: string): { from: string; tags: string[] } | null {
  try {
    const message = JSON.parse(payload) as { from?: unknown; tags?: unknown };
    if (typeof message.from !== 'string' || !Array.isArray(message.tags)) return null;
    return { from: message.from, tags: message.tags.filter((tag): tag is string => typeof tag === 'string') };
  } catch {
    return null;
  }
}

/** Starts listening once per process (the database module calls it when it opens). */
export function startInvalidationBus(database: Database): Promise<void> {
  const bus = state();
  bus.database = database;
  bus.started ??= (async () => {
    const unsubscribe = await database.subscribe(
      INVALIDATION_CHANNEL,
      (payload) => {
        const message = parse(payload);
        // Our own changes were dropped here before they were published.
        if (!message || message.from === bus.instanceId) return;
        bus.received += 1;
        void dropHere(message.tags);
      },
      () => {
        bus.resubscribed += 1;
        void dropHere(ALL_TAGS);
      },
    );
    onShutdown('cache-invalidation-bus', async () => {
      bus.started = undefined;
      bus.database = undefined;
      await unsubscribe();
    });
  })();
  bus.started.catch((error: unknown) => {
    bus.started = undefined;
    log.error('cache invalidation listener failed to start', errorFields(error));
  });
  return bus.started;
}

/** Counters for health output and tests. */
export function busStats(): { instanceId: string; received: number; resubscribed: number; listening: boolean } {
  const bus = state();
  return { instanceId: bus.instanceId, received: bus.received, resubscribed: bus.resubscribed, listening: bus.started !== undefined };
}
