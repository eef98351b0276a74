import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePreparedStatements } from '../../src/server/db/pglite-statements';

// The embedded database's statement cache (docs/decisions/123) on its own in-memory database: the
// answers and errors must be those of PGlite's own query(), however often a text repeats.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('named prepared statements on the embedded database', () => {
  let client: PGlite;

  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec(`
      create table items (id serial primary key, code text not null unique, price int not null, tags text[] not null default '{}', made timestamptz not null default now(), extra jsonb);
      insert into items (code, price, tags) values ('A1', 100, '{ของขวัญ}'), ('B2', 250, '{}');
    `);
    usePreparedStatements(client, 3);
  });
  afterAll(async () => {
    await client.close();
  });

  const preparedNames = async () =>
    (await client.query<{ name: string }>('select name from pg_prepared_statements order by name')).rows.map((row) => row.name);

  it('answers like query(): rows, types, parameters of every kind, affected rows', async () => {
    const found = await client.query<{ code: string; price: number; tags: string[]; made: Date }>('select code, price, tags, made from items where price >= $1 and code = any($2) order by id', [100, ['A1', 'B2']]);
    expect(found.rows.map((row) => row.code)).toEqual(['A1', 'B2']);
    expect(found.rows[0]?.tags).toEqual(['ของขวัญ']);
    expect(found.rows[0]?.made).toBeInstanceOf(Date);
    expect(found.fields.map((field) => field.name)).toEqual(['code', 'price', 'tags', 'made']);

    const inserted = await client.query<{ id: number }>('insert into items (code, price, extra) values ($1, $2, $3) returning id', ['C3', 75, { note: 'ห่อของขวัญ' }]);
    expect(inserted.rows[0]?.id).toBeGreaterThan(0);
    const updated = await client.query('update items set price = price + $1 where price < $2', [1, 200]);
    expect(updated.affectedRows).toBe(2);

    const asArrays = await client.query('select code, extra from items where code = $1', ['C3'], { rowMode: 'array' });
    expect(asArrays.rows).toEqual([['C3', { note: 'ห่อของขวัญ' }]]);
    const nullable = await client.query<{ n: number }>('select count(*)::int as n from items where extra is not distinct from $1', [null]);
    expect(nullable.rows[0]?.n).toBe(2);
  });

  it('reports database errors with their code and leaves the connection usable', async () => {
    await expect(client.query('insert into items (code, price) values ($1, $2)', ['A1', 1])).rejects.toMatchObject({ code: '23505' });
    await expect(client.query('select price from items where id = $1', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    await expect(client.query('select nonsense from')).rejects.toMatchObject({ code: '42601' });
    const after = await client.query<{ n: number }>('select count(*)::int as n from items');
    expect(after.rows[0]?.n).toBe(3);
  });

  it('keeps each text parsed once, and closes the least recently used past the limit', async () => {
    for (let i = 0; i < 5; i++) await client.query('select $1::int + 1 as n', [i]);
    const once = await preparedNames();
    expect(once.length).toBeLessThanOrEqual(3);
    for (let i = 0; i < 6; i++) await client.query(`select ${i} as n where $1::int > 0`, [1]);
    expect((await preparedNames()).length).toBeLessThanOrEqual(3);
  });

  it('still answers after the table under a statement changes', async () => {
    const read = () => client.query<{ code: string }>('select code from items where price > $1 order by code', [0]);
    expect((await read()).rows).toHaveLength(3);
    await client.exec(`create index items_price_idx on items (price); alter table items add column note text`);
    expect((await read()).rows).toHaveLength(3);
  });

  it('keeps a generic plan for a plain statement, and plans a text-pattern statement for its values every run', async () => {
    const plans = async (text: string) =>
      (await client.query<{ generic: number; custom: number }>('select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement = $1', [text])).rows[0];
    const plain = 'select code from items where price >= $1 order by price limit $2';
    for (let i = 0; i < 8; i++) expect((await client.query<{ code: string }>(plain, [0, 1])).rows).toHaveLength(1);
    // PostgreSQL's plan cache: five custom plans, then the generic one once it costs no more.
    expect(await plans(plain)).toMatchObject({ custom: 5, generic: 3 });

    const pattern = "select code from items where code like $1 || '%' order by code";
    for (let i = 0; i < 8; i++) expect((await client.query<{ code: string }>(pattern, [i % 2 === 0 ? 'A' : 'B'])).rows.map((row) => row.code)).toEqual([i % 2 === 0 ? 'A1' : 'B2']);
    // Parsed once for its parameter types, but every run is the unnamed statement, planned afresh.
    expect(await plans(pattern)).toMatchObject({ custom: 0, generic: 0 });
  });

  it('waits for a transaction instead of reading inside it', async () => {
    let outside: Promise<{ rows: { price: number }[] }> | undefined;
    await client.transaction(async (tx) => {
      await tx.query('update items set price = 0 where code = $1', ['A1']);
      outside = client.query<{ price: number }>('select price from items where code = $1', ['A1']);
      const state = await Promise.race([outside.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 50))]);
      expect(state).toBe('waiting');
      await tx.query('update items set price = 5 where code = $1', ['A1']);
    });
    expect((await outside)?.rows[0]?.price).toBe(5);
  });

  it('reads answers longer than one chunk of the wire, Thai text split anywhere', async () => {
    const { rows } = await client.query<{ n: number; t: string }>("select g as n, repeat('ของขวัญ', 40) || g as t from generate_series(1, $1::int) as g", [3000]);
    expect(rows).toHaveLength(3000);
    expect(rows[2999]).toEqual({ n: 3000, t: `${'ของขวัญ'.repeat(40)}3000` });
    expect(rows.every((row, index) => row.n === index + 1 && row.t === `${'ของขวัญ'.repeat(40)}${index + 1}`)).toBe(true);
  });

  it('skips a notice before the rows, and keeps notifications for PGlite\'s listeners', async () => {
    await client.exec(`create function noisy() returns int language plpgsql as $$ begin raise notice 'เสียงดัง'; return 7; end $$`);
    expect((await client.query<{ n: number }>('select noisy() as n where $1::int > 0', [1])).rows).toEqual([{ n: 7 }]);

    const heard: string[] = [];
    const unlisten = await client.listen('shop_statements_test', (payload) => heard.push(payload));
    await client.query('select pg_notify($1, $2)', ['shop_statements_test', 'สวัสดี']);
    await expect.poll(() => heard).toEqual(['สวัสดี']);
    await unlisten();
  });
});
