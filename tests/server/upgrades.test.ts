/**
 * A release whose migration fails (issue 34 section 4, docs/decisions/208): the shop's start refuses to
 * serve rather than half-migrate. /readyz never says ready, the process exits 1 with one line naming
 * the migration, the database's reason and the migration the database is still at, and the same data
 * directory starts once the migration is taken out. On the embedded database with its own thread
 * (the error crosses from that thread); tests/integration/migrations.test.ts shows on both databases
 * that nothing of the failed start stays in the database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/server/db/client';
import { migrationJournal } from '../../src/server/db/migrations';
import { migrationsFolderWith, nextTag } from '../fixtures/migrations-folder';
import { startServer, stopServer, waitReady, type ServerProcess } from '../fixtures/server-process';

const PORT = 4880;
const scratch = mkdtempSync(path.join(tmpdir(), 'shop-upgrades-'));
const servers: ServerProcess[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => stopServer(server, 'SIGKILL')));
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

function start(env: Record<string, string>): ServerProcess {
  const server = startServer(PORT, { DATA_DIR: path.join(scratch, 'data'), SEED_DEMO: 'false', MAIL_POLL_SECONDS: '0', ORDER_SWEEP_SECONDS: '0', ...env });
  servers.push(server);
  return server;
}

describe('a release whose migration fails', () => {
  it('is never ready, exits with the reason, and leaves a data directory that starts once the migration is taken out', { timeout: 120_000 }, async () => {
    // A new data directory: every migration waits, the broken one last (one server start fewer than
    // upgrading a shop first; tests/integration/migrations.test.ts breaks the upgrade of a shop with data).
    const journal = migrationJournal(migrationsFolder());
    const tag = nextTag(journal.length, 'broken_on_purpose');
    const broken = migrationsFolderWith(scratch, journal.length, {
      tag,
      sql: [
        'CREATE TABLE "upgrade_probe" ("id" serial PRIMARY KEY NOT NULL);',
        'ALTER TABLE "orders" ADD CONSTRAINT "orders_probe_fk" FOREIGN KEY ("member_id") REFERENCES "no_such_table"("id");',
      ].join('\n--> statement-breakpoint\n'),
    });
    const failing = start({ MIGRATIONS_DIR: broken });
    const answers = new Set<number>();
    while (failing.child.exitCode === null) {
      const status = await fetch(`${failing.base}/readyz`).then(
        (response) => response.status,
        () => 0,
      );
      if (status) answers.add(status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await failing.exited).toBe(1);
    expect([...answers].filter((status) => status !== 503)).toEqual([]);
    expect(failing.output()).toContain(
      `Could not open the database: migration ${tag} failed: relation "no_such_table" does not exist (42P01). ` +
        `Nothing was applied (the ${journal.length + 1} waiting (${journal[0]?.tag} to ${tag}) ran in one transaction, rolled back): ` +
        'the database is still at no migration yet (an empty database).',
    );

    const again = start({});
    await waitReady(again);
    await stopServer(again);
  });
});
