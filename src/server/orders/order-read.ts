import { getDb, type DbOrTx } from '../db/client.ts';
import { notFound } from '../http/errors.ts';
import { getCompany } from '../company/company.service.ts';
import { orderTabs, trackingLink, type OrderTab, type OrderView } from '../../lib/orders.ts';
import type { CompanyInfo } from '../../lib/types.ts';
import * as repo from './order.repo.ts';
import { slipCheckOf } from '../payments/slip.repo.ts';
import { slipCheckView } from '../../lib/slip-check.ts';
import { documentsOf } from '../documents/receipt.service.ts';
import type { Actor } from './order-actors.ts';
import { deliveryFor } from './order-pricing.ts';

/** Reading orders as plain views, for their member or for staff. */

export async function orderView(db: DbOrTx, row: repo.OrderRow, withEvents = true): Promise<OrderView> {
  const [lines, events, company, slipCheck, documents] = await Promise.all([
    repo.linesOfOrders(db, [row.id]),
    withEvents ? repo.eventsOfOrder(db, row.id) : Promise.resolve([]),
    getCompany(),
    row.slipPath ? slipCheckOf(db, row.id) : Promise.resolve(null),
    documentsOf(db, row.id),
  ]);
  return { ...toView(row, lines, events, company), slipCheck: slipCheck ? slipCheckView(slipCheck) : null, documents };
}

export function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

export function toView(row: repo.OrderRow, lines: repo.OrderLineRow[], events: repo.OrderEventRow[], company: CompanyInfo): OrderView {
  const delivery = deliveryFor(company, row.deliveryCode);
  return {
    orderNo: row.orderNo,
    status: row.status,
    paymentMethod: row.paymentMethod,
    deliveryCode: row.deliveryCode,
    deliveryName: row.deliveryName,
    shippingFeeSatang: row.shippingFeeSatang,
    subtotalSatang: row.subtotalSatang,
    discountSatang: row.discountSatang,
    totalSatang: row.totalSatang,
    vatSatang: row.vatSatang,
    promotionCode: row.promotionCode,
    note: row.note,
    address: row.address,
    hasSlip: row.slipPath !== null,
    carrier: row.carrier,
    trackingNo: row.trackingNo,
    trackingUrl: trackingLink(delivery?.trackingUrl, row.trackingNo),
    expiresAt: iso(row.expiresAt),
    paidAt: iso(row.paidAt),
    shippedAt: iso(row.shippedAt),
    deliveredAt: iso(row.deliveredAt),
    cancelledAt: iso(row.cancelledAt),
    createdAt: row.createdAt.toISOString(),
    lines: lines.map((line) => ({
      productCode: line.productCode,
      productName: line.productName,
      productImage: line.productImage,
      unitPriceSatang: line.unitPriceSatang,
      amount: line.amount,
      lineTotalSatang: line.lineTotalSatang,
      giftWrap: line.giftWrap,
    })),
    gift: { orderWrap: row.giftWrap, wrapSatang: row.giftWrapSatang, message: row.giftMessage, cardSatang: row.giftCardSatang, hidePrices: row.giftHidePrices },
    events: events.map((event) => ({
      fromStatus: event.fromStatus,
      toStatus: event.toStatus,
      actorType: event.actorType,
      note: event.note,
      createdAt: event.createdAt.toISOString(),
    })),
  };
}

/** Another member's order is "not found", not "forbidden": its existence is not their business. */
export const orderNotFound = () => notFound('order_not_found', 'ไม่พบคำสั่งซื้อนี้');

export async function visibleOrder(db: DbOrTx, actor: Actor, orderNo: string): Promise<repo.OrderRow> {
  const row = await repo.findOrderByNo(db, orderNo);
  if (!row || (actor.type === 'member' && row.memberId !== actor.id)) throw orderNotFound();
  return row;
}

export async function getOrder(actor: Actor, orderNo: string): Promise<OrderView> {
  const db = await getDb();
  return orderView(db, await visibleOrder(db, actor, orderNo));
}

export const ORDER_PAGE_SIZE = 10;

export async function listOrders(
  memberId: string,
  tab: OrderTab,
  page: number,
): Promise<{ orders: OrderView[]; total: number; page: number; pageSize: number; counts: Record<OrderTab, number> }> {
  const db = await getDb();
  const statuses = orderTabs.find((entry) => entry.key === tab)?.statuses ?? orderTabs[0]!.statuses;
  const [{ rows, total }, byStatus, company] = await Promise.all([
    repo.listOrdersOfMember(db, memberId, statuses, page, ORDER_PAGE_SIZE),
    repo.countOrdersByStatus(db, memberId),
    getCompany(),
  ]);
  const lines = await repo.linesOfOrders(db, rows.map((row) => row.id));
  const counts = Object.fromEntries(
    orderTabs.map((entry) => [entry.key, entry.statuses.reduce((sum, status) => sum + (byStatus.get(status) ?? 0), 0)]),
  ) as Record<OrderTab, number>;
  return {
    orders: rows.map((row) => toView(row, lines.filter((line) => line.orderId === row.id), [], company)),
    total,
    page,
    pageSize: ORDER_PAGE_SIZE,
    counts,
  };
}
