import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';
import { pgliteWorkerFile, startPgliteThread } from '../../src/server/db/pglite-thread';

/** The database error under Drizzle's wrapper, as the services look for it. */
function databaseError(error: unknown): Record<string, unknown> {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  while (current && current.code === undefined) current = current.cause as typeof current;
  return (current ?? {}) as Record<string, unknown>;
}

/** What Drizzle was given to send statements to. */
function clientOf(opened: Database): unknown {
  return (opened.db as unknown as { $client: unknown }).$client;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

// The embedded database on its own thread (docs/decisions/156) must answer exactly as it does on the
// calling thread: the same values, the same transactions, the same errors, the same notifications.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the embedded database on a worker thread', () => {
  let onThread: Database;
  let here: Database;

  beforeAll(async () => {
    [onThread, here] = await Promise.all([
      openDatabase({ url: 'memory://', dataDir: '/nonexistent', pgliteThread: true }),
      openDatabase({ url: 'memory://', dataDir: '/nonexistent', pgliteThread: false }),
    ]);
    for (const opened of [onThread, here]) {
      await opened.db.execute(sql`create table thread_items (id int primary key, code text not null unique, price numeric(10, 2) not null, made timestamptz not null default '2026-11-24 10:00:00+07', tags text[] not null default '{}', extra jsonb, picture bytea)`);
    }
  });
  afterAll(async () => {
    await Promise.all([onThread?.close(), here?.close()]);
  });

  it('runs on another thread: the worker file is found', () => {
    expect(pgliteWorkerFile()).toMatch(/pglite-worker\.ts$/);
    expect(clientOf(onThread)).not.toHaveProperty('Module');
    expect(clientOf(here)).toHaveProperty('Module');
  });

  it('gives the same values of every type, through Drizzle and raw', async () => {
    const answers = [];
    for (const opened of [onThread, here]) {
      await opened.db.execute(sql`insert into thread_items (id, code, price, tags, extra, picture) values (1, 'ของขวัญ-1', 199.5, '{ของขวัญ,สีชมพู}', '{"ribbon": true, "n": [1, 2]}', '\\x0102ff')`);
      const raw = await opened.rows(sql`select id, code, price, made, tags, extra, picture, 12345678901::bigint as big, null::text as nothing from thread_items`);
      answers.push(raw);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.[0]).toMatchObject({ id: 1, code: 'ของขวัญ-1', tags: ['ของขวัญ', 'สีชมพู'], extra: { ribbon: true, n: [1, 2] }, nothing: null });
    // Drizzle's own parsers keep a timestamp's text; they cross as type ids.
    expect(answers[0]?.[0]?.made).toBe('2026-11-24 03:00:00+00');
    expect(answers[0]?.[0]?.picture).toEqual(new Uint8Array([1, 2, 255]));
  });

  it('commits a transaction, and rolls one back on an error or on tx.rollback(), savepoints included', async () => {
    for (const opened of [onThread, here]) {
      await opened.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_items (id, code, price) values (2, 'B', 10)`);
        await tx
          .transaction(async (inner) => {
            await inner.execute(sql`insert into thread_items (id, code, price) values (3, 'C', 10)`);
            throw new Error('inner failure');
          })
          .catch(() => {});
      });
      const thrown = await failure(
        opened.db.transaction(async (tx) => {
          await tx.execute(sql`insert into thread_items (id, code, price) values (4, 'D', 10)`);
          throw new Error('ยกเลิก');
        }),
      );
      expect((thrown as Error).message).toBe('ยกเลิก');
      await failure(
        opened.db.transaction(async (tx) => {
          await tx.execute(sql`insert into thread_items (id, code, price) values (5, 'E', 10)`);
          tx.rollback();
        }),
      );
      const ids = await opened.rows<{ id: number }>(sql`select id from thread_items where id > 1 order by id`);
      expect(ids.map((row) => row.id)).toEqual([2]);
    }
  });

  it('carries a database error across with its code, constraint and detail', async () => {
    const errors = [];
    for (const opened of [onThread, here]) {
      const thrown = await failure(opened.db.execute(sql`insert into thread_items (id, code, price) values (9, 'B', 1)`));
      errors.push(databaseError(thrown));
      // A failed statement inside a transaction rolls the whole transaction back.
      const inTransaction = await failure(
        opened.db.transaction(async (tx) => {
          await tx.execute(sql`insert into thread_items (id, code, price) values (10, 'J', 1)`);
          await tx.execute(sql`insert into thread_items (id, code, price) values (11, 'J', 1)`);
        }),
      );
      expect(databaseError(inTransaction).code).toBe('23505');
      expect(await opened.rows(sql`select id from thread_items where id in (10, 11)`)).toEqual([]);
    }
    for (const error of errors) {
      expect(error).toMatchObject({ code: '23505', constraint: 'thread_items_code_key', table: 'thread_items' });
      expect(error.detail).toContain('(code)=(B)');
    }
    expect(errors[0]?.message).toBe(errors[1]?.message);
  });

  it('keeps statements outside a transaction waiting until it ends, as on one connection', async () => {
    const order: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = onThread.db.transaction(async (tx) => {
      await tx.execute(sql`update thread_items set price = 77 where id = 2`);
      order.push('written');
      await held;
      order.push('committing');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reading = onThread.rows<{ price: string }>(sql`select price from thread_items where id = 2`).then((rows) => {
      order.push('read');
      return rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual(['written']);
    release();
    await writing;
    expect((await reading)[0]?.price).toBe('77.00');
    expect(order).toEqual(['written', 'committing', 'read']);
  });

  it('passes on NOTIFY payloads after commit, to every listener, until unsubscribed', async () => {
    const heard: string[] = [];
    const unsubscribe = await onThread.subscribe('thread_test', (payload) => heard.push(`a:${payload}`), () => {});
    const unsubscribeOther = await onThread.subscribe('thread_test', (payload) => heard.push(`b:${payload}`), () => {});
    await onThread.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('thread_test', 'ราคาเปลี่ยน')`);
      expect(heard).toEqual([]);
    });
    await onThread.rows(sql`select 1`);
    expect(heard.sort()).toEqual(['a:ราคาเปลี่ยน', 'b:ราคาเปลี่ยน']);
    await unsubscribe();
    await onThread.rows(sql`select pg_notify('thread_test', 'อีกครั้ง')`);
    await onThread.rows(sql`select 1`);
    expect(heard.filter((line) => line.includes('อีกครั้ง'))).toEqual(['b:อีกครั้ง']);
    await unsubscribeOther();
  });

  it('refuses a parser that would change a value, rather than drop it silently', async () => {
    const client = clientOf(onThread) as { query(text: string, params: unknown[], options: object): Promise<unknown> };
    const error = await failure(client.query('select 1', [], { parsers: { 23: (value: string) => Number(value) } }));
    expect((error as Error).message).toMatch(/parsers that keep/);
  });

  it('fails every call after close instead of hanging', async () => {
    const file = pgliteWorkerFile();
    if (!file) throw new Error('no worker file');
    const thread = await startPgliteThread(file, { dataDir: null, migrationsFolder: 'drizzle' });
    expect((await thread.query<{ n: number }>('select 2 as n')).rows).toEqual([{ n: 2 }]);
    await thread.close();
    expect(thread.closed).toBe(true);
    await expect(thread.query('select 1')).rejects.toThrow(/stopped/);
  });

  it('rejects with the reason when the database cannot open there', async () => {
    const file = pgliteWorkerFile();
    if (!file) throw new Error('no worker file');
    await expect(startPgliteThread(file, { dataDir: null, migrationsFolder: '/nonexistent-migrations' })).rejects.toThrow(/journal/i);
  });
});
