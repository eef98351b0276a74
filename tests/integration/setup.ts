/**
 * Every integration test file gets a database with the demo catalog: a fresh in-memory PGlite by
 * default, or the PostgreSQL database named by TEST_DATABASE_URL, emptied and reseeded per file.
 */
import { afterAll, beforeAll } from 'vitest';
import { resetDatabase } from '../fixtures/database';

process.env.DATABASE_URL = process.env.TEST_DATABASE_URL || 'memory://';
process.env.SEED_DEMO = 'false';
process.env.LOG_LEVEL ??= 'error';
process.env.DATA_DIR ??= `${process.env.TMPDIR ?? '/tmp'}/shop-test-${process.pid}`;

beforeAll(async () => {
  await resetDatabase();
  // Mails leave through the outbox as in the server (into DATA_DIR/outbox without SMTP_URL).
  process.env.MAIL_POLL_SECONDS ??= '1';
  const { startMailWorker } = await import('../../src/server/mail/outbox-worker');
  startMailWorker();
});

afterAll(async () => {
  const { runShutdownHooks } = await import('../../src/server/lifecycle');
  await runShutdownHooks();
});
