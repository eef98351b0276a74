/**
 * `npm run shop -- restore FILE [--database postgres://…]` (docs/operations.md): a backup into an empty
 * shop, on the embedded database (DATA_DIR) or PostgreSQL, with the shop stopped there. The archive is
 * checked whole first; the target gets the archive's migrations, then its rows, sequences and uploads
 * in one transaction, then the migrations that came after the archive. So a backup of an older shop
 * moves forward, and the same archive moves a shop from the embedded database to PostgreSQL.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder, openDatabase, resultRows, type Database, type DbOrTx } from '../db/client.ts';
import { contentTypeFor, type StorageDriver } from '../storage/driver.ts';
import { ArchiveError, readArchive, type Manifest } from './archive.ts';
import { migrationTags, shopTables } from './backup.service.ts';

export interface RestoreTarget {
  /** A postgres:// URL, or unset for the embedded database in `dataDir`. */
  url: string | undefined;
  dataDir: string;
  storage: StorageDriver;
}

export interface RestoreResult {
  manifest: Manifest;
  rows: number;
  files: number;
  migratedForward: number;
  ms: number;
}

/** Rows a new shop has on its own (migrations insert none); a table with any row means "not empty". */
const SHOP_CONTENT_TABLES = ['members', 'products', 'orders', 'company'];

async function rows<T>(tx: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  return resultRows<T>(await tx.execute(query));
}

/** drizzle/ with only its first `count` migrations, so the target matches the archive's schema. */
function migrationsUpTo(count: number): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'shop-restore-migrations-'));
  cpSync(migrationsFolder(), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

async function open(target: RestoreTarget, migrations: string): Promise<Database> {
  const before = process.env.MIGRATIONS_DIR;
  process.env.MIGRATIONS_DIR = migrations;
  try {
    return await openDatabase({ url: target.url, dataDir: target.dataDir, poolSize: 2 });
  } finally {
    if (before === undefined) delete process.env.MIGRATIONS_DIR;
    else process.env.MIGRATIONS_DIR = before;
  }
}

/** Columns a row can be given: not generated ones (PostgreSQL computes those itself). */
async function writableColumns(tx: DbOrTx, table: string): Promise<string[]> {
  const found = await rows<{ name: string }>(
    tx,
    sql`select a.attname as name from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relname = ${table} and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        order by a.attnum`,
  );
  return found.map((row) => row.name);
}

export async function restoreBackup(file: string, target: RestoreTarget): Promise<RestoreResult> {
  const started = Date.now();
  const archive = await readArchive(file);
  const { manifest } = archive;
  const tags = migrationTags();
  if (manifest.migrations.count > tags.length) {
    throw new ArchiveError(`the archive comes from a newer shop (migration ${manifest.migrations.count}, ${manifest.migrations.last}; this shop knows ${tags.length}): upgrade the shop first`);
  }
  const sameHistory = tags[manifest.migrations.count - 1];
  if (sameHistory !== manifest.migrations.last) {
    throw new ArchiveError(`the archive's migration ${manifest.migrations.count} is ${manifest.migrations.last}, this shop's is ${sameHistory}: not this shop's history`);
  }

  const partial = migrationsUpTo(manifest.migrations.count);
  let rowCount = 0;
  try {
    const db = await open(target, partial);
    try {
      for (const table of SHOP_CONTENT_TABLES) {
        const [row] = await rows<{ any: boolean }>(db.db, sql`select exists (select 1 from ${sql.identifier(table)}) as any`);
        if (row?.any) throw new ArchiveError(`the target is not empty (${table} has rows): restore only into a new, empty shop`);
      }
      await db.db.transaction(async (tx) => {
        // Rows go in table by table in any order: foreign keys are checked by triggers, which a
        // replica session skips (the archive was consistent when it was taken).
        await tx.execute(sql`set local session_replication_role = replica`);
        const present = new Set(await shopTables(tx));
        for (const table of manifest.tables) {
          if (!present.has(table.name)) throw new ArchiveError(`the archive has table ${table.name}, which the target's schema lacks`);
          await tx.execute(sql`delete from ${sql.identifier(table.name)}`);
          const tableRows = archive.tableRows(table.name);
          if (tableRows.length === 0) continue;
          const columns = (await writableColumns(tx, table.name)).filter((column) => column in tableRows[0]!);
          const columnList = sql.join(columns.map((column) => sql.identifier(column)), sql`, `);
          for (let at = 0; at < tableRows.length; at += 500) {
            const chunk = JSON.stringify(tableRows.slice(at, at + 500));
            await tx.execute(
              sql`insert into ${sql.identifier(table.name)} (${columnList}) select ${columnList} from json_populate_recordset(null::${sql.identifier(table.name)}, ${chunk}::json)`,
            );
          }
          rowCount += tableRows.length;
        }
        for (const [name, state] of Object.entries(manifest.sequences)) {
          await tx.execute(sql`select setval(${name}::regclass, ${state.value}::bigint, ${state.isCalled})`);
        }
      });
    } finally {
      await db.close();
    }
    for (const entry of manifest.files) {
      await target.storage.put(entry.visibility, entry.key, archive.fileBytes(entry.visibility, entry.key), contentTypeFor(entry.key));
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  // The migrations that came after the archive, as a shop starting on this database would run them.
  const migratedForward = tags.length - manifest.migrations.count;
  if (migratedForward > 0) await (await open(target, migrationsFolder())).close();
  return { manifest, rows: rowCount, files: manifest.files.length, migratedForward, ms: Date.now() - started };
}
