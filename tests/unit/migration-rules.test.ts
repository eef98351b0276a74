import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractOperations, expandContractProblems } from '../../src/server/db/migration-rules';
import { migrationJournal, migrationSql } from '../../src/server/db/migrations';

/**
 * Expand, then contract (docs/decisions/208): the latest migration, and every one before it, only
 * adds to what the previous build reads; a contraction says after which earlier migration nothing
 * reads what it takes away. scripts/previous-build-check.ts runs the previous build for real.
 */
const folder = path.resolve(import.meta.dirname, '../../drizzle');
const journal = migrationJournal(folder);

describe('expand then contract', () => {
  it('holds the latest migration to the rule', () => {
    const latest = journal.at(-1)!;
    const earlier = journal.slice(0, -1).map((entry) => entry.tag);
    expect(expandContractProblems(latest.tag, migrationSql(folder, latest.tag), earlier)).toEqual([]);
  });

  it('holds every earlier migration to it too', () => {
    const problems = journal.flatMap((entry, index) =>
      expandContractProblems(
        entry.tag,
        migrationSql(folder, entry.tag),
        journal.slice(0, index).map((earlier) => earlier.tag),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('finds what takes something away from the previous build', () => {
    const sql = [
      'ALTER TABLE "products" DROP COLUMN "old_price";',
      'DROP TABLE "recruitments";',
      'ALTER TABLE "members" RENAME COLUMN "phone" TO "mobile";',
      'ALTER TABLE "orders" ALTER COLUMN "note" SET DATA TYPE varchar(200);',
      'ALTER TABLE "orders" ALTER COLUMN "carrier" TYPE text;',
      'ALTER TABLE "orders" ALTER COLUMN "carrier" SET NOT NULL;',
      'ALTER TABLE "products" ADD COLUMN "weight_grams" integer NOT NULL;',
      'DROP FUNCTION shop_thai_marks(text);',
    ].join('\n--> statement-breakpoint\n');
    expect(contractOperations(sql).map((found) => found.operation)).toEqual([
      'DROP COLUMN',
      'DROP TABLE',
      'RENAME',
      'ALTER COLUMN … TYPE',
      'ALTER COLUMN … TYPE',
      'SET NOT NULL',
      'ADD COLUMN … NOT NULL without a DEFAULT',
      'DROP of a view, type, sequence, function or schema',
    ]);
    const [problem] = expandContractProblems('0099_contract', sql, ['0098_expand']);
    expect(problem).toMatch(/^drizzle\/0099_contract\.sql: DROP COLUMN in "ALTER TABLE "products" DROP COLUMN "old_price";"\. A release's migration only adds \(expand\)/);
  });

  it('lets a release add, and words in comments and strings pass', () => {
    const sql = [
      'CREATE TABLE "variants" ("id" serial PRIMARY KEY NOT NULL, "name" text NOT NULL);',
      'ALTER TABLE "products" ADD COLUMN "variant_of" integer;',
      'ALTER TABLE "products" ADD COLUMN "weight_grams" integer DEFAULT 0 NOT NULL;',
      '-- a brand is renamed: drop the old column later\nCREATE INDEX "products_variant_idx" ON "products" ("variant_of");',
      "UPDATE \"content_pages\" SET \"body\" = 'drop table, rename' WHERE false;",
      'ALTER TABLE "orders" DROP CONSTRAINT "orders_old_check";',
    ].join('\n--> statement-breakpoint\n');
    expect(contractOperations(sql)).toEqual([]);
  });

  it('takes a contraction that names the earlier migration after which nothing reads it', () => {
    const sql = '-- contract: products.old_price is unread since 0098\nALTER TABLE "products" DROP COLUMN "old_price";';
    expect(expandContractProblems('0099_contract', sql, ['0097_a', '0098_expand'])).toEqual([]);
    expect(expandContractProblems('0099_contract', '-- contract: old\n' + sql.split('\n')[1], ['0098_expand'])).toEqual([
      'drizzle/0099_contract.sql: the "-- contract:" note above "ALTER TABLE "products" DROP COLUMN "old_price";" names no earlier migration (NNNN) after which nothing reads it.',
    ]);
  });
});
