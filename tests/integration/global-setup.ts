/**
 * Seeds the demo shop once for the whole integration run; every test file then starts from a copy
 * (docs/decisions/170): on PGlite, a dump of the seeded data directory that each file's in-memory
 * database loads; on PostgreSQL, the run's database seeded once and used as the template of a database
 * per file (`CREATE DATABASE … TEMPLATE`), so files run in parallel there too. The demo pictures the
 * seed drew are copied into each file's DATA_DIR beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dropFileDatabases } from '../fixtures/database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory holding `uploads/` with the seeded demo pictures, and `pglite.tar` on PGlite. */
    seedDir: string;
    /** On PostgreSQL: the database every test file's database is created from. */
    seedTemplateUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const seedDir = mkdtempSync(path.join(process.env.TMPDIR ?? tmpdir(), 'shop-test-seed-'));
  const templateUrl = process.env.TEST_DATABASE_URL || null;
  process.env.DATA_DIR = path.join(seedDir, 'data');
  process.env.DATABASE_URL = templateUrl ?? 'memory://';
  process.env.SEED_DEMO = 'false';
  process.env.LOG_LEVEL ??= 'error';

  const { SEED_PRODUCTS } = await import('../fixtures/database');
  if (templateUrl) {
    const { seedDemo } = await import('../../src/server/db/seed');
    const schema = await import('../../src/server/db/schema');
    const { openDatabase } = await import('../../src/server/db/client');
    await dropFileDatabases(templateUrl);
    const opened = await openDatabase({ url: templateUrl, dataDir: process.env.DATA_DIR, poolSize: 2 });
    try {
      const [company] = await opened.db.select().from(schema.company).limit(1);
      if (company) throw new Error(`TEST_DATABASE_URL names a database that is not empty: ${templateUrl}`);
      await seedDemo(opened.db, { products: SEED_PRODUCTS });
    } finally {
      await opened.close();
    }
  } else {
    const { writeDemoDump } = await import('../fixtures/demo-snapshot');
    await writeDemoDump(path.join(seedDir, 'pglite.tar'), SEED_PRODUCTS);
  }
  project.provide('seedDir', seedDir);
  project.provide('seedTemplateUrl', templateUrl);

  return async () => {
    if (templateUrl) await dropFileDatabases(templateUrl);
    rmSync(seedDir, { recursive: true, force: true });
  };
}
