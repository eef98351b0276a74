/**
 * Scheduled rolling backups (BACKUP_EVERY_HOURS, BACKUP_KEEP; docs/operations.md, decision 207). The
 * server starts the schedule once at start-up, like the order sweeper, and stops it when it shuts down.
 * Each run: take the job's lock (PostgreSQL: `pg_try_advisory_lock` on a connection of its own, so of
 * several instances one works and the others go on at once; the embedded database has one process),
 * look at the newest scheduled archive in the store, and when one is due write a new one
 * (./backup.service.ts), keep it, and only then delete the oldest beyond BACKUP_KEEP. Runs never overlap: the next is planned when the
 * last has ended. Results are logged and counted for GET /metrics (./schedule-status.ts).
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { database } from '../db/client.ts';
import { postgresTarget } from '../db/postgres-url.ts';
import { env } from '../env.ts';
import { onShutdown } from '../lifecycle.ts';
import { errorFields, log } from '../log.ts';
import { createBackup } from './backup.service.ts';
import { backupStoreFor, workFolder, type BackupStore } from './backup-store.ts';
import { backupScheduleStatus, sawScheduledArchive } from './schedule-status.ts';
import { archivesToDelete, backupDue, nextCheckInMs, retryInMs, scheduledArchiveName, scheduledArchives } from './schedule-rules.ts';

/** The advisory lock key of this job (beside MIGRATION_LOCK_KEY 7_243_001 and AUTO_DELIVER_LOCK_KEY 7_243_002). */
export const BACKUP_LOCK_KEY = 7_243_003;

export interface ScheduledRun {
  now: Date;
  everyHours: number;
  keep: number;
  store: BackupStore;
  /** Local folder for the archive being written (`<name>.part`). */
  workDir: string;
}

export type ScheduledOutcome =
  | { result: 'written'; name: string; at: Date; bytes: number; rows: number; ms: number; deleted: string[]; deleteFailed: string[] }
  | { result: 'not due'; newest: Date | null }
  | { result: 'locked' };

/** One run of the schedule at the clock's `now` (tests pass their own). Throws when the backup fails. */
export async function runScheduledBackup(run: ScheduledRun): Promise<ScheduledOutcome> {
  const opened = await database();
  const url = env().DATABASE_URL;
  if (opened.kind === 'pglite' || !url) return backUpIfDue(run);
  // The lock is held on a connection of its own, not one of the pool's: the backup reads on the pool,
  // which may have a single connection (DATABASE_POOL_SIZE=1). Closing the connection releases it.
  const { default: postgres } = await import('postgres');
  const { url: target, host } = postgresTarget(url);
  const holder = postgres(target, { ...(host ? { host } : {}), max: 1, connect_timeout: 10, onnotice: () => {} });
  try {
    const [row] = await holder<{ locked: boolean }[]>`select pg_try_advisory_lock(${BACKUP_LOCK_KEY}) as locked`;
    if (row?.locked !== true) return { result: 'locked' };
    try {
      return await backUpIfDue(run);
    } finally {
      await holder`select pg_advisory_unlock(${BACKUP_LOCK_KEY})`.catch(() => {});
    }
  } finally {
    await holder.end({ timeout: 5 });
  }
}

async function backUpIfDue({ now, everyHours, keep, store, workDir }: ScheduledRun): Promise<ScheduledOutcome> {
  const newest = scheduledArchives(await store.list())[0]?.at ?? null;
  if (!backupDue(newest, now, everyHours)) return { result: 'not due', newest };
  const name = scheduledArchiveName(now);
  await mkdir(workDir, { recursive: true });
  const part = path.join(workDir, `.${name}.part`);
  try {
    const done = await createBackup(part);
    const { size } = await stat(part);
    await store.keep(part, name);
    const deleted: string[] = [];
    const deleteFailed: string[] = [];
    for (const old of archivesToDelete(await store.list(), keep)) {
      try {
        await store.delete(old);
        deleted.push(old);
      } catch (error) {
        deleteFailed.push(old);
        log.warn('old scheduled backup not deleted', { archive: old, ...errorFields(error) });
      }
    }
    const rows = done.manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    return { result: 'written', name, at: now, bytes: size, rows, ms: done.ms, deleted, deleteFailed };
  } finally {
    await rm(part, { force: true });
  }
}

const scheduleKey = Symbol.for('yimlamai.backupSchedule');

interface Schedule {
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  stopped: boolean;
}

const FAILED_RETRY_CEILING_MS = 15 * 60_000;
const LOCKED_RETRY_CEILING_MS = 60_000;

/**
 * Starts the schedule in this process (idempotent; off when BACKUP_EVERY_HOURS is 0). The first look is
 * a few seconds after start-up (at most ten), so the server is serving first.
 */
export function startBackupSchedule(): void {
  const holder = globalThis as unknown as Record<symbol, Schedule | undefined>;
  if (holder[scheduleKey]) return;
  const config = env();
  const everyHours = config.BACKUP_EVERY_HOURS;
  if (everyHours <= 0) return;
  const store = backupStoreFor(config);
  const workDir = workFolder(config.DATA_DIR);
  const schedule: Schedule = { timer: undefined, running: undefined, stopped: false };
  holder[scheduleKey] = schedule;

  const plan = (ms: number) => {
    if (schedule.stopped) return;
    schedule.timer = setTimeout(tick, ms);
    schedule.timer.unref();
  };
  const tick = () => {
    schedule.timer = undefined;
    const now = new Date();
    schedule.running = runScheduledBackup({ now, everyHours, keep: config.BACKUP_KEEP, store, workDir })
      .then((outcome) => {
        if (outcome.result === 'written') {
          sawScheduledArchive(outcome.at);
          backupScheduleStatus().lastDurationSeconds = outcome.ms / 1000;
          log.info('scheduled backup written', {
            archive: outcome.name,
            where: store.where,
            bytes: outcome.bytes,
            rows: outcome.rows,
            ms: outcome.ms,
            deleted: outcome.deleted,
          });
          return nextCheckInMs(outcome.at, new Date(), everyHours);
        }
        if (outcome.result === 'locked') {
          log.info('scheduled backup left to another instance', { reason: 'it holds the backup lock' });
          return retryInMs(everyHours, LOCKED_RETRY_CEILING_MS);
        }
        sawScheduledArchive(outcome.newest);
        log.debug('scheduled backup not due', { newest: outcome.newest?.toISOString() ?? null });
        return nextCheckInMs(outcome.newest, new Date(), everyHours);
      })
      .catch((error: unknown) => {
        if (schedule.stopped) {
          log.warn('scheduled backup stopped by the shutdown', errorFields(error));
        } else {
          backupScheduleStatus().failures += 1;
          log.error('scheduled backup failed', { where: store.where, ...errorFields(error) });
        }
        return retryInMs(everyHours, FAILED_RETRY_CEILING_MS);
      })
      .then((ms) => {
        schedule.running = undefined;
        plan(ms);
      });
  };
  plan(Math.min(10_000, retryInMs(everyHours, 10_000)));
  log.info('backup schedule started', { everyHours, keep: config.BACKUP_KEEP, where: store.where });
  onShutdown('backup schedule', () => stopBackupSchedule());
}

/**
 * Stops the schedule: no new run starts (the server calls this as its shutdown begins, before the drain);
 * resolves when a run under way has ended, before the database closes.
 */
export async function stopBackupSchedule(): Promise<void> {
  const holder = globalThis as unknown as Record<symbol, Schedule | undefined>;
  const schedule = holder[scheduleKey];
  if (!schedule) return;
  schedule.stopped = true;
  clearTimeout(schedule.timer);
  if (!schedule.running) return;
  // A run under way is let finish (half an archive is worth nothing), for as long as a request may take.
  let waited: NodeJS.Timeout | undefined;
  await Promise.race([schedule.running, new Promise((resolve) => (waited = setTimeout(resolve, env().SHUTDOWN_TIMEOUT_MS)))]);
  clearTimeout(waited);
}
