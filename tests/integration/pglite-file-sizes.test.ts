import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepFileSizes } from '../../src/server/db/pglite-file-sizes';

// The kept file sizes of the embedded database on disk (docs/decisions/125): every size PostgreSQL
// sees must be the file's real size on disk, through growth, truncation and a restart.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('file sizes kept for the embedded database on disk', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-file-sizes-'));
  let client: PGlite;

  const open = async () => {
    client = await PGlite.create(path.join(dir, 'pglite'));
    expect(keepFileSizes(client)).toBe(true);
  };
  /** PostgreSQL's idea of the table's size (from lseek), beside the file's size on disk. */
  const sizes = async (table: string) => {
    const { rows } = await client.query<{ size: number; file: string }>('select pg_relation_size($1)::int as size, pg_relation_filepath($1) as file', [table]);
    const row = rows[0]!;
    return { seen: row.size, onDisk: statSync(path.join(dir, 'pglite', row.file)).size };
  };

  beforeAll(open);
  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows a table as it grows, is truncated by vacuum, and grows again', async () => {
    await client.exec('create table notes (id serial primary key, body text not null)');
    const empty = await sizes('notes');
    expect(empty.seen).toBe(empty.onDisk);

    for (let round = 1; round <= 3; round++) {
      await client.query(`insert into notes (body) select repeat('ของขวัญ', 40) from generate_series(1, $1)`, [round * 400]);
      const grown = await sizes('notes');
      expect(grown.seen).toBeGreaterThan(0);
      expect(grown.seen).toBe(grown.onDisk);
    }
    expect((await client.query<{ n: number }>('select count(*)::int as n from notes')).rows[0]?.n).toBe(2400);

    await client.exec('delete from notes');
    await client.exec('vacuum notes');
    const truncated = await sizes('notes');
    expect(truncated.seen).toBe(truncated.onDisk);
    expect(truncated.seen).toBe(0);

    await client.query(`insert into notes (body) select 'ใหม่ ' || g from generate_series(1, 300) as g`);
    const again = await sizes('notes');
    expect(again.seen).toBeGreaterThan(0);
    expect(again.seen).toBe(again.onDisk);
    // Reads after the truncation and the new rows find exactly the new rows.
    expect((await client.query<{ n: number }>("select count(*)::int as n from notes where body like 'ใหม่ %'")).rows[0]?.n).toBe(300);
  });

  it('keeps every row through a restart', async () => {
    await client.close();
    await open();
    expect((await client.query<{ n: number }>('select count(*)::int as n from notes')).rows[0]?.n).toBe(300);
    const reopened = await sizes('notes');
    expect(reopened.seen).toBe(reopened.onDisk);
  });
});
