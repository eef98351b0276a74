import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { orderSlipChecks, orders, slipReferences, type SlipCheckStatus } from '../db/schema.ts';
import type { SlipFilter } from '../../lib/slip-check.ts';

export type SlipCheckRow = typeof orderSlipChecks.$inferSelect;

/**
 * Claims a bank + reference for an order. The insert waits on a concurrent claim of the same reference
 * until it commits or rolls back, then either claims it or finds the holder: the unique index decides.
 */
export async function claimReference(tx: DbOrTx, bank: string, reference: string, orderId: string): Promise<{ orderId: string; orderNo: string }> {
  await tx.insert(slipReferences).values({ bank, reference, orderId }).onConflictDoNothing();
  const [holder] = await tx
    .select({ orderId: slipReferences.orderId, orderNo: orders.orderNo })
    .from(slipReferences)
    .innerJoin(orders, eq(orders.id, slipReferences.orderId))
    .where(and(eq(slipReferences.bank, bank), eq(slipReferences.reference, reference)))
    .limit(1);
  if (!holder) throw new Error('slip reference claim found no holder');
  return holder;
}

export async function slipCheckOf(db: DbOrTx, orderId: string): Promise<SlipCheckRow | null> {
  const [row] = await db.select().from(orderSlipChecks).where(eq(orderSlipChecks.orderId, orderId)).limit(1);
  return row ?? null;
}

export async function slipChecksOf(db: DbOrTx, orderIds: string[]): Promise<Map<string, SlipCheckRow>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.select().from(orderSlipChecks).where(inArray(orderSlipChecks.orderId, orderIds));
  return new Map(rows.map((row) => [row.orderId, row]));
}

export async function saveSlipCheck(tx: DbOrTx, check: typeof orderSlipChecks.$inferInsert): Promise<void> {
  const { orderId: _orderId, ...values } = check;
  await tx
    .insert(orderSlipChecks)
    .values(check)
    .onConflictDoUpdate({ target: orderSlipChecks.orderId, set: { ...values, checkedAt: sql`now()` } });
}

export async function dropSlipCheck(tx: DbOrTx, orderId: string): Promise<void> {
  await tx.delete(orderSlipChecks).where(eq(orderSlipChecks.orderId, orderId));
}

/** Whether this order ever sent a slip with this reference before (a rejected one, say). */
export async function orderHadReference(db: DbOrTx, orderId: string, bank: string, reference: string): Promise<boolean> {
  const [row] = await db
    .select({ id: slipReferences.id })
    .from(slipReferences)
    .where(and(eq(slipReferences.orderId, orderId), eq(slipReferences.bank, bank), eq(slipReferences.reference, reference)))
    .limit(1);
  return row !== undefined;
}

export type { SlipFilter };

/**
 * A WHERE condition on `orders` for the back office's review tab: orders whose current slip had no
 * readable QR, or whose QR gave a warning. Combine it with the tab's status condition.
 */
export function slipFilterCondition(filter: SlipFilter): SQL {
  const status: SlipCheckStatus = filter;
  return sql`exists (select 1 from ${orderSlipChecks} where ${orderSlipChecks.orderId} = ${orders.id} and ${orderSlipChecks.status} = ${status})`;
}

/** How many orders waiting for review are in each slip-check state (for the filter's badges). */
export async function countReviewBySlipCheck(db: DbOrTx): Promise<Record<SlipCheckStatus, number>> {
  const rows = await db
    .select({ status: orderSlipChecks.status, n: sql<number>`count(*)::int` })
    .from(orderSlipChecks)
    .innerJoin(orders, eq(orders.id, orderSlipChecks.orderId))
    .where(eq(orders.status, 'payment_review'))
    .groupBy(orderSlipChecks.status);
  const counts: Record<SlipCheckStatus, number> = { verified: 0, warning: 0, no_qr: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}
