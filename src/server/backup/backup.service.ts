/**
 * `npm run shop -- backup [--out FILE]` (docs/operations.md): every table of the shop read in one
 * read-only repeatable-read transaction (one consistent moment, while the shop keeps selling), each
 * sequence's state, and every upload (public pictures, private slips and CSV files), into one archive
 * (./archive.ts). On the embedded database it runs in the server that holds it, through the operator
 * socket, like every operator command.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { database, migrationsFolder, resultRows, type DbOrTx } from '../db/client.ts';
import { storage } from '../storage/storage.ts';
import { isValidKey, type Visibility } from '../storage/driver.ts';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, archiveWriter, type FileEntry, type Manifest, type TableEntry } from './archive.ts';

export interface BackupResult {
  file: string;
  manifest: Manifest;
  ms: number;
}

async function rows<T>(tx: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  return resultRows<T>(await tx.execute(query));
}

/** The tags of drizzle/'s migrations, in order (drizzle/meta/_journal.json). */
export function migrationTags(folder = migrationsFolder()): string[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  return journal.entries.map((entry) => entry.tag);
}

/** How many migrations a database has had: drizzle records each one it applied. */
export async function appliedMigrations(tx: DbOrTx): Promise<number> {
  const [row] = await rows<{ n: number }>(tx, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number(row?.n ?? 0);
}

/** The shop's tables (schema public), by name. */
export async function shopTables(tx: DbOrTx): Promise<string[]> {
  const found = await rows<{ name: string }>(
    tx,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  return found.map((row) => row.name);
}

export async function shopSequences(tx: DbOrTx): Promise<string[]> {
  const found = await rows<{ name: string }>(
    tx,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  return found.map((row) => row.name);
}

function shopVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.resolve('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export async function createBackup(file: string): Promise<BackupResult> {
  const started = Date.now();
  const opened = await database();
  await mkdir(path.dirname(file), { recursive: true });
  const writer = archiveWriter(file);
  try {
    const tables: TableEntry[] = [];
    const sequences: Manifest['sequences'] = {};
    let migrationCount = 0;
    const createdAt = await opened.db.transaction(
      async (tx) => {
        const [now] = await rows<{ at: string }>(tx, sql`select to_json(now())#>>'{}' as at`);
        migrationCount = await appliedMigrations(tx);
        for (const name of await shopTables(tx)) {
          // ctid: the rows' order on disk, stable inside this snapshot; the text is parsed back in restore.
          const [result] = await rows<{ rows: string }>(tx, sql`select coalesce(json_agg(t order by t.ctid), '[]'::json)::text as rows from (select ctid, * from ${sql.identifier(name)}) t`);
          const parsed = JSON.parse(result?.rows ?? '[]') as Record<string, unknown>[];
          for (const row of parsed) delete row.ctid;
          tables.push(await writer.table(name, parsed));
        }
        for (const name of await shopSequences(tx)) {
          const [state] = await rows<{ value: string; called: boolean }>(tx, sql`select last_value::text as value, is_called as called from ${sql.identifier(name)}`);
          if (state) sequences[name] = { value: state.value, isCalled: state.called };
        }
        return now?.at ?? new Date().toISOString();
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    const files: FileEntry[] = [];
    const driver = storage();
    for (const visibility of ['public', 'private'] satisfies Visibility[]) {
      for (const listed of await driver.list(visibility, '')) {
        // The shop makes every key it stores; anything else in the folder is not the shop's.
        if (!isValidKey(listed.key)) continue;
        const object = await driver.get(visibility, listed.key);
        if (object) files.push(await writer.file(visibility, listed.key, object.bytes));
      }
    }
    const tags = migrationTags();
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      shopVersion: shopVersion(),
      migrations: { count: migrationCount, last: tags[migrationCount - 1] ?? 'unknown' },
      createdAt,
      database: opened.kind,
      tables,
      sequences,
      files,
    };
    await writer.finish(manifest);
    return { file, manifest, ms: Date.now() - started };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
