import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { orders, type OrderStatus } from '../db/schema.ts';

export interface PurchaseSummary {
  orderNo: string;
  status: OrderStatus;
  totalSatang: number;
  createdAt: Date;
}

/** The member's latest orders, optionally only some statuses (scoped by member, never by order id alone). */
export async function memberPurchases(db: DbOrTx, memberId: string, statuses: readonly string[], limit = 50): Promise<PurchaseSummary[]> {
  const where = statuses.length > 0 ? and(eq(orders.memberId, memberId), inArray(orders.status, statuses as OrderStatus[])) : eq(orders.memberId, memberId);
  return db
    .select({ orderNo: orders.orderNo, status: orders.status, totalSatang: orders.totalSatang, createdAt: orders.createdAt })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt))
    .limit(limit);
}
