/**
 * Seeds the demo shop once for the server tests: each file's demo shop (demoShopForFile in
 * tests/fixtures/server-process.ts) starts the built server on an in-memory database loaded from this
 * dump, with a copy of its pictures, instead of migrating and seeding a shop of its own at start
 * (docs/decisions/231). Servers started otherwise (start-up, upgrades, PostgreSQL) are unchanged.
 *
 * The seeding runs beside the first test files rather than before them: files that start servers of
 * their own get on meanwhile, and a demo shop waits for `ready` (or `failed`, with the reason) to appear.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Holds `pglite.tar` (the seeded demo shop) and `data/` (its pictures) once `ready` is there. */
    demoSnapshotDir: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

export default function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(path.join(process.env.TMPDIR ?? tmpdir(), 'shop-server-demo-'));
  const env = { PATH: process.env.PATH ?? '', TMPDIR: process.env.TMPDIR ?? tmpdir(), LOG_LEVEL: 'error' };
  const seeded = new Promise<void>((resolve) => {
    execFile(process.execPath, ['tests/fixtures/demo-snapshot.ts', dir], { cwd: root, env, timeout: 180_000, maxBuffer: 4 * 1024 * 1024 }, (error, _stdout, stderr) => {
      writeFileSync(path.join(dir, error ? 'failed' : 'ready'), error ? `${error.message}\n${stderr}` : '');
      resolve();
    });
  });
  project.provide('demoSnapshotDir', dir);
  return async () => {
    await seeded;
    rmSync(dir, { recursive: true, force: true });
  };
}
