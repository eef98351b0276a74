import { defineConfig } from 'vitest/config';
import { projectNodePool } from './tests/project-node-pool.ts';

// Integration tests share one PostgreSQL database when TEST_DATABASE_URL is set, so their files run
// one after another there; on PGlite each file gets its own in-memory database.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
// Every project's files run on the project's Node, even under a plain `vitest` on an older one.
const pool = projectNodePool();

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          pool,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          pool,
          setupFiles: ['tests/integration/setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: !onPostgres,
          maxWorkers: onPostgres ? 1 : 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          pool,
          testTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
