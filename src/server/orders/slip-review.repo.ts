import { and, asc, eq, gt, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { orders, slipLooks } from '../db/schema.ts';

/** Queries of the slip review queue: the orders whose slip waits, oldest first, and who looked at which slip. */

const waitingSlip = and(eq(orders.status, 'payment_review'), isNotNull(orders.slipPath));

/**
 * The first waiting order after `after` in the queue's order (oldest first, then by number), or, when
 * none comes after it, the oldest waiting order other than `after`. Null when no slip waits.
 */
export async function nextWaitingSlip(db: DbOrTx, after: { orderNo: string; createdAt: Date } | null): Promise<string | null> {
  const pick = async (condition: ReturnType<typeof and>) => {
    const [row] = await db.select({ orderNo: orders.orderNo }).from(orders).where(condition).orderBy(asc(orders.createdAt), asc(orders.orderNo)).limit(1);
    return row?.orderNo ?? null;
  };
  if (!after) return pick(waitingSlip);
  const later = or(gt(orders.createdAt, after.createdAt), and(eq(orders.createdAt, after.createdAt), gt(orders.orderNo, after.orderNo)));
  return (await pick(and(waitingSlip, later))) ?? pick(and(waitingSlip, ne(orders.orderNo, after.orderNo)));
}

export async function countWaitingSlips(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(waitingSlip);
  return Number(row?.n ?? 0);
}

/** Notes that this staff member has the order's current slip in front of them (a new look replaces the old). */
export async function recordSlipLook(db: DbOrTx, staffId: string, orderNo: string): Promise<void> {
  await db.execute(sql`
    insert into ${slipLooks} (order_id, staff_id, slip_path, looked_at)
    select ${orders.id}, ${staffId}, ${orders.slipPath}, now() from ${orders}
    where ${orders.orderNo} = ${orderNo} and ${orders.slipPath} is not null
    on conflict (order_id, staff_id) do update set slip_path = excluded.slip_path, looked_at = excluded.looked_at`);
}

/** Of these orders, the numbers whose current slip this staff member has looked at. */
export async function ordersWithSlipLookedAt(db: DbOrTx, staffId: string, orderNos: string[]): Promise<Set<string>> {
  if (orderNos.length === 0) return new Set();
  const rows = await db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .innerJoin(slipLooks, and(eq(slipLooks.orderId, orders.id), eq(slipLooks.staffId, staffId), eq(slipLooks.slipPath, orders.slipPath)))
    .where(inArray(orders.orderNo, orderNos));
  return new Set(rows.map((row) => row.orderNo));
}
