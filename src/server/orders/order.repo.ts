import { and, asc, count, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { addresses, members, orderEvents, orderLines, orders } from '../db/schema.ts';
import type { AddressSnapshot } from '../db/schema.ts';
import type { PriceTier } from '../../lib/pricing.ts';
import type { GiftWrapSnapshot } from '../../lib/gift-wrap.ts';
import { returnVariantStock, takeVariantStock, tiersForVariants, variantsForSale, type VariantForSale } from '../catalog/variant.repo.ts';
import type { ActorType, OrderStatus, PaymentMethod } from '../../lib/orders.ts';

/** What an order line sells: a variant (docs/decisions/205). */
export type ProductForOrder = VariantForSale;

/**
 * The ordering member's row, locked for the rest of the transaction: one member's orders are placed one
 * at a time, so the per-member promotion rules (a limit per member, first order only) count every
 * earlier order, even one placed at the same moment in another tab (decision 178). `no key update`
 * does not conflict with rows that merely reference the member (a new session, an address).
 */
export async function lockMember(tx: DbOrTx, memberId: string): Promise<void> {
  await tx.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('no key update');
}

/**
 * The variants of an order, locked for the rest of the transaction. Always in (product, variant) order,
 * so two checkouts sharing variants queue on the first shared row instead of deadlocking.
 */
export async function lockProductsByCode(tx: DbOrTx, codes: string[]): Promise<ProductForOrder[]> {
  return variantsForSale(tx, codes, { lock: true });
}

export async function findProductsByCode(db: DbOrTx, codes: string[]): Promise<ProductForOrder[]> {
  return variantsForSale(db, codes);
}

/** Wholesale tiers by variant id (a variant's own, else its product's). */
export async function tiersByVariant(db: DbOrTx, variants: readonly ProductForOrder[]): Promise<Map<number, PriceTier[]>> {
  return tiersForVariants(db, variants);
}

/** Takes stock only while enough is left; false means someone else took it first. */
export async function takeStock(tx: DbOrTx, variantId: number, amount: number): Promise<boolean> {
  return takeVariantStock(tx, variantId, amount);
}

export async function returnStock(tx: DbOrTx, lines: { productId: number; variantId: number | null; amount: number }[]): Promise<void> {
  await returnVariantStock(tx, lines);
}

export async function findMemberAddress(db: DbOrTx, memberId: string, addressId: string): Promise<AddressSnapshot | null> {
  const [row] = await db
    .select({
      recipientName: addresses.recipientName,
      phone: addresses.phone,
      line1: addresses.line1,
      subdistrict: addresses.subdistrict,
      district: addresses.district,
      province: addresses.province,
      postcode: addresses.postcode,
    })
    .from(addresses)
    .where(and(eq(addresses.id, addressId), eq(addresses.memberId, memberId)))
    .limit(1);
  return row ?? null;
}

export interface AddressOption extends AddressSnapshot {
  id: string;
  isDefault: boolean;
}

export async function listMemberAddresses(db: DbOrTx, memberId: string): Promise<AddressOption[]> {
  return db
    .select({
      id: addresses.id,
      recipientName: addresses.recipientName,
      phone: addresses.phone,
      line1: addresses.line1,
      subdistrict: addresses.subdistrict,
      district: addresses.district,
      province: addresses.province,
      postcode: addresses.postcode,
      isDefault: addresses.isDefault,
    })
    .from(addresses)
    .where(eq(addresses.memberId, memberId))
    .orderBy(desc(addresses.isDefault), asc(addresses.createdAt));
}

export async function nextOrderSequence(tx: DbOrTx): Promise<number> {
  const result = await tx.execute(sql`select nextval('order_number_seq') as n`);
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: unknown }[] }).rows) as { n: unknown }[];
  return Number(rows[0]?.n);
}

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;

export async function findOrderByIdempotencyKey(db: DbOrTx, memberId: string, key: string): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.memberId, memberId), eq(orders.idempotencyKey, key)))
    .limit(1);
  return row ?? null;
}

export async function findOrderByNo(db: DbOrTx, orderNo: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.orderNo, orderNo)).limit(1);
  return row ?? null;
}

export async function lockOrderByNo(tx: DbOrTx, orderNo: string): Promise<OrderRow | null> {
  const [row] = await tx.select().from(orders).where(eq(orders.orderNo, orderNo)).limit(1).for('update');
  return row ?? null;
}

export interface NewOrder {
  orderNo: string;
  memberId: string;
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  deliveryCode: string;
  deliveryName: string;
  shippingFeeSatang: number;
  subtotalSatang: number;
  discountSatang: number;
  totalSatang: number;
  vatSatang: number;
  promotionCode: string | null;
  note: string;
  address: AddressSnapshot;
  /** issue 31 part 6: left out by callers that sell no gift wrapping (quotations); the columns default. */
  giftWrap?: GiftWrapSnapshot | null;
  giftWrapSatang?: number;
  giftMessage?: string;
  giftCardSatang?: number;
  giftHidePrices?: boolean;
  idempotencyKey: string;
  expiresAt: Date | null;
  paidAt: Date | null;
}

export async function insertOrder(tx: DbOrTx, order: NewOrder): Promise<OrderRow> {
  const [row] = await tx.insert(orders).values(order).returning();
  if (!row) throw new Error('order insert returned nothing');
  return row;
}

export async function insertOrderLines(tx: DbOrTx, lines: (typeof orderLines.$inferInsert)[]): Promise<void> {
  if (lines.length > 0) await tx.insert(orderLines).values(lines);
}

export async function insertOrderEvent(
  tx: DbOrTx,
  event: { orderId: string; fromStatus: OrderStatus | null; toStatus: OrderStatus; actorType: ActorType; actorId: string | null; note?: string },
): Promise<void> {
  await tx.insert(orderEvents).values({ ...event, note: event.note ?? '' });
}

export async function updateOrder(tx: DbOrTx, id: string, values: Partial<typeof orders.$inferInsert>): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(orders.id, id))
    .returning();
  if (!row) throw new Error('order update returned nothing');
  return row;
}

export async function linesOfOrders(db: DbOrTx, orderIds: string[]): Promise<OrderLineRow[]> {
  if (orderIds.length === 0) return [];
  return db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)).orderBy(asc(orderLines.id));
}

export async function eventsOfOrder(db: DbOrTx, orderId: string): Promise<OrderEventRow[]> {
  return db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
}

export async function listOrdersOfMember(
  db: DbOrTx,
  memberId: string,
  statuses: readonly OrderStatus[],
  page: number,
  pageSize: number,
): Promise<{ rows: OrderRow[]; total: number }> {
  const where = and(eq(orders.memberId, memberId), inArray(orders.status, [...statuses]));
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.orderNo))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, total: Number(totalRow?.n ?? 0) };
}

export async function countOrdersByStatus(db: DbOrTx, memberId: string): Promise<Map<OrderStatus, number>> {
  const rows = await db
    .select({ status: orders.status, n: count() })
    .from(orders)
    .where(eq(orders.memberId, memberId))
    .groupBy(orders.status);
  return new Map(rows.map((row) => [row.status, Number(row.n)]));
}

/** Every order for operators (newest first), optionally of one status. */
export async function listAllOrders(db: DbOrTx, status: OrderStatus | null, limit: number): Promise<(OrderRow & { email: string })[]> {
  const rows = await db
    .select({ order: orders, email: members.email })
    .from(orders)
    .innerJoin(members, eq(members.id, orders.memberId))
    .where(status ? eq(orders.status, status) : undefined)
    .orderBy(desc(orders.createdAt))
    .limit(limit);
  return rows.map((row) => ({ ...row.order, email: row.email }));
}

export async function unpaidOrdersPastExpiry(db: DbOrTx, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .where(and(eq(orders.status, 'pending_payment'), lte(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt))
    .limit(limit);
  return rows.map((row) => row.orderNo);
}

export async function findMemberContact(
  db: DbOrTx,
  memberId: string,
): Promise<{ email: string; firstName: string; lastName: string } | null> {
  const [row] = await db
    .select({ email: members.email, firstName: members.firstName, lastName: members.lastName })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  return row ?? null;
}

export async function findMemberContactWithPhone(
  db: DbOrTx,
  memberId: string,
): Promise<{ email: string; firstName: string; lastName: string; phone: string } | null> {
  const [row] = await db
    .select({ email: members.email, firstName: members.firstName, lastName: members.lastName, phone: members.phone })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  return row ?? null;
}

/** issue 29: shipped orders nobody confirmed, shipped at or before `shippedBefore`, oldest first. */
export async function shippedOrdersBefore(db: DbOrTx, shippedBefore: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .where(and(eq(orders.status, 'shipped'), lte(orders.shippedAt, shippedBefore)))
    .orderBy(asc(orders.shippedAt))
    .limit(limit);
  return rows.map((row) => row.orderNo);
}
