import { getDb, type Tx } from '../db/client.ts';
import { AppError, badRequest, conflict, forbidden } from '../http/errors.ts';
import { errorFields, log } from '../log.ts';
import { getCompany } from '../company/company.service.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { returnPromotionUse } from '../promotions/promotion.repo.ts';
import { actionLabels, MEMBER_ACTIONS, nextStatus, statusLabels, returnsStock, type OrderAction, type OrderStatus, type OrderView } from '../../lib/orders.ts';
import type { CompanyInfo } from '../../lib/types.ts';
import * as repo from './order.repo.ts';
import { removeSlip } from './slip-storage.ts';
import { enqueueOrderMail } from '../mail/outbox.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { recordStockMovements } from '../catalog-admin/stock.repo.ts';
import { issueDocumentsOnPayment } from '../documents/receipt.service.ts';
import type { Actor } from './order-actors.ts';
import { deliveryFor } from './order-pricing.ts';
import { orderNotFound, orderView } from './order-read.ts';
import { queueReviewInvite } from '../reviews/review-invites.ts';

/** Moving orders along the status machine (docs/design.md section 8), and expiring unpaid ones. */

// ---------------------------------------------------------------------------------------------------
// Moving an order along the status machine

export interface StatusChange {
  action: Exclude<OrderAction, 'upload_slip'>;
  carrier?: string | undefined;
  trackingNo?: string | undefined;
  note?: string | undefined;
}

export interface StatusChangeOptions {
  /** Written to the audit trail in the same transaction (back office, admin endpoints, CLI). */
  audit?: AuditActor | undefined;
  /**
   * The status the person saw when they chose the action. If the order has moved on since (another
   * staff member acted first), nothing changes and they are told, even where the new status would
   * allow the same action again.
   */
  expectedStatus?: OrderStatus | undefined;
}

/**
 * Applies one move of docs/design.md section 8 for this actor, inside a transaction holding the order row:
 * two staff clicking at once, or a cancel racing the expiry sweep, cannot both apply.
 */
export async function changeOrderStatus(actor: Actor, orderNo: string, change: StatusChange, options: StatusChangeOptions = {}): Promise<OrderView> {
  const db = await getDb();
  const company = await getCompany();
  const now = new Date();
  const result = await db.transaction((tx) => applyStatusChange(tx, company, now, actor, orderNo, change, options));
  return afterStatusChange(result);
}

export interface AppliedChange {
  updated: repo.OrderRow;
  fromStatus: OrderStatus;
  previousSlip: string | null;
}

/**
 * The move itself, inside the caller's transaction (which must hold nothing of this order yet): the
 * row is locked here, so two staff clicking at once, a member's "received" racing the automatic one,
 * or a cancel racing the expiry sweep cannot both apply. Call afterStatusChange once it commits.
 */
export async function applyStatusChange(
  tx: Tx,
  company: CompanyInfo,
  now: Date,
  actor: Actor,
  orderNo: string,
  change: StatusChange,
  options: StatusChangeOptions = {},
): Promise<AppliedChange> {
  const row = await repo.lockOrderByNo(tx, orderNo);
  if (!row || (actor.type === 'member' && row.memberId !== actor.id)) throw orderNotFound();
  if (actor.type === 'member' && !MEMBER_ACTIONS.includes(change.action)) throw forbidden('คุณไม่มีสิทธิ์เปลี่ยนสถานะคำสั่งซื้อนี้');
  if (options.expectedStatus && options.expectedStatus !== row.status) {
    throw conflict(
      'status_changed',
      `คำสั่งซื้อนี้ถูกเปลี่ยนสถานะเป็น "${statusLabels[row.status]}" ไปแล้ว (อาจมีผู้อื่นดำเนินการก่อน) จึงไม่ได้${actionLabels[change.action]}ซ้ำ กรุณาตรวจสอบอีกครั้ง`,
    );
  }
  const to = nextStatus(row, change.action, actor.type);
  if (!to) {
    throw conflict(
      'invalid_transition',
      change.action === 'cancel'
        ? 'คำสั่งซื้อนี้ไม่สามารถยกเลิกได้แล้ว'
        : change.action === 'receive'
          ? `ยืนยันได้รับสินค้าได้เมื่อคำสั่งซื้ออยู่ในสถานะ "${statusLabels.shipped}" เท่านั้น (ตอนนี้ "${statusLabels[row.status]}")`
          : `ไม่สามารถ${actionLabels[change.action]}ได้ในสถานะ "${statusLabels[row.status]}"`,
    );
  }
  const values: Parameters<typeof repo.updateOrder>[2] = { status: to };
  if (change.action === 'confirm_payment') {
    values.paidAt = now;
    values.expiresAt = null;
  } else if (change.action === 'reject_slip') {
    values.slipPath = null;
    values.slipUploadedAt = null;
    values.expiresAt = new Date(now.getTime() + company.orderExpiryHours * 3_600_000);
  } else if (change.action === 'ship') {
    const delivery = deliveryFor(company, row.deliveryCode);
    const needsTracking = delivery?.trackingUrl != null;
    if (needsTracking && !change.trackingNo) {
      throw badRequest('tracking_required', 'กรุณากรอกเลขพัสดุ', { tracking_no: 'กรุณากรอกเลขพัสดุ' });
    }
    values.carrier = change.carrier || row.deliveryName;
    values.trackingNo = change.trackingNo || null;
    values.shippedAt = now;
  } else if (change.action === 'deliver' || change.action === 'receive') {
    values.deliveredAt = now;
  } else if (change.action === 'cancel' || change.action === 'expire') {
    values.cancelledAt = now;
    values.expiresAt = null;
  }
  // Money taken (a confirmed transfer, or cash collected on delivery): the receipt's number is taken here.
  const delivered = change.action === 'deliver' || change.action === 'receive';
  if (change.action === 'confirm_payment' || (delivered && row.paymentMethod === 'cod')) {
    await issueDocumentsOnPayment(tx, row.id, now);
  }
  if (returnsStock(row.status, to)) {
    const lines = await repo.linesOfOrders(tx, [row.id]);
    await repo.returnStock(tx, lines.map((line) => ({ productId: line.productId, variantId: line.variantId, amount: line.amount })));
    await recordStockMovements(
      tx,
      lines.map((line) => ({ productId: line.productId, variantId: line.variantId, delta: line.amount, kind: change.action === 'expire' ? ('expire' as const) : ('cancel' as const), orderNo: row.orderNo, reason: change.note ?? '' })),
    );
    if (row.promotionCode) await returnPromotionUse(tx, row.promotionCode);
  }
  const updated = await repo.updateOrder(tx, row.id, values);
  await repo.insertOrderEvent(tx, {
    orderId: row.id,
    fromStatus: row.status,
    toStatus: to,
    actorType: actor.type,
    actorId: actor.id,
    note: change.note ?? '',
  });
  const mailKind = ({ confirm_payment: 'paid', ship: 'shipped', cancel: 'cancelled', expire: 'cancelled' } as const)[
    change.action as 'confirm_payment' | 'ship' | 'cancel' | 'expire'
  ];
  if (mailKind) {
    const contact = await repo.findMemberContact(tx, row.memberId);
    if (contact) await enqueueOrderMail(tx, row.orderNo, contact.email, mailKind);
  }
  // Every way to `delivered` passes here; the invite is queued once per order (review-invites.ts).
  if (updated.status === 'delivered') await queueReviewInvite(tx, row.id, now);
  if (options.audit) {
    await recordAudit(tx, options.audit, {
      action: `order.${change.action}`,
      entityType: 'order',
      entityId: row.orderNo,
      before: { status: row.status, carrier: row.carrier, trackingNo: row.trackingNo },
      after: { status: updated.status, carrier: updated.carrier, trackingNo: updated.trackingNo },
      note: change.note ?? '',
    });
  }
  return { updated, fromStatus: row.status, previousSlip: change.action === 'reject_slip' ? row.slipPath : null };
}

/** What follows a committed move: the rejected slip's file goes, the catalog hears of stock given back. */
export async function afterStatusChange(result: AppliedChange): Promise<OrderView> {
  if (result.previousSlip) await removeSlip(result.previousSlip).catch(() => {});
  const view = await orderView(await getDb(), result.updated);
  if (returnsStock(result.fromStatus, result.updated.status)) stockChanged(view.lines.map((line) => line.productCode));
  return view;
}

// ---------------------------------------------------------------------------------------------------
// Expiry of unpaid orders

/** Expires every unpaid order past its time (each in its own transaction); returns how many. */
export async function expireUnpaidOrders(now = new Date()): Promise<string[]> {
  const db = await getDb();
  const expired: string[] = [];
  for (;;) {
    const due = await repo.unpaidOrdersPastExpiry(db, now, 100);
    const fresh = due.filter((no) => !expired.includes(no));
    if (fresh.length === 0) return expired;
    for (const orderNo of fresh) {
      try {
        await changeOrderStatus({ type: 'system', id: null }, orderNo, { action: 'expire', note: statusLabels.expired });
        expired.push(orderNo);
      } catch (error) {
        // Paid or cancelled meanwhile: the row lock and the status check made the other move win.
        if (!(error instanceof AppError)) throw error;
        expired.push(orderNo);
      }
    }
  }
}

/** Drops cached catalog pages that show these products; never fails the order. */
export function stockChanged(productCodes: string[]): void {
  invalidateCatalog({ productCodes }).catch((error: unknown) => log.warn('catalog cache invalidation failed', errorFields(error)));
}
