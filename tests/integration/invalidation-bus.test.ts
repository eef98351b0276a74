/**
 * The invalidation bus on the test database: PGlite (in-process NOTIFY) or PostgreSQL (a real second
 * connection, a killed listening backend). The two-server test in tests/server shows it between
 * processes.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { busStats, INVALIDATION_CHANNEL, invalidateTags } from '../../src/server/cache/invalidation-bus';
import { cachePublicPage, catalogVersion, invalidateCatalog, type RouteCacheHandle } from '../../src/server/catalog/catalog-cache';
import { database } from '../../src/server/db/client';

function recordingCache() {
  const invalidated: string[][] = [];
  const handle: RouteCacheHandle = {
    enabled: true,
    set: () => {},
    invalidate: async ({ tags }) => void invalidated.push([tags ?? []].flat()),
  };
  cachePublicPage(handle, ['home']);
  return invalidated;
}
// The first page cached in this process registers the handle the bus drops from.
const invalidated = recordingCache();

// `ms` guards against hanging, it measures nothing: nothing but the bus drops pages from this recording
// cache, so a message heard at all proves it, however loaded the machine is.
const HANG_GUARD_MS = 10_000;

async function until<T>(what: () => T | undefined, ms = HANG_GUARD_MS): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    const value = what();
    if (value !== undefined) return { value, ms: Date.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`not within ${ms} ms`);
}

describe('invalidation bus', () => {
  it('drops the pages another instance announces', async () => {
    const db = await database();
    const before = catalogVersion();
    invalidated.length = 0;
    await db.rows(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${JSON.stringify({ from: 'another-instance', tags: ['product:p00042', 'listing'] })})`);
    const heard = await until(() => invalidated.find((tags) => tags.includes('product:p00042')));
    expect(heard.value).toEqual(['product:p00042', 'listing']);
    expect(catalogVersion()).toBeGreaterThan(before);
    expect(busStats().listening).toBe(true);
  });

  it('publishes every catalog change, and drops it here at once without waiting for the echo', async () => {
    const db = await database();
    const heard: string[] = [];
    const unsubscribe = await db.subscribe(INVALIDATION_CHANNEL, (payload) => heard.push(payload), () => {});
    try {
      invalidated.length = 0;
      await invalidateCatalog({ productCodes: ['P00007'] });
      expect(invalidated).toEqual([['product:p00007', 'listing', 'home', 'promotions']]);
      await invalidateTags(['content']);
      const messages = await until(() => (heard.length >= 2 ? heard.map((payload) => JSON.parse(payload) as { from: string; tags: string[] }) : undefined));
      expect(messages.value.map((message) => message.tags)).toEqual([['product:p00007', 'listing', 'home', 'promotions'], ['content']]);
      expect(new Set(messages.value.map((message) => message.from))).toEqual(new Set([busStats().instanceId]));
      // Our own echo is not dropped twice.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(invalidated).toHaveLength(2);
    } finally {
      await unsubscribe();
    }
  });

  it('an oversized announcement becomes one "drop everything"', async () => {
    const db = await database();
    const heard: string[] = [];
    const unsubscribe = await db.subscribe(INVALIDATION_CHANNEL, (payload) => heard.push(payload), () => {});
    try {
      await invalidateCatalog({ productCodes: Array.from({ length: 2_000 }, (_, i) => `P${String(i).padStart(5, '0')}`) });
      const message = await until(() => heard[0]);
      expect(JSON.parse(message.value)).toMatchObject({ tags: ['catalog'] });
    } finally {
      await unsubscribe();
    }
  });

  it('drops the whole cache when its listening connection comes back (PostgreSQL)', async (context) => {
    const db = await database();
    if (db.kind !== 'postgres') context.skip();
    const before = busStats().resubscribed;
    invalidated.length = 0;
    const killed = await db.rows<{ pid: number }>(
      sql`select pg_terminate_backend(pid) as ok, pid from pg_stat_activity where datname = current_database() and query ilike ${`listen "${INVALIDATION_CHANNEL}"%`} and pid <> pg_backend_pid()`,
    );
    expect(killed.length).toBeGreaterThan(0);
    await until(() => (busStats().resubscribed > before ? true : undefined));
    expect(invalidated).toContainEqual(['catalog']);
    // And it hears announcements again.
    invalidated.length = 0;
    await db.rows(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${JSON.stringify({ from: 'another-instance', tags: ['promotion:x'] })})`);
    await until(() => invalidated.find((tags) => tags.includes('promotion:x')));
  });
});

describe('settings through the bus', () => {
  it('another instance changing the settings makes this one reload the company record', async () => {
    const { getCompany } = await import('../../src/server/company/company.service');
    const { company } = await import('../../src/server/db/schema');
    const db = await database();
    const before = await getCompany();
    await db.db.update(company).set({ tagline: 'สโลแกนใหม่จากอีกเครื่อง' });
    // Kept in memory: the direct change is not seen until someone announces it.
    expect((await getCompany()).tagline).toBe(before.tagline);
    await db.rows(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${JSON.stringify({ from: 'another-instance', tags: ['settings', 'catalog'] })})`);
    await until(() => (invalidated.some((tags) => tags.includes('settings')) ? true : undefined));
    expect((await getCompany()).tagline).toBe('สโลแกนใหม่จากอีกเครื่อง');
    await db.db.update(company).set({ tagline: before.tagline });
  });
});
