/**
 * The rules of the backup schedule (BACKUP_EVERY_HOURS, BACKUP_KEEP; decision 207) as pure functions of
 * a clock passed in, so tests move time instead of waiting. ./backup-schedule.ts runs them.
 *
 * A scheduled archive is named by the time its run started: `scheduled-2026-11-27T04-00-00-000Z.tar.gz`.
 * The name is the schedule's memory: whichever instance wrote the newest one, the next is due a period
 * after it, so instances sharing the store (STORAGE_URL or one DATA_DIR) make one archive per period.
 * Archives named otherwise (a `backup` typed by the operator) are never counted nor deleted.
 */
const PREFIX = 'scheduled-';
const SUFFIX = '.tar.gz';
const NAME_PATTERN = /^scheduled-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.tar\.gz$/;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The earliest and latest wait before the schedule looks again. */
export const CHECK_AT_LEAST_MS = SECOND;
export const CHECK_AT_MOST_MS = 5 * MINUTE;

export interface ScheduledArchive {
  name: string;
  at: Date;
}

export function periodMs(everyHours: number): number {
  return Math.round(everyHours * HOUR);
}

/** The archive's name for a run started at `at`. */
export function scheduledArchiveName(at: Date): string {
  return `${PREFIX}${at.toISOString().replace(/[:.]/g, '-')}${SUFFIX}`;
}

/** When a scheduled archive's run started, or null for any other name (manual backups, `.part` files). */
export function scheduledArchiveTime(name: string): Date | null {
  const match = NAME_PATTERN.exec(name);
  if (!match) return null;
  const at = new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The scheduled archives among a listing of names, newest first. */
export function scheduledArchives(names: readonly string[]): ScheduledArchive[] {
  const found: ScheduledArchive[] = [];
  for (const name of names) {
    const at = scheduledArchiveTime(name);
    if (at) found.push({ name, at });
  }
  return found.sort((a, b) => b.at.getTime() - a.at.getTime() || (a.name < b.name ? 1 : -1));
}

/** A backup is due when there is none yet, or the newest started a whole period (or more) before `now`. */
export function backupDue(newest: Date | null, now: Date, everyHours: number): boolean {
  if (everyHours <= 0) return false;
  if (!newest) return true;
  return now.getTime() - newest.getTime() >= periodMs(everyHours);
}

/** How long to wait before looking again: until the next one is due, between one second and five minutes. */
export function nextCheckInMs(newest: Date | null, now: Date, everyHours: number): number {
  const dueAt = newest ? newest.getTime() + periodMs(everyHours) : now.getTime();
  return Math.min(CHECK_AT_MOST_MS, Math.max(CHECK_AT_LEAST_MS, dueAt - now.getTime()));
}

/**
 * After a failed run or while another instance holds the lock: try again within the period, but at
 * least a second and at most `ceilingMs` later.
 */
export function retryInMs(everyHours: number, ceilingMs: number): number {
  return Math.min(ceilingMs, Math.max(CHECK_AT_LEAST_MS, periodMs(everyHours)));
}

/**
 * Which scheduled archives go once a new one is written: all but the newest `keep`. Called only after a
 * run succeeded, so a failing schedule never deletes the archives it still has.
 */
export function archivesToDelete(names: readonly string[], keep: number): string[] {
  return scheduledArchives(names)
    .slice(Math.max(1, Math.floor(keep)))
    .map((archive) => archive.name);
}
