import { sql } from 'drizzle-orm';
import { database } from '../db/client.ts';
import type { ListedObject } from './driver.ts';
import { storage } from './storage.ts';

/**
 * Pictures no row names any more (`npm run shop -- pictures-unused [--delete]`, docs/decisions/233). A
 * replaced product picture, a removed gallery photo or an old banner stays in public storage after its
 * row changed: nothing deletes it on the way, since a picture is stored by its content's hash and the
 * same file may serve several rows. This finds them by reading the database rather than by trusting each
 * feature to clean up: every text, JSON and text-array column of every table of the shop is searched for
 * stored pictures' names (`products/<24 hex>-<width>.webp`, with or without `/media/`), so a picture in
 * a page's Markdown, a settings JSON, an order line or an outbox mail counts as used. The audit trail
 * alone does not keep a picture: it records what a row held before.
 *
 * A picture's files go together (every width of one stem), and only when all of them are older than the
 * grace period: an upload stores its files a moment before its row is written.
 */
const STORED_PICTURE_FILE = /^([a-z]+\/[a-f0-9]{24})-\d+\.webp$/;
const NAME_PATTERN = '([a-z]+/[a-f0-9]{24})-[0-9]+\\.webp';
/** Tables whose mention of a picture does not keep it. */
const NOT_A_USE = new Set(['audit_log']);
export const UNUSED_PICTURE_GRACE_MS = 24 * 60 * 60_000;

export interface UnusedPicture {
  /** `products/<hash>`: the name its files share. */
  stem: string;
  files: ListedObject[];
}

export interface UnusedPictures {
  /** Stored pictures (stems) found in public storage. */
  stored: number;
  unused: UnusedPicture[];
  /** Unused but too new to go yet. */
  tooNew: number;
}

/** The stems of every stored picture some row of the shop names. */
export async function picturesInUse(): Promise<Set<string>> {
  const db = await database();
  const columns = await db.rows<{ table: string; column: string }>(sql`
    select c.table_name as "table", c.column_name as "column"
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = current_schema()
      and (c.data_type in ('text', 'character varying', 'json', 'jsonb') or (c.data_type = 'ARRAY' and c.udt_name in ('_text', '_varchar')))
    order by 1, 2`);
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) if (!NOT_A_USE.has(table)) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  const used = new Set<string>();
  // One pass over each table, its text columns read as one value.
  for (const [table, names] of byTable) {
    const value = sql`concat_ws(' ', ${sql.join(
      names.map((column) => sql`${sql.identifier(column)}::text`),
      sql`, `,
    )})`;
    const rows = await db.rows<{ stem: string }>(sql`
      select distinct (regexp_matches(${value}, ${NAME_PATTERN}, 'g'))[1] as stem
      from ${sql.identifier(table)} where ${value} like '%.webp%'`);
    for (const row of rows) used.add(row.stem);
  }
  return used;
}

/** The stored pictures no row names, oldest first; those within the grace period are counted, not listed. */
export async function findUnusedPictures(now = new Date(), graceMs = UNUSED_PICTURE_GRACE_MS): Promise<UnusedPictures> {
  const byStem = new Map<string, ListedObject[]>();
  for (const file of await storage().list('public', '')) {
    const stem = STORED_PICTURE_FILE.exec(file.key)?.[1];
    if (stem) byStem.set(stem, [...(byStem.get(stem) ?? []), file]);
  }
  const used = await picturesInUse();
  const unused: UnusedPicture[] = [];
  let tooNew = 0;
  for (const [stem, files] of byStem) {
    if (used.has(stem)) continue;
    if (files.some((file) => now.getTime() - file.modifiedAt.getTime() < graceMs)) tooNew++;
    else unused.push({ stem, files });
  }
  const newest = (picture: UnusedPicture) => Math.max(...picture.files.map((file) => file.modifiedAt.getTime()));
  unused.sort((a, b) => newest(a) - newest(b) || a.stem.localeCompare(b.stem));
  return { stored: byStem.size, unused, tooNew };
}

/**
 * Deletes the files of the pictures given, asking the database once more just before: a picture stored
 * again meanwhile (the same bytes uploaded anew reuse its files) is kept. Returns the pictures deleted.
 */
export async function deleteUnusedPictures(pictures: readonly UnusedPicture[]): Promise<UnusedPicture[]> {
  const used = await picturesInUse();
  const driver = storage();
  const deleted: UnusedPicture[] = [];
  for (const picture of pictures) {
    if (used.has(picture.stem)) continue;
    for (const file of picture.files) await driver.delete('public', file.key);
    deleted.push(picture);
  }
  return deleted;
}
