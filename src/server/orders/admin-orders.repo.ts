import { and, asc, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { members, orderLines, orderSlipChecks, orders, orderStaffNotes, products } from '../db/schema.ts';
import type { SlipCheckStatus } from '../db/schema.ts';
import type { OrderStatus } from '../../lib/orders.ts';
import { slipFilterCondition, type SlipFilter } from '../payments/slip.repo.ts';

/** Queries of the back office's order pages and dashboard (every list pages on the server). */

export interface AdminOrderFilter {
  statuses: readonly OrderStatus[];
  q?: string | undefined;
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
  /** Slips without a readable QR, or with a warning (the review tab's filter). */
  slip?: SlipFilter | undefined;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Order number, the receiver's or the member's name, or a phone number (digits only). */
function searchCondition(q: string): SQL | undefined {
  const text = q.trim();
  if (!text) return undefined;
  const like = `%${escapeLike(text)}%`;
  const digits = text.replace(/\D/g, '');
  const parts: SQL[] = [
    sql`${orders.orderNo} ilike ${`${escapeLike(text.toUpperCase())}%`}`,
    sql`${orders.address}->>'recipientName' ilike ${like}`,
    sql`(${members.firstName} || ' ' || ${members.lastName}) ilike ${like}`,
  ];
  if (digits.length >= 3) {
    const phoneLike = `%${digits}%`;
    parts.push(sql`${orders.address}->>'phone' like ${phoneLike}`, sql`${members.phone} like ${phoneLike}`);
  }
  return sql`(${sql.join(parts, sql` or `)})`;
}

function filterCondition(filter: Omit<AdminOrderFilter, 'statuses'>): SQL[] {
  const where: SQL[] = [];
  const search = filter.q ? searchCondition(filter.q) : undefined;
  if (search) where.push(search);
  if (filter.from) where.push(gte(orders.createdAt, filter.from));
  if (filter.to) where.push(lt(orders.createdAt, filter.to));
  if (filter.slip) where.push(slipFilterCondition(filter.slip));
  return where;
}

export interface AdminOrderRow {
  orderNo: string;
  status: OrderStatus;
  paymentMethod: typeof orders.$inferSelect.paymentMethod;
  totalSatang: number;
  deliveryName: string;
  recipientName: string;
  recipientPhone: string;
  memberName: string;
  memberEmail: string;
  hasSlip: boolean;
  /** What the slip's QR said, when the order has a slip. */
  slipCheck: SlipCheckStatus | null;
  trackingNo: string | null;
  createdAt: Date;
  itemCount: number;
}

export async function listAdminOrders(
  db: DbOrTx,
  filter: AdminOrderFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: AdminOrderRow[]; total: number }> {
  const where = and(inArray(orders.status, [...filter.statuses]), ...filterCondition(filter));
  const itemCount = sql<number>`(select coalesce(sum(${orderLines.amount}), 0)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({
        orderNo: orders.orderNo,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        totalSatang: orders.totalSatang,
        deliveryName: orders.deliveryName,
        address: orders.address,
        firstName: members.firstName,
        lastName: members.lastName,
        memberEmail: members.email,
        slipPath: orders.slipPath,
        slipCheck: orderSlipChecks.status,
        trackingNo: orders.trackingNo,
        createdAt: orders.createdAt,
        itemCount,
      })
      .from(orders)
      .innerJoin(members, eq(members.id, orders.memberId))
      .leftJoin(orderSlipChecks, eq(orderSlipChecks.orderId, orders.id))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.orderNo))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(orders).innerJoin(members, eq(members.id, orders.memberId)).where(where),
  ]);
  return {
    total: Number(totalRow?.n ?? 0),
    rows: rows.map((row) => ({
      orderNo: row.orderNo,
      status: row.status,
      paymentMethod: row.paymentMethod,
      totalSatang: row.totalSatang,
      deliveryName: row.deliveryName,
      recipientName: row.address.recipientName,
      recipientPhone: row.address.phone,
      memberName: `${row.firstName} ${row.lastName}`.trim(),
      memberEmail: row.memberEmail,
      hasSlip: row.slipPath !== null,
      slipCheck: row.slipPath !== null ? (row.slipCheck ?? null) : null,
      trackingNo: row.trackingNo,
      createdAt: row.createdAt,
      itemCount: Number(row.itemCount),
    })),
  };
}

/** Orders per status under the same search and dates (the tab counts). */
export async function countAdminOrders(db: DbOrTx, filter: Omit<AdminOrderFilter, 'statuses'>): Promise<Map<OrderStatus, number>> {
  const conditions = filterCondition(filter);
  const rows = await db
    .select({ status: orders.status, n: count() })
    .from(orders)
    .innerJoin(members, eq(members.id, orders.memberId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .groupBy(orders.status);
  return new Map(rows.map((row) => [row.status, Number(row.n)]));
}

/** The orders with these numbers, in the order asked (labels print in the order staff ticked them). */
export async function ordersByNumbers(db: DbOrTx, orderNos: string[]): Promise<(typeof orders.$inferSelect)[]> {
  if (orderNos.length === 0) return [];
  const rows = await db.select().from(orders).where(inArray(orders.orderNo, orderNos));
  const byNo = new Map(rows.map((row) => [row.orderNo, row]));
  return orderNos.flatMap((no) => byNo.get(no) ?? []);
}

export async function staffNotesOf(db: DbOrTx, orderId: string) {
  return db
    .select({ note: orderStaffNotes.note, authorEmail: orderStaffNotes.authorEmail, createdAt: orderStaffNotes.createdAt })
    .from(orderStaffNotes)
    .where(eq(orderStaffNotes.orderId, orderId))
    .orderBy(asc(orderStaffNotes.createdAt), asc(orderStaffNotes.id));
}

export async function insertStaffNote(db: DbOrTx, values: typeof orderStaffNotes.$inferInsert): Promise<void> {
  await db.insert(orderStaffNotes).values(values);
}

// ---- dashboard ----

const SOLD: OrderStatus[] = ['paid', 'shipped', 'delivered'];
/** When an order counts as sold: payment confirmed, or placed for cash on delivery. */
const soldAt = sql`coalesce(${orders.paidAt}, ${orders.createdAt})`;

/** Paid sales per Bangkok calendar day since `since`. */
export async function salesByDay(db: DbOrTx, since: Date): Promise<{ day: string; totalSatang: number; orders: number }[]> {
  const day = sql<string>`to_char(${soldAt} at time zone 'Asia/Bangkok', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, total: sql<number>`coalesce(sum(${orders.totalSatang}), 0)::bigint`, n: count() })
    .from(orders)
    .where(and(inArray(orders.status, SOLD), sql`${soldAt} >= ${since.toISOString()}::timestamptz`))
    .groupBy(day)
    .orderBy(day);
  return rows.map((row) => ({ day: row.day, totalSatang: Number(row.total), orders: Number(row.n) }));
}

export async function countByStatus(db: DbOrTx): Promise<Map<OrderStatus, number>> {
  const rows = await db.select({ status: orders.status, n: count() }).from(orders).groupBy(orders.status);
  return new Map(rows.map((row) => [row.status, Number(row.n)]));
}

/**
 * Products on sale that are sold out (`stock <= 0`) or running low (`1..threshold`), the lowest first,
 * with how many there are in all: the dashboard's "หมด" and "ใกล้หมด" lists (issue 32, screen 5).
 */
export async function lowStock(db: DbOrTx, state: 'out' | 'low', threshold: number, limit: number) {
  const where =
    state === 'out'
      ? and(eq(products.active, true), sql`${products.stock} <= 0`)
      : and(eq(products.active, true), sql`${products.stock} > 0`, sql`${products.stock} <= ${threshold}`);
  const [rows, [total]] = await Promise.all([
    db
      .select({ code: products.code, name: products.name, stock: products.stock })
      .from(products)
      .where(where)
      .orderBy(asc(products.stock), asc(products.name))
      .limit(limit),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Unpaid orders whose time to pay ends between `from` and `until` (the rest of today), soonest first. */
export async function unpaidExpiring(db: DbOrTx, from: Date, until: Date, limit: number) {
  const where = and(eq(orders.status, 'pending_payment'), gte(orders.expiresAt, from), lt(orders.expiresAt, until));
  const [rows, [total]] = await Promise.all([
    db
      .select({ orderNo: orders.orderNo, totalSatang: orders.totalSatang, expiresAt: orders.expiresAt, recipient: sql<string>`${orders.address}->>'recipientName'` })
      .from(orders)
      .where(where)
      .orderBy(asc(orders.expiresAt), asc(orders.orderNo))
      .limit(limit),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return {
    rows: rows.map((row) => ({ orderNo: row.orderNo, totalSatang: row.totalSatang, expiresAt: (row.expiresAt ?? until).toISOString(), recipient: row.recipient ?? '' })),
    total: Number(total?.n ?? 0),
  };
}

export async function bestSellers(db: DbOrTx, since: Date, limit: number) {
  const sold = sql<number>`sum(${orderLines.amount})::int`;
  const rows = await db
    .select({ code: orderLines.productCode, name: orderLines.productName, amount: sold, totalSatang: sql<number>`sum(${orderLines.lineTotalSatang})::bigint` })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(inArray(orders.status, SOLD), sql`${soldAt} >= ${since.toISOString()}::timestamptz`))
    .groupBy(orderLines.productCode, orderLines.productName)
    .orderBy(desc(sold))
    .limit(limit);
  return rows.map((row) => ({ ...row, amount: Number(row.amount), totalSatang: Number(row.totalSatang) }));
}
