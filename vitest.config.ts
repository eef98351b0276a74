import { defineConfig } from 'vitest/config';
import { projectNodePool } from './tests/project-node-pool.ts';

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
          // The demo shop is seeded once; each file starts from a copy of its own (global-setup.ts), on
          // PGlite and on PostgreSQL alike, so files run side by side on both.
          globalSetup: ['tests/integration/global-setup.ts'],
          setupFiles: ['tests/integration/setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          pool,
          // The demo shop seeded once; each file's demo shop starts from it (global-setup.ts).
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Each file starts its own servers on ports of its own (and its own PostgreSQL databases), so two
          // run side by side, one per core.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
