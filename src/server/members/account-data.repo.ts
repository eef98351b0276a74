import { and, asc, eq, inArray, notInArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import {
  addresses,
  auditLog,
  lineSignIns,
  mailOutbox,
  memberLineAccounts,
  memberLoginAddresses,
  members,
  memberTwoFactor,
  orderEvents,
  orderLines,
  orders,
  passwordResetTokens,
  quotationLines,
  quotations,
  receipts,
  sessions,
  taxInvoices,
} from '../db/schema.ts';
import type { AddressSnapshot } from '../db/schema.ts';
import type { OrderStatus } from '../../lib/orders.ts';
import { removeAllOfMember } from '../wishlist/wishlist.repo.ts';
import { removeAllOfMember as removeSavedCart } from '../member-cart/member-cart.repo.ts';
import { removeAllOf as removeBackInStockRequests } from '../back-in-stock/back-in-stock.repo.ts';

/** issue 29: the queries behind a member's data download and the closing of their account (decision 184). */

export async function memberRow(db: DbOrTx, memberId: string, forUpdate = false) {
  const query = db.select().from(members).where(eq(members.id, memberId)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function addressesOf(db: DbOrTx, memberId: string) {
  return db.select().from(addresses).where(eq(addresses.memberId, memberId)).orderBy(asc(addresses.createdAt));
}

export async function ordersOf(db: DbOrTx, memberId: string) {
  return db.select().from(orders).where(eq(orders.memberId, memberId)).orderBy(asc(orders.createdAt));
}

export async function linesOf(db: DbOrTx, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)).orderBy(asc(orderLines.id));
}

export async function eventsOf(db: DbOrTx, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db.select().from(orderEvents).where(inArray(orderEvents.orderId, orderIds)).orderBy(asc(orderEvents.id));
}

export async function receiptsOf(db: DbOrTx, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db.select().from(receipts).where(inArray(receipts.orderId, orderIds));
}

export async function taxInvoicesOf(db: DbOrTx, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db.select().from(taxInvoices).where(inArray(taxInvoices.orderId, orderIds));
}

export async function quotationsOf(db: DbOrTx, memberId: string) {
  return db.select().from(quotations).where(eq(quotations.memberId, memberId)).orderBy(asc(quotations.createdAt));
}

export async function quotationLinesOf(db: DbOrTx, quotationIds: string[]) {
  if (quotationIds.length === 0) return [];
  return db.select().from(quotationLines).where(inArray(quotationLines.quotationId, quotationIds)).orderBy(asc(quotationLines.id));
}

export async function sessionsOf(db: DbOrTx, memberId: string) {
  return db
    .select({ createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt, userAgent: sessions.userAgent, ip: sessions.ip })
    .from(sessions)
    .where(eq(sessions.memberId, memberId))
    .orderBy(asc(sessions.createdAt));
}

export async function signInAddressesOf(db: DbOrTx, memberId: string) {
  return db.select({ ip: memberLoginAddresses.ip, lastSignedInAt: memberLoginAddresses.lastSignedInAt }).from(memberLoginAddresses).where(eq(memberLoginAddresses.memberId, memberId));
}

/** Orders still on their way (to pay, to check, to ship, shipped): an account cannot close under them. */
export async function openOrderNumbers(db: DbOrTx, memberId: string, finished: readonly OrderStatus[]): Promise<string[]> {
  const rows = await db
    .select({ orderNo: orders.orderNo })
    .from(orders)
    .where(and(eq(orders.memberId, memberId), notInArray(orders.status, [...finished])))
    .orderBy(asc(orders.createdAt));
  return rows.map((row) => row.orderNo);
}

/**
 * Closing: what identifies the person goes; the rows the law or the shop's books need stay. Returns
 * how many orders were kept.
 */
export async function eraseMember(tx: DbOrTx, memberId: string, removedAddress: AddressSnapshot, removedName: string, now: Date): Promise<{ orders: number; quotations: number }> {
  const [member] = await tx.select({ email: members.email }).from(members).where(eq(members.id, memberId));
  const keptOrders = await tx.update(orders).set({ address: removedAddress, note: '', updatedAt: now }).where(eq(orders.memberId, memberId)).returning({ id: orders.id });
  const keptQuotations = await tx
    .update(quotations)
    .set({ buyerName: removedName, buyerCompany: '', buyerAddress: '', buyerTaxId: '', buyerPhone: '' })
    .where(eq(quotations.memberId, memberId))
    .returning({ id: quotations.id });
  await tx.delete(addresses).where(eq(addresses.memberId, memberId));
  await tx.delete(sessions).where(eq(sessions.memberId, memberId));
  await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.memberId, memberId));
  await tx.delete(memberLoginAddresses).where(eq(memberLoginAddresses.memberId, memberId));
  await tx.delete(memberTwoFactor).where(eq(memberTwoFactor.memberId, memberId));
  await removeAllOfMember(tx, memberId);
  await removeSavedCart(tx, memberId);
  await tx.delete(memberLineAccounts).where(eq(memberLineAccounts.memberId, memberId));
  await tx.delete(lineSignIns).where(eq(lineSignIns.memberId, memberId));
  if (member) await removeBackInStockRequests(tx, memberId, member.email);
  if (member) await tx.delete(mailOutbox).where(eq(mailOutbox.toAddress, member.email));
  // The trail keeps what this member did, under their id; their email is personal data and goes.
  await tx.update(auditLog).set({ actorEmail: removedName }).where(and(eq(auditLog.actorId, memberId), eq(auditLog.actorRole, 'member')));
  await tx
    .update(members)
    .set({
      firstName: removedName,
      lastName: '',
      // Unique and never a working address: the email and phone are free for a new account.
      email: `closed-${memberId}@closed.invalid`,
      phone: `closed-${memberId}`,
      passwordHash: '!closed',
      birthday: null,
      scopes: [],
      closedAt: now,
      updatedAt: now,
    })
    .where(eq(members.id, memberId));
  return { orders: keptOrders.length, quotations: keptQuotations.length };
}
