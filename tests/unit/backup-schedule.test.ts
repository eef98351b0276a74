import { describe, expect, it } from 'vitest';
import {
  CHECK_AT_LEAST_MS,
  CHECK_AT_MOST_MS,
  archivesToDelete,
  backupDue,
  nextCheckInMs,
  retryInMs,
  scheduledArchiveName,
  scheduledArchiveTime,
  scheduledArchives,
} from '../../src/server/backup/schedule-rules';

/** The backup schedule's rules (decision 207) with a clock passed in: no waiting. */
const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;

describe('scheduled archive names', () => {
  it('carry the time their run started, and only theirs are read back', () => {
    const started = at('2026-11-27T04:05:06.789Z');
    const name = scheduledArchiveName(started);
    expect(name).toBe('scheduled-2026-11-27T04-05-06-789Z.tar.gz');
    expect(scheduledArchiveTime(name)).toEqual(started);
    // An operator's own backup, a run's unfinished file, and anything else are not the schedule's.
    for (const other of ['shop-2026-11-27T04-05-06-789Z.tar.gz', `.${name}.part`, `${name}.part`, 'scheduled-2026-13-45T99-00-00-000Z.tar.gz', 'notes.txt']) {
      expect(scheduledArchiveTime(other), other).toBeNull();
    }
  });

  it('are listed newest first, whatever order the store gives', () => {
    const names = ['scheduled-2026-11-25T00-00-00-000Z.tar.gz', 'manual.tar.gz', 'scheduled-2026-11-27T00-00-00-000Z.tar.gz', 'scheduled-2026-11-26T00-00-00-000Z.tar.gz'];
    expect(scheduledArchives(names).map((archive) => archive.name)).toEqual([
      'scheduled-2026-11-27T00-00-00-000Z.tar.gz',
      'scheduled-2026-11-26T00-00-00-000Z.tar.gz',
      'scheduled-2026-11-25T00-00-00-000Z.tar.gz',
    ]);
  });
});

describe('when a backup is due', () => {
  const newest = at('2026-11-27T00:00:00.000Z');

  it('is due at once when the store has none, and never when the schedule is off', () => {
    expect(backupDue(null, newest, 24)).toBe(true);
    expect(backupDue(null, newest, 0)).toBe(false);
  });

  it('is due a whole period after the newest started, not a millisecond before', () => {
    expect(backupDue(newest, new Date(newest.getTime() + 24 * HOUR - 1), 24)).toBe(false);
    expect(backupDue(newest, new Date(newest.getTime() + 24 * HOUR), 24)).toBe(true);
    expect(backupDue(newest, new Date(newest.getTime() + 0.5 * HOUR), 0.5)).toBe(true);
    // A clock behind the newest archive (another instance's, set ahead) waits rather than backs up.
    expect(backupDue(newest, new Date(newest.getTime() - HOUR), 1)).toBe(false);
  });

  it('looks again when the next is due, but within a second to five minutes', () => {
    expect(nextCheckInMs(newest, new Date(newest.getTime() + 24 * HOUR - 30_000), 24)).toBe(30_000);
    expect(nextCheckInMs(newest, newest, 24)).toBe(CHECK_AT_MOST_MS);
    expect(nextCheckInMs(newest, new Date(newest.getTime() + 48 * HOUR), 24)).toBe(CHECK_AT_LEAST_MS);
    expect(nextCheckInMs(null, newest, 24)).toBe(CHECK_AT_LEAST_MS);
  });

  it('tries again within the period after a failure or another instance’s lock, within the ceiling', () => {
    expect(retryInMs(24, 15 * 60_000)).toBe(15 * 60_000);
    expect(retryInMs(0.001, 15 * 60_000)).toBe(3_600);
    expect(retryInMs(0.0001, 60_000)).toBe(CHECK_AT_LEAST_MS);
  });
});

describe('which archives go', () => {
  const names = [
    'scheduled-2026-11-24T00-00-00-000Z.tar.gz',
    'scheduled-2026-11-27T00-00-00-000Z.tar.gz',
    'shop-2026-11-20T00-00-00-000Z.tar.gz',
    'scheduled-2026-11-25T00-00-00-000Z.tar.gz',
    'scheduled-2026-11-26T00-00-00-000Z.tar.gz',
  ];

  it('all scheduled ones but the newest BACKUP_KEEP, oldest included; an operator’s own are never touched', () => {
    expect(archivesToDelete(names, 2).sort()).toEqual(['scheduled-2026-11-24T00-00-00-000Z.tar.gz', 'scheduled-2026-11-25T00-00-00-000Z.tar.gz']);
    expect(archivesToDelete(names, 4)).toEqual([]);
    expect(archivesToDelete(names, 10)).toEqual([]);
  });

  it('always keeps the newest one', () => {
    expect(archivesToDelete(names, 1)).not.toContain('scheduled-2026-11-27T00-00-00-000Z.tar.gz');
    expect(archivesToDelete(names, 0)).toHaveLength(3);
  });
});
