/**
 * Every integration test file gets a database of its own with the demo catalog, copied from the one
 * tests/integration/global-setup.ts seeded for the run: an in-memory PGlite loaded from its dump, or a
 * PostgreSQL database created from the seeded template (TEST_DATABASE_URL). Each file also gets a
 * DATA_DIR of its own (uploads, outbox) holding the seed's demo pictures.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { createFileDatabase, dropDatabase } from '../fixtures/database';

const seedDir = inject('seedDir');
const templateUrl = inject('seedTemplateUrl');

process.env.DATA_DIR = mkdtempSync(path.join(process.env.TMPDIR ?? tmpdir(), `shop-test-${process.pid}-`));
cpSync(path.join(seedDir, 'data'), process.env.DATA_DIR, { recursive: true });
process.env.SEED_DEMO = 'false';
process.env.LOG_LEVEL ??= 'error';
if (templateUrl) {
  const fileDatabase = await createFileDatabase(templateUrl);
  process.env.DATABASE_URL = fileDatabase;
  // Tests that open a second connection of their own (or start the CLI) name this file's database.
  process.env.TEST_DATABASE_URL = fileDatabase;
} else {
  process.env.DATABASE_URL = 'memory://';
  process.env.DATABASE_SNAPSHOT = path.join(seedDir, 'pglite.tar');
}

beforeAll(async () => {
  const { database } = await import('../../src/server/db/client');
  await database();
  // Mails leave through the outbox as in the server (into DATA_DIR/outbox without SMTP_URL).
  process.env.MAIL_POLL_SECONDS ??= '1';
  const { startMailWorker } = await import('../../src/server/mail/outbox-worker');
  startMailWorker();
});

afterAll(async () => {
  const { runShutdownHooks } = await import('../../src/server/lifecycle');
  await runShutdownHooks();
  if (templateUrl) await dropDatabase(process.env.DATABASE_URL as string);
});
