import { z } from 'zod';
import { getDb } from '../db/client.ts';
import { AppError, badRequest, notFound } from '../http/errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { getCompany } from '../company/company.service.ts';
import {
  adminOrderTabs,
  adminTabOf,
  bangkokDayStart,
  trackingProblem,
  ADMIN_ORDER_PAGE_SIZE,
  type AdminOrderQuery,
  type AdminOrderTab,
} from '../../lib/admin-orders.ts';
import { nextStatus, orderNoSchema, type OrderAction, type OrderStatus, type OrderView } from '../../lib/orders.ts';
import * as repo from './order.repo.ts';
import * as adminRepo from './admin-orders.repo.ts';
import { changeOrderStatus, getOrder, type StatusChange } from './order.service.ts';
import type { OrderMailKind } from './order-mail.ts';
import { enqueueOrderMail } from '../mail/outbox.ts';
import { countReviewBySlipCheck } from '../payments/slip.repo.ts';

/** The back office's order rules: the list, one order with what staff may do next, and their actions. */

const STAFF = { type: 'staff', id: null } as const;

export async function listOrdersForAdmin(query: AdminOrderQuery) {
  const db = await getDb();
  const filter = {
    q: query.q,
    from: query.from ? bangkokDayStart(query.from) : undefined,
    // "to" is inclusive for people: up to the end of that day.
    to: query.to ? new Date(bangkokDayStart(query.to).getTime() + 86_400_000) : undefined,
  };
  const tab = adminTabOf(query.tab);
  const slip = tab.key === 'review' ? query.slip : undefined;
  const [{ rows, total }, byStatus, bySlipCheck] = await Promise.all([
    adminRepo.listAdminOrders(db, { ...filter, slip, statuses: tab.statuses }, query.page, ADMIN_ORDER_PAGE_SIZE),
    adminRepo.countAdminOrders(db, filter),
    tab.key === 'review' ? countReviewBySlipCheck(db) : Promise.resolve(null),
  ]);
  const counts = Object.fromEntries(
    adminOrderTabs.map((entry) => [entry.key, entry.statuses.reduce((sum, status) => sum + (byStatus.get(status) ?? 0), 0)]),
  ) as Record<AdminOrderTab, number>;
  return { rows, total, counts, slipCounts: bySlipCheck, page: query.page, pageSize: ADMIN_ORDER_PAGE_SIZE };
}

export type StaffAction = Exclude<OrderAction, 'upload_slip'>;
const STAFF_ACTIONS: readonly StaffAction[] = ['confirm_payment', 'reject_slip', 'ship', 'deliver', 'cancel', 'expire'];

/** What the status machine lets staff do with this order now. */
export function staffActionsFor(order: Pick<OrderView, 'status' | 'paymentMethod'>): StaffAction[] {
  return STAFF_ACTIONS.filter((action) => nextStatus(order, action, 'staff') !== null);
}

export interface AdminOrderDetail {
  order: OrderView;
  member: { email: string; name: string; phone: string } | null;
  notes: { note: string; authorEmail: string; createdAt: string }[];
  actions: StaffAction[];
  deliveryNeedsTracking: boolean;
}

export async function adminOrderDetail(orderNo: string): Promise<AdminOrderDetail> {
  const parsed = orderNoSchema.safeParse(orderNo);
  if (!parsed.success) throw notFound('order_not_found', 'ไม่พบคำสั่งซื้อนี้');
  const db = await getDb();
  const row = await repo.findOrderByNo(db, parsed.data);
  if (!row) throw notFound('order_not_found', 'ไม่พบคำสั่งซื้อนี้');
  const [order, contact, notes, company] = await Promise.all([
    getOrder(STAFF, row.orderNo),
    repo.findMemberContactWithPhone(db, row.memberId),
    adminRepo.staffNotesOf(db, row.id),
    getCompany(),
  ]);
  return {
    order,
    member: contact ? { email: contact.email, name: `${contact.firstName} ${contact.lastName}`.trim(), phone: contact.phone } : null,
    notes: notes.map((note) => ({ ...note, createdAt: note.createdAt.toISOString() })),
    actions: staffActionsFor(order),
    deliveryNeedsTracking: company.deliveryOptions.find((option) => option.code === row.deliveryCode)?.trackingUrl != null,
  };
}

const optionalText = (max: number, message: string) => z.string().trim().max(max, message).optional().default('');

export const staffActionSchema = z
  .object({
    action: z.enum(['confirm_payment', 'reject_slip', 'ship', 'deliver', 'cancel', 'expire'], { error: 'คำสั่งไม่ถูกต้อง' }),
    expected_status: z.enum(['pending_payment', 'payment_review', 'paid', 'shipped', 'delivered', 'cancelled', 'expired']).optional(),
    carrier: optionalText(80, 'ชื่อขนส่งยาวเกินไป'),
    tracking_no: optionalText(40, 'เลขพัสดุยาวเกินไป').transform((value) => value.toUpperCase()),
    reason: optionalText(500, 'เหตุผลต้องไม่เกิน 500 ตัวอักษร'),
  })
  .superRefine((value, context) => {
    if ((value.action === 'reject_slip' || value.action === 'cancel') && !value.reason) {
      context.addIssue({ code: 'custom', path: ['reason'], message: value.action === 'cancel' ? 'กรุณาระบุเหตุผลที่ยกเลิก' : 'กรุณาระบุเหตุผลที่ปฏิเสธสลิป' });
    }
  });
export type StaffActionInput = z.infer<typeof staffActionSchema>;

/**
 * One staff action on one order. The service locks the order row and checks the status the person saw,
 * so the second of two staff acting on one order gets a Thai message instead of a double change; the
 * order change and its audit row commit together.
 */
export async function applyStaffAction(actor: AuditActor, orderNo: string, input: StaffActionInput): Promise<OrderView> {
  const change: StatusChange = { action: input.action, note: input.reason || undefined };
  if (input.action === 'ship') {
    const db = await getDb();
    const row = await repo.findOrderByNo(db, orderNo);
    if (!row) throw notFound('order_not_found', 'ไม่พบคำสั่งซื้อนี้');
    const carrier = input.carrier || row.deliveryName;
    if (input.tracking_no) {
      const problem = trackingProblem(carrier, input.tracking_no);
      if (problem) throw badRequest('tracking_invalid', problem, { tracking_no: problem });
    }
    change.carrier = carrier;
    change.trackingNo = input.tracking_no || undefined;
  }
  return changeOrderStatus({ type: 'staff', id: actor.id }, orderNo, change, { audit: actor, expectedStatus: input.expected_status });
}

export async function addStaffNote(actor: AuditActor, orderNo: string, note: string): Promise<void> {
  const text = note.trim();
  if (!text) throw badRequest('note_empty', 'กรุณาพิมพ์บันทึก', { note: 'กรุณาพิมพ์บันทึก' });
  if (text.length > 1000) throw badRequest('note_too_long', 'บันทึกต้องไม่เกิน 1,000 ตัวอักษร', { note: 'บันทึกต้องไม่เกิน 1,000 ตัวอักษร' });
  const db = await getDb();
  await db.transaction(async (tx) => {
    const row = await repo.findOrderByNo(tx, orderNo);
    if (!row) throw notFound('order_not_found', 'ไม่พบคำสั่งซื้อนี้');
    await adminRepo.insertStaffNote(tx, { orderId: row.id, authorId: actor.id, authorEmail: actor.email, note: text });
    await recordAudit(tx, actor, { action: 'order.note', entityType: 'order', entityId: orderNo, after: { note: text } });
  });
}

/** Which mail fits the order's status now (what the member would have received last). */
export function resendableMail(status: OrderStatus, paymentMethod?: OrderView['paymentMethod']): OrderMailKind {
  // Cash on delivery waits to ship without any payment: its latest mail is the order confirmation.
  if (status === 'paid') return paymentMethod === 'cod' ? 'placed' : 'paid';
  if (status === 'shipped' || status === 'delivered') return 'shipped';
  if (status === 'cancelled' || status === 'expired') return 'cancelled';
  return 'placed';
}

export const mailLabels: Record<OrderMailKind, string> = {
  placed: 'อีเมลยืนยันคำสั่งซื้อ',
  paid: 'อีเมลยืนยันการชำระเงิน',
  shipped: 'อีเมลแจ้งจัดส่ง',
  cancelled: 'อีเมลแจ้งยกเลิก',
};

/** Sends the order's latest mail again (the member lost it or typed a wrong address and fixed it). */
export async function resendOrderMail(actor: AuditActor, orderNo: string): Promise<OrderMailKind> {
  const db = await getDb();
  const row = await repo.findOrderByNo(db, orderNo);
  if (!row) throw notFound('order_not_found', 'ไม่พบคำสั่งซื้อนี้');
  const contact = await repo.findMemberContactWithPhone(db, row.memberId);
  if (!contact) throw notFound('member_not_found', 'ไม่พบอีเมลของสมาชิก');
  const view = await getOrder(STAFF, orderNo);
  const kind = resendableMail(view.status, view.paymentMethod);
  // Through the outbox like every other mail: written with its audit row, sent by the worker, retried.
  await db.transaction(async (tx) => {
    const mailId = await enqueueOrderMail(tx, orderNo, contact.email, kind);
    await recordAudit(tx, actor, { action: 'order.resend_mail', entityType: 'order', entityId: orderNo, after: { mail: kind, to: contact.email, mailId } });
  });
  return kind;
}

export interface BulkResult {
  done: string[];
  refused: { orderNo: string; reason: string }[];
}

/** Ships several orders without tracking numbers (pick-up, own delivery); the rest say why not. */
export async function bulkShip(actor: AuditActor, orderNos: string[]): Promise<BulkResult> {
  const result: BulkResult = { done: [], refused: [] };
  for (const orderNo of orderNos) {
    try {
      await changeOrderStatus({ type: 'staff', id: actor.id }, orderNo, { action: 'ship' }, { audit: actor });
      result.done.push(orderNo);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      result.refused.push({
        orderNo,
        reason: error.code === 'tracking_required' ? 'ต้องกรอกเลขพัสดุ (ใช้นำเข้าเลขพัสดุ หรือเปิดคำสั่งซื้อ)' : error.message,
      });
    }
  }
  return result;
}


export const MAX_DOCUMENT_ORDERS = 200;

/** The orders named (each once, in the order given), for labels and packing slips. Unknown numbers are a 404. */
export async function ordersForDocuments(orderNos: string[]): Promise<OrderView[]> {
  const unique = [...new Set(orderNos.map((no) => no.trim().toUpperCase()).filter(Boolean))];
  if (unique.length === 0) throw badRequest('no_orders', 'กรุณาเลือกคำสั่งซื้ออย่างน้อย 1 รายการ');
  if (unique.length > MAX_DOCUMENT_ORDERS) throw badRequest('too_many_orders', `พิมพ์ได้ครั้งละไม่เกิน ${MAX_DOCUMENT_ORDERS} คำสั่งซื้อ`);
  for (const no of unique) if (!orderNoSchema.safeParse(no).success) throw badRequest('order_no_invalid', `เลขที่คำสั่งซื้อ ${no.slice(0, 40)} ไม่ถูกต้อง`);
  const db = await getDb();
  const rows = await adminRepo.ordersByNumbers(db, unique);
  const missing = unique.filter((no) => !rows.some((row) => row.orderNo === no));
  if (missing.length > 0) throw notFound('order_not_found', `ไม่พบคำสั่งซื้อ ${missing.join(', ')}`);
  return Promise.all(rows.map((row) => getOrder(STAFF, row.orderNo)));
}
