import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';

// Statements on a PostgreSQL server (docs/decisions/148): prepared once per connection and left to the
// server's plan cache, except those with a text pattern, which are planned for their values each run.
// One connection, so pg_prepared_statements (a per-session view) shows every statement sent.
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('statements on a PostgreSQL server', () => {
  let opened: Database;

  beforeAll(async () => {
    opened = await openDatabase({ url: process.env.TEST_DATABASE_URL, dataDir: '/nonexistent', poolSize: 1 });
  });
  afterAll(async () => {
    await opened.close();
  });

  const plansOf = async (fragment: string) =>
    opened.rows<{ generic: number; custom: number }>(
      sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like ${`%${fragment}%`} and statement not like '%pg_prepared_statements%'`,
    );

  it('prepares a plain statement once and lets the server keep its plan', async () => {
    for (let i = 0; i < 8; i++) {
      const rows = await opened.rows<{ code: string }>(sql`select code as "plainPlanProbe" from products where price_satang >= ${i} order by price_satang, id limit ${2}`);
      expect(rows).toHaveLength(2);
    }
    const [plans] = await plansOf('plainPlanProbe');
    expect(plans).toBeDefined();
    // Every run used the one prepared statement, with a custom or the kept generic plan.
    expect(Number(plans?.generic) + Number(plans?.custom)).toBe(8);
  });

  it('plans a text-pattern statement for its values: it is never prepared', async () => {
    for (const word of ['ลิป', 'ของขวัญ', 'ลิป']) {
      const rows = await opened.rows<{ n: number }>(sql`select count(*)::int as "patternProbe" from products where search_text like ${`%${word}%`}`);
      expect(rows).toHaveLength(1);
    }
    expect(await plansOf('patternProbe')).toEqual([]);
  });

  it('answers inside a transaction as before, pattern or not', async () => {
    // postgres.js answers a list of rows.
    const first = (result: unknown) => Number((result as { n: number }[])[0]?.n);
    const counted = await opened.db.transaction(async (tx) => {
      const all = first(await tx.execute(sql`select count(*)::int as n from products where active`));
      const lips = first(await tx.execute(sql`select count(*)::int as n from products where active and search_text like ${'%ลิป%'}`));
      return { all, lips };
    });
    expect(counted.all).toBeGreaterThan(counted.lips);
    expect(counted.lips).toBeGreaterThan(0);
  });
});

// The same server through its Unix socket, named in DATABASE_URL as libpq writes it (postgres-url.ts).
const socketDirectory = process.env.TEST_POSTGRES_SOCKET_DIR ?? '/var/run/postgresql';
const serverUrl = process.env.TEST_DATABASE_URL ? new URL(process.env.TEST_DATABASE_URL) : null;
const socketFile = serverUrl ? path.join(socketDirectory, `.s.PGSQL.${serverUrl.port || 5432}`) : '';
describe.runIf(serverUrl !== null && existsSync(socketFile))('a PostgreSQL server through its Unix socket', () => {
  const user = serverUrl?.username ?? '';
  const databaseName = serverUrl?.pathname.slice(1) ?? '';
  const port = serverUrl?.port || '5432';

  const connectedBySocket = async (url: string) => {
    const opened = await openDatabase({ url, dataDir: '/nonexistent', poolSize: 1 });
    try {
      // inet_client_addr() is null for a connection that came through a Unix socket, not TCP.
      const [row] = await opened.rows<{ address: string | null; database: string }>(
        sql`select inet_client_addr()::text as address, current_database() as database`,
      );
      const heard: string[] = [];
      const unsubscribe = await opened.subscribe('socket_probe', (payload) => heard.push(payload), () => {});
      await opened.rows(sql`select pg_notify('socket_probe', 'heard')`);
      await expect.poll(() => heard).toEqual(['heard']);
      await unsubscribe();
      return row;
    } finally {
      await opened.close();
    }
  };

  it('reads the directory from ?host= (with no host in the authority, after a user name)', async () => {
    const row = await connectedBySocket(`postgres://${user}@:${port}/${databaseName}?host=${encodeURIComponent(socketDirectory)}`);
    expect(row).toEqual({ address: null, database: databaseName });
  });

  it('reads the directory percent-encoded in the authority', async () => {
    const row = await connectedBySocket(`postgres://${user}@${encodeURIComponent(socketDirectory)}:${port}/${databaseName}`);
    expect(row).toEqual({ address: null, database: databaseName });
  });
});
