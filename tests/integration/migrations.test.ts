/**
 * Upgrades without fear (issue 34 section 4, docs/decisions/208): every migration in drizzle/ (whatever
 * is there, read from its journal) applies to a shop with data, one release at a time, with the
 * shop's own migrator; the current code reads what came through; and a migration that fails leaves
 * the database exactly as it was, saying which migration failed and why. On the database of the run:
 * PGlite, or PostgreSQL when TEST_DATABASE_URL is set (a database of this file's own beside it).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/pglite';
import { migratePostgres, migrationsFolder, openDatabase, type Database, type Db } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { applyMigrations } from '../../src/server/db/pglite-open';
import { migrationJournal, type MigrationEntry } from '../../src/server/db/migrations';
import { findByEmail } from '../../src/server/members/member.repo';
import { orderView, visibleOrder } from '../../src/server/orders/order-read';
import { summaryQuery, toSummary } from '../../src/server/catalog/product.repo';
import { listActiveCategories } from '../../src/server/catalog/category.repo';
import { createEmptyDatabase, dropDatabase } from '../fixtures/database';
import { migrationsFolderWith, nextTag, type ExtraMigration } from '../fixtures/migrations-folder';
import {
  FIRST_SCHEMA_COUNTS,
  FIRST_SCHEMA_MIGRATIONS,
  FIRST_SCHEMA_ROWS,
  OLD_MEMBER_EMAIL,
  ROWS_AFTER,
  STORED_ORDER_SEARCH_TEXT,
} from '../fixtures/first-schema-shop';

type Rows = Record<string, unknown>[];

/** A database being upgraded: the shop's migrator on it, raw queries, the shop's own start, and reads. */
interface Target {
  migrate(folder: string): Promise<void>;
  query(text: string): Promise<Rows>;
  /**
   * openDatabase as the server calls it at start, with MIGRATIONS_DIR naming `folder`. PostgreSQL only:
   * on PGlite that path (through the database's own thread) is tests/server/upgrades.test.ts's, and a
   * copy of the database to start from would cost seconds here.
   */
  start: ((folder: string) => Promise<Database>) | null;
  /** The database for the current code's repositories (on PGlite, this same instance). */
  db(): Promise<{ db: Db; close(): Promise<void> }>;
  close(): Promise<void>;
}

const journal = migrationJournal(migrationsFolder());
const latest = journal.at(-1) as MigrationEntry;
const scratch = mkdtempSync(path.join(tmpdir(), 'shop-migrations-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const folderWith = (count: number, extra?: ExtraMigration) => migrationsFolderWith(scratch, count, extra);

async function withMigrationsDir<T>(folder: string, work: () => Promise<T>): Promise<T> {
  const before = process.env.MIGRATIONS_DIR;
  process.env.MIGRATIONS_DIR = folder;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.MIGRATIONS_DIR;
    else process.env.MIGRATIONS_DIR = before;
  }
}

async function newTarget(suffix: string): Promise<Target> {
  const besideUrl = process.env.TEST_DATABASE_URL;
  if (besideUrl) {
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    const url = await createEmptyDatabase(besideUrl, suffix);
    const connection = postgres(url, { max: 1, onnotice: () => {} });
    const start = (folder: string) => withMigrationsDir(folder, () => openDatabase({ url, dataDir, poolSize: 2 }));
    return {
      migrate: (folder) => migratePostgres(url, folder),
      query: async (text) => [...(await connection.unsafe(text))],
      start,
      db: () => start(migrationsFolder()),
      async close() {
        await connection.end({ timeout: 5 });
        await dropDatabase(url);
      },
    };
  }
  // A new embedded cluster costs many seconds (initdb); this file's copy of the run's seeded shop loads in
  // one, and is emptied to what a new database holds: no extension, no schema but an empty public one.
  const client = await PGlite.create({ extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(String(process.env.DATABASE_SNAPSHOT))]) });
  await client.exec('DROP SCHEMA drizzle CASCADE; DROP SCHEMA public CASCADE; DROP EXTENSION IF EXISTS pg_trgm; CREATE SCHEMA public;');
  return {
    migrate: (folder) => applyMigrations(client, folder),
    query: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
    start: null,
    db: async () => ({ db: drizzle(client, { schema }) as unknown as Db, close: async () => {} }),
    close: () => client.close(),
  };
}

async function lastTag(query: (text: string) => Promise<Rows>): Promise<string | undefined> {
  const [row] = await query('select max(created_at)::text as last from drizzle.__drizzle_migrations');
  return journal.find((entry) => String(entry.when) === row?.last)?.tag;
}

/** Everything a failed migration could have left behind: columns, indexes, functions, rows, the journal. */
async function snapshot(query: (text: string) => Promise<Rows>) {
  const columns = await query(
    `select table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as c
     from information_schema.columns where table_schema in ('public', 'drizzle') order by 1`,
  );
  const indexes = await query(`select indexname from pg_indexes where schemaname = 'public' order by 1`);
  const functions = await query(`select proname from pg_proc where pronamespace = 'public'::regnamespace order by 1`);
  const tables = await query(`select table_name as t from information_schema.tables where table_schema = 'public' order by 1`);
  const counts: Record<string, unknown> = {};
  for (const { t } of tables) counts[String(t)] = (await query(`select count(*)::int as n from "${String(t)}"`))[0]?.n;
  const journalRows = await query('select id, hash, created_at::text as at from drizzle.__drizzle_migrations order by id');
  const products = await query('select code, name, search_text from products order by code');
  return { columns, indexes, functions, counts, journalRows, products };
}

async function fillFirstSchema(target: Target): Promise<void> {
  await target.migrate(folderWith(FIRST_SCHEMA_MIGRATIONS));
  for (const statement of FIRST_SCHEMA_ROWS) await target.query(statement);
}

/** A release's migration that works on an empty database and fails on a shop's rows, half-way through. */
const BROKEN: ExtraMigration = {
  tag: nextTag(journal.length, 'broken_on_purpose'),
  sql: [
    'CREATE TABLE "upgrade_probe" ("id" serial PRIMARY KEY NOT NULL, "note" text DEFAULT \'\' NOT NULL);',
    'INSERT INTO "upgrade_probe" ("note") VALUES (\'written before the failure\');',
    'ALTER TABLE "products" ADD COLUMN "probe_rank" integer DEFAULT 0 NOT NULL;',
    'UPDATE "products" SET "name" = "name" || \' (probe)\';',
    '-- Two products share a category in any real shop.\nCREATE UNIQUE INDEX "products_one_per_category_idx" ON "products" ("category_id");',
  ].join('\n--> statement-breakpoint\n'),
};

describe('migrations on a shop with data', () => {
  it('applies every migration since the first, one at a time, to a shop with data, and the current code reads it', async () => {
    const target = await newTarget('up');
    try {
      await fillFirstSchema(target);
      for (let count = FIRST_SCHEMA_MIGRATIONS + 1; count <= journal.length; count++) {
        const applied = journal[count - 1] as MigrationEntry;
        await target.migrate(folderWith(count));
        expect(await lastTag(target.query)).toBe(applied.tag);
        for (const statement of ROWS_AFTER[applied.tag] ?? []) await target.query(statement);
      }
      const opened = await target.db();
      try {
        const rows = target.query;
        for (const [table, n] of Object.entries(FIRST_SCHEMA_COUNTS)) {
          expect([table, (await rows(`select count(*)::int as n from "${table}"`))[0]?.n]).toEqual([table, n]);
        }

        const member = await findByEmail(opened.db, OLD_MEMBER_EMAIL);
        expect(member).toMatchObject({ firstName: 'สมชาย', lastName: 'ใจดี', closedAt: null });
        const [paid] = await rows(`select order_no from orders where idempotency_key = 'idem-2'`);
        const order = await orderView(opened.db, await visibleOrder(opened.db, { type: 'member', id: member!.id }, String(paid?.order_no)));
        expect(order).toMatchObject({ status: 'paid', paymentMethod: 'bank_transfer', totalSatang: 58_100, promotionCode: 'NEWYEAR', hasSlip: true });
        expect(order.address.recipientName).toBe('สมชาย ใจดี');
        expect(order.lines).toEqual([expect.objectContaining({ productCode: 'P00003', productName: 'น้ำหอมกุหลาบ', amount: 1, lineTotalSatang: 59_000 })]);
        expect(order.events.map((event) => event.toStatus)).toEqual(['pending_payment', 'paid']);

        // The card query with its joins (summariesByIds names cards from the process's own database).
        const cards = new Map((await summaryQuery(opened.db, undefined)).map((row) => [row.code, toSummary(row)]));
        // 0005 worked out "wholesale from" from the tiers that were there.
        expect(cards.get('P00001')).toMatchObject({ name: 'ตุ๊กตาหมีของขวัญ', wholesaleFromSatang: 25_000, categoryCode: 'gifts', brandName: 'Yimlamai' });
        expect(cards.get('P00002')).toMatchObject({ wholesaleFromSatang: null, stock: 0 });
        expect(cards.get('P00004')).toMatchObject({ wholesaleFromSatang: 4_000, brandCode: null });
        // 0012 put the Thai marks of older search text in stored order.
        const [perfume] = await rows(`select search_text from products where code = 'P00003'`);
        expect(perfume?.search_text).toBe(STORED_ORDER_SEARCH_TEXT);
        expect((await listActiveCategories(opened.db)).map((category) => category.code)).toEqual(expect.arrayContaining(['gifts', 'makeup', 'perfume']));
        // 0013 linked the page versions written by a member's email to the member.
        const versions = await rows(`select kind, author_email, author_id::text as author from content_page_versions order by id`);
        expect(versions).toEqual([
          { kind: 'seed', author_email: '', author: null },
          { kind: 'publish', author_email: OLD_MEMBER_EMAIL.toUpperCase(), author: member!.id },
        ]);
      } finally {
        await opened.close();
      }
    } finally {
      await target.close();
    }
  });

  it('leaves the database as it was when a migration fails, and says which one and why', async () => {
    const target = await newTarget('fail');
    try {
      // A shop at the release before the latest; the latest migration and a broken one wait.
      const previous = journal.length - 1;
      await fillFirstSchema(target);
      await target.migrate(folderWith(previous));
      const before = await snapshot(target.query);
      const broken = folderWith(journal.length, BROKEN);
      const reason = new RegExp(
        `^migration ${BROKEN.tag} failed: could not create unique index "products_one_per_category_idx" \\(23505\\)\\. ` +
          `Nothing was applied \\(the 2 waiting \\(${latest.tag} to ${BROKEN.tag}\\) ran in one transaction, rolled back\\): ` +
          `the database is still at ${journal[previous - 1]?.tag}\\.`,
      );

      await expect(target.migrate(broken)).rejects.toThrow(reason);
      expect(await snapshot(target.query)).toEqual(before);
      // The shop's start refuses with the same reason (the server prints it and exits: tests/server/upgrades.test.ts).
      if (target.start) {
        await expect(target.start(broken)).rejects.toMatchObject({ name: 'MigrationError', message: expect.stringMatching(reason) });
        expect(await snapshot(target.query)).toEqual(before);
      }

      // With the broken migration taken out, the same database upgrades.
      await target.migrate(migrationsFolder());
      expect(await lastTag(target.query)).toBe(latest.tag);
    } finally {
      await target.close();
    }
  });
});
