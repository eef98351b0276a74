import { sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { AppError } from '../http/errors.ts';
import { getCompany } from '../company/company.service.ts';
import { SYSTEM_ACTOR } from '../audit/audit.service.ts';
import * as repo from './order.repo.ts';
import { applyStatusChange } from './order-status.service.ts';

/**
 * issue 29: a shipped order that its member never confirmed (ได้รับสินค้าแล้ว) counts as delivered
 * `company.autoDeliverDays` days after it shipped, as Shopee does. Run by the order sweeper on every
 * instance; one instance at a time does the work (decision 183).
 */

/** The advisory lock key of this job (next to MIGRATION_LOCK_KEY, 7_243_001). */
export const AUTO_DELIVER_LOCK_KEY = 7_243_002;
const BATCH = 200;
const DAY_MS = 86_400_000;

export interface AutoDeliverResult {
  /** False when another instance held the job's lock: it does this round, this one did nothing. */
  ran: boolean;
  delivered: string[];
}

/**
 * Marks delivered every order shipped at least the configured number of days before `now`. The whole
 * round is one transaction holding `pg_try_advisory_xact_lock`: a second instance starting the same
 * round meanwhile gets `ran: false` at once instead of waiting. Each order is its own savepoint, so an
 * order its member confirmed a moment ago (row lock, status check) is skipped and the rest go on.
 * `now` is a parameter so tests move the clock instead of waiting.
 */
export async function deliverLongShippedOrders(now = new Date()): Promise<AutoDeliverResult> {
  const db = await getDb();
  const company = await getCompany();
  const days = company.autoDeliverDays;
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  const note = `ยืนยันรับสินค้าอัตโนมัติ (จัดส่งแล้วเกิน ${days} วัน)`;
  return db.transaction(async (tx) => {
    const locked = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${AUTO_DELIVER_LOCK_KEY}) as locked`));
    if (locked[0]?.locked !== true) return { ran: false, delivered: [] };
    const due = await repo.shippedOrdersBefore(tx, cutoff, BATCH);
    const delivered: string[] = [];
    for (const orderNo of due) {
      try {
        await tx.transaction((savepoint) =>
          applyStatusChange(savepoint, company, now, { type: 'system', id: null }, orderNo, { action: 'deliver', note }, { audit: SYSTEM_ACTOR, expectedStatus: 'shipped' }),
        );
        delivered.push(orderNo);
      } catch (error) {
        // Confirmed by its member or by staff meanwhile: their move won, nothing to do here.
        if (!(error instanceof AppError)) throw error;
      }
    }
    return { ran: true, delivered };
  });
}

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
