import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import postgres from 'postgres';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArchive } from '../../src/server/backup/archive';
import { localBackupStore, s3BackupStore, type BackupStore } from '../../src/server/backup/backup-store';
import { runScheduledBackup } from '../../src/server/backup/backup-schedule';
import { BACKUP_LOCK_KEY } from '../../src/server/backup/backup-schedule';
import { s3Driver } from '../../src/server/storage/s3';
import { setStorage } from '../../src/server/storage/storage';

/**
 * One run of the backup schedule (decision 207) at a clock the test sets: due or not, the archive kept
 * in the store whole, the oldest deleted beyond BACKUP_KEEP only after a new one is kept, the S3 store
 * under `backups/` (a real S3-protocol server, s3rver), and, on PostgreSQL, the lock one instance holds.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const HOUR = 3_600_000;
const start = new Date('2026-11-27T00:00:00.000Z');
const later = (ms: number) => new Date(start.getTime() + ms);
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-backup-schedule-'));
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a scheduled run into DATA_DIR/backups', () => {
  const folder = tempDir();
  const store = localBackupStore(folder);
  const run = (now: Date, keep = 2, on: BackupStore = store) => runScheduledBackup({ now, everyHours: 24, keep, store: on, workDir: folder });

  it('writes an archive when none is there, names it by its start, and restore can read it', async () => {
    writeFileSync(path.join(folder, 'shop-before-the-upgrade.tar.gz'), 'the operator’s own backup');
    const outcome = await run(start);
    expect(outcome).toMatchObject({ result: 'written', name: 'scheduled-2026-11-27T00-00-00-000Z.tar.gz', deleted: [] });
    const archive = await readArchive(path.join(folder, 'scheduled-2026-11-27T00-00-00-000Z.tar.gz'));
    expect(archive.manifest.tables.find((table) => table.name === 'products')?.rows).toBeGreaterThan(0);
  });

  it('is not due again within the period, and writes nothing', async () => {
    expect(await run(later(24 * HOUR - 1))).toEqual({ result: 'not due', newest: start });
    expect(readdirSync(folder).sort()).toEqual(['scheduled-2026-11-27T00-00-00-000Z.tar.gz', 'shop-before-the-upgrade.tar.gz']);
  });

  it('keeps the older archives when a run fails, and leaves no part of the failed one', async () => {
    const failing: BackupStore = { ...store, keep: () => Promise.reject(new Error('disk full')) };
    await expect(run(later(24 * HOUR), 1, failing)).rejects.toThrow('disk full');
    expect(readdirSync(folder).sort()).toEqual(['scheduled-2026-11-27T00-00-00-000Z.tar.gz', 'shop-before-the-upgrade.tar.gz']);
  });

  it('deletes the oldest beyond BACKUP_KEEP once the new one is kept, never the operator’s own', async () => {
    expect(await run(later(24 * HOUR), 1)).toMatchObject({ result: 'written', deleted: ['scheduled-2026-11-27T00-00-00-000Z.tar.gz'] });
    expect(readdirSync(folder).sort()).toEqual(['scheduled-2026-11-28T00-00-00-000Z.tar.gz', 'shop-before-the-upgrade.tar.gz']);
  });
});

describe('a scheduled run into S3 (STORAGE_URL)', () => {
  const BUCKET = 'shop-backups';
  let server: S3rver;
  let directory: string;
  let store: BackupStore;
  let objects: () => Promise<string[]>;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 's3rver-backups-'));
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port } = (await server.run()) as AddressInfo;
    const options = { bucket: BUCKET, endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } };
    store = s3BackupStore(options);
    // The uploads in the same bucket, as the shop keeps them with STORAGE_URL.
    const uploads = s3Driver(options);
    setStorage(uploads);
    await uploads.put('private', 'slips/one.webp', new Uint8Array([1, 2, 3]), 'image/webp');
    objects = async () => [...(await uploads.list('public', '')), ...(await uploads.list('private', ''))].map((object) => object.key);
  });

  afterAll(async () => {
    setStorage(undefined);
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps archives under backups/, apart from the uploads, and a backup never holds the older backups', async () => {
    const workDir = tempDir();
    const run = (now: Date) => runScheduledBackup({ now, everyHours: 1, keep: 1, store, workDir });
    expect(await run(start)).toMatchObject({ result: 'written' });
    expect(await store.list()).toEqual(['scheduled-2026-11-27T00-00-00-000Z.tar.gz']);
    expect(await objects()).toEqual(['slips/one.webp']);
    expect(await run(later(HOUR / 2))).toMatchObject({ result: 'not due' });
    expect(await run(later(HOUR))).toMatchObject({ result: 'written', deleted: ['scheduled-2026-11-27T00-00-00-000Z.tar.gz'] });
    expect(await store.list()).toEqual(['scheduled-2026-11-27T01-00-00-000Z.tar.gz']);
    // Nothing was left in the local work folder: the archive went to the bucket.
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('writes archives whose uploads are the shop’s only', async () => {
    const workDir = tempDir();
    const local = localBackupStore(workDir);
    expect(await runScheduledBackup({ now: start, everyHours: 1, keep: 1, store: local, workDir })).toMatchObject({ result: 'written' });
    const archive = await readArchive(path.join(workDir, 'scheduled-2026-11-27T00-00-00-000Z.tar.gz'));
    expect(archive.manifest.files.map((file) => `${file.visibility}/${file.key}`)).toEqual(['private/slips/one.webp']);
  });
});

describe.skipIf(!onPostgres)('several instances on one PostgreSQL database', () => {
  it('leaves the run to the instance holding the backup lock, and writes nothing meanwhile', async () => {
    const folder = tempDir();
    const other = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      await other.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(${BACKUP_LOCK_KEY})`;
        expect(await runScheduledBackup({ now: start, everyHours: 24, keep: 2, store: localBackupStore(folder), workDir: folder })).toEqual({ result: 'locked' });
      });
      expect(readdirSync(folder)).toEqual([]);
      // Released: the next instance to look does the run.
      expect(await runScheduledBackup({ now: start, everyHours: 24, keep: 2, store: localBackupStore(folder), workDir: folder })).toMatchObject({ result: 'written' });
    } finally {
      await other.end({ timeout: 5 });
    }
  });
});
