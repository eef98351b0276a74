/**
 * What GET /metrics reports of the backup schedule (runtime/metrics.ts; ./backup-schedule.ts writes it).
 * Kept on globalThis, as the server (runtime/) and the Astro bundle load modules apart, and a module of
 * its own so the metrics load it without the database code. Per process: each instance its own.
 */
export interface BackupScheduleStatus {
  /** Unix seconds of the newest scheduled archive this process wrote or saw in the store; 0: none yet. */
  lastSuccessSeconds: number;
  /** Seconds the last archive this process wrote took; 0: none yet. */
  lastDurationSeconds: number;
  /** Runs that failed in this process. */
  failures: number;
}

const statusKey = Symbol.for('yimlamai.backupSchedule.status');

export function backupScheduleStatus(): BackupScheduleStatus {
  const holder = globalThis as unknown as Record<symbol, BackupScheduleStatus | undefined>;
  holder[statusKey] ??= { lastSuccessSeconds: 0, lastDurationSeconds: 0, failures: 0 };
  return holder[statusKey];
}

/** A scheduled archive started at `at` exists (written here or seen in the store). */
export function sawScheduledArchive(at: Date | null): void {
  if (!at) return;
  const status = backupScheduleStatus();
  status.lastSuccessSeconds = Math.max(status.lastSuccessSeconds, at.getTime() / 1000);
}
