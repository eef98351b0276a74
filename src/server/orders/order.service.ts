import { database, getDb, type DbOrTx } from '../db/client.ts';
import type { OrderStatus } from '../db/schema.ts';
import { env } from '../env.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { onShutdown } from '../lifecycle.ts';
import { errorFields, log } from '../log.ts';
import { getCompany } from '../company/company.service.ts';
import { applyPromotion, type PromotionResult } from '../promotions/promotion.service.ts';
import { returnPromotionUse, takePromotionUse } from '../promotions/promotion.repo.ts';
import { includedVat } from '../../lib/money.ts';
import { unitPriceFor, type PriceTier } from '../../lib/pricing.ts';
import {
  actionLabels,
  nextStatus,
  paymentMethodLabels,
  statusLabels,
  orderTabs,
  returnsStock,
  trackingLink,
  type ActorType,
  type OrderAction,
  type OrderQuote,
  type OrderTab,
  type OrderView,
  type PaymentMethod,
} from '../../lib/orders.ts';
import type { CompanyInfo, DeliveryOption } from '../../lib/types.ts';
import * as repo from './order.repo.ts';
import { checkSlip, readSlip, removeSlip, storeSlip } from './slip-storage.ts';
import { sendOrderMail } from './order-mail.ts';
import { promptPayPayload, qrSvg } from './promptpay.ts';

/** Who asks: a member (only their own orders), staff (any order) or the system (expiry). */
export interface Actor {
  type: ActorType;
  id: string | null;
}

export interface OrderMember {
  id: string;
  email: string;
  scopes: string[];
}

/** Staff: the `admin` scope, or an email listed in SHOP_ADMIN_EMAILS (docs/decisions/061). */
export function isStaff(member: OrderMember): boolean {
  if (member.scopes.includes('admin')) return true;
  const listed = env()
    .SHOP_ADMIN_EMAILS.split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean);
  return listed.includes(member.email.trim().toLowerCase());
}

export function actorFor(member: OrderMember): Actor {
  return { type: isStaff(member) ? 'staff' : 'member', id: member.id };
}

// ---------------------------------------------------------------------------------------------------
// Pricing (shared by the checkout preview and the placement transaction)

interface RequestedLine {
  product_code: string;
  amount: number;
}

interface PricedLine {
  product: repo.ProductForOrder;
  amount: number;
  unitPriceSatang: number;
  lineTotalSatang: number;
}

/** Same code twice in a request is one line with the amounts added. */
function mergeLines(lines: readonly RequestedLine[]): RequestedLine[] {
  const byCode = new Map<string, number>();
  for (const line of lines) byCode.set(line.product_code, (byCode.get(line.product_code) ?? 0) + line.amount);
  return [...byCode.entries()].map(([product_code, amount]) => ({ product_code, amount }));
}

function priceLines(
  requested: readonly RequestedLine[],
  products: readonly repo.ProductForOrder[],
  tiers: Map<number, PriceTier[]>,
): { priced: PricedLine[]; missing: string[] } {
  const byCode = new Map(products.map((product) => [product.code, product]));
  const priced: PricedLine[] = [];
  const missing: string[] = [];
  for (const line of requested) {
    const product = byCode.get(line.product_code);
    if (!product || !product.active) {
      missing.push(line.product_code);
      continue;
    }
    const unit = unitPriceFor(product.priceSatang, tiers.get(product.id) ?? [], line.amount);
    priced.push({ product, amount: line.amount, unitPriceSatang: unit, lineTotalSatang: unit * line.amount });
  }
  return { priced, missing };
}

function deliveryFor(company: CompanyInfo, code: string | undefined): DeliveryOption | null {
  if (!code) return null;
  return company.deliveryOptions.find((option) => option.code === code) ?? null;
}

/** Free delivery once the goods (after discount) reach the shop's threshold. */
function shippingFee(company: CompanyInfo, delivery: DeliveryOption | null, goodsSatang: number): number {
  if (!delivery) return 0;
  if (company.freeShippingMinSatang !== null && goodsSatang >= company.freeShippingMinSatang) return 0;
  return delivery.feeSatang;
}

/** What an order of these lines would charge now: the checkout page shows exactly this. */
export async function quoteOrder(input: {
  lines: RequestedLine[];
  delivery_code?: string | undefined;
  promotion_code?: string | undefined;
}): Promise<OrderQuote> {
  const db = await getDb();
  ensureSweeper();
  const company = await getCompany();
  const requested = mergeLines(input.lines);
  const products = await repo.findProductsByCode(db, requested.map((line) => line.product_code));
  const tiers = await repo.tiersByProduct(db, products.map((product) => product.id));
  const { priced } = priceLines(requested, products, tiers);
  const subtotal = priced.reduce((sum, line) => sum + line.lineTotalSatang, 0);
  let promotion: OrderQuote['promotion'] = null;
  let promotionError: OrderQuote['promotionError'] = null;
  if (input.promotion_code) {
    try {
      const result = await applyPromotion(db, input.promotion_code, promotionLines(priced));
      promotion = { code: result.code, name: result.name, discountSatang: result.discountSatang };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      promotionError = { code: error.code, message: error.message };
    }
  }
  const discount = promotion?.discountSatang ?? 0;
  const shipping = shippingFee(company, deliveryFor(company, input.delivery_code), subtotal - discount);
  const total = subtotal - discount + shipping;
  return {
    lines: priced.map((line) => ({
      productCode: line.product.code,
      productName: line.product.name,
      productImage: line.product.image,
      unitPriceSatang: line.unitPriceSatang,
      amount: line.amount,
      lineTotalSatang: line.lineTotalSatang,
      stock: line.product.stock,
      available: line.product.stock >= line.amount,
    })),
    subtotalSatang: subtotal,
    discountSatang: discount,
    shippingFeeSatang: shipping,
    totalSatang: total,
    vatSatang: includedVat(total),
    promotion,
    promotionError,
    freeShippingMinSatang: company.freeShippingMinSatang,
  };
}

function promotionLines(priced: readonly PricedLine[]) {
  return priced.map((line) => ({
    productId: line.product.id,
    categoryId: line.product.categoryId,
    lineTotalSatang: line.lineTotalSatang,
  }));
}

/** The check-promotion endpoint: whether a code applies to these lines, and its discount. */
export async function checkPromotion(code: string, lines: RequestedLine[]): Promise<PromotionResult> {
  const db = await getDb();
  const requested = mergeLines(lines);
  const products = await repo.findProductsByCode(db, requested.map((line) => line.product_code));
  const tiers = await repo.tiersByProduct(db, products.map((product) => product.id));
  const { priced } = priceLines(requested, products, tiers);
  return applyPromotion(db, code, promotionLines(priced));
}

// ---------------------------------------------------------------------------------------------------
// Placing an order

export interface PlaceOrderRequest {
  idempotencyKey: string;
  lines: RequestedLine[];
  addressId: string;
  deliveryCode: string;
  paymentMethod: PaymentMethod;
  promotionCode?: string | undefined;
  note?: string | undefined;
}

function orderNumber(sequence: number, now: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Bangkok',
    year: '2-digit',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `YL${part('year')}${part('month')}${part('day')}${String(sequence).padStart(5, '0')}`;
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function paymentMethodEnabled(company: CompanyInfo, method: PaymentMethod): boolean {
  if (method === 'promptpay') return company.paymentMethods.promptpay && company.promptpayId !== '';
  if (method === 'bank_transfer') return company.paymentMethods.bankTransfer && company.bankAccounts.length > 0;
  return company.paymentMethods.cod;
}

/**
 * Places an order in ONE transaction: lock the products (id order), check stock, price every line and
 * the promotion on the server (whatever the client believed is ignored), take the stock and a
 * promotion use, write the order, its lines and its first event. The same idempotency key from the
 * same member always answers the same order, however many times and however concurrently it arrives.
 */
export async function placeOrder(member: OrderMember, request: PlaceOrderRequest): Promise<{ order: OrderView; created: boolean }> {
  const db = await getDb();
  ensureSweeper();
  const existing = await repo.findOrderByIdempotencyKey(db, member.id, request.idempotencyKey);
  if (existing) return { order: await orderView(db, existing), created: false };

  const company = await getCompany();
  const delivery = deliveryFor(company, request.deliveryCode);
  if (!delivery) throw badRequest('delivery_invalid', 'กรุณาเลือกวิธีจัดส่ง', { delivery_code: 'กรุณาเลือกวิธีจัดส่ง' });
  if (!paymentMethodEnabled(company, request.paymentMethod)) {
    throw badRequest('payment_method_unavailable', 'วิธีชำระเงินนี้ไม่เปิดให้บริการ', { payment_method: 'วิธีชำระเงินนี้ไม่เปิดให้บริการ' });
  }
  const address = await repo.findMemberAddress(db, member.id, request.addressId);
  if (!address) throw badRequest('address_invalid', 'กรุณาเลือกที่อยู่จัดส่ง', { address_id: 'กรุณาเลือกที่อยู่จัดส่ง' });
  const requested = mergeLines(request.lines);
  const now = new Date();

  let placed: { row: repo.OrderRow; created: boolean };
  try {
    placed = await db.transaction(async (tx) => {
      // Tiers are read before taking the row locks: one round trip less while other checkouts of the
      // same products wait on us.
      const tiers = await repo.tiersByProductCode(tx, requested.map((line) => line.product_code));
      const locked = await repo.lockProductsByCode(tx, requested.map((line) => line.product_code));
      // A concurrent request with this key may have committed while we waited for the locks.
      const raced = await repo.findOrderByIdempotencyKey(tx, member.id, request.idempotencyKey);
      if (raced) return { row: raced, created: false };

      const { priced, missing } = priceLines(requested, locked, tiers);
      if (missing.length > 0) {
        throw conflict('product_unavailable', `สินค้ารหัส ${missing.join(', ')} ไม่มีจำหน่ายแล้ว กรุณานำออกจากตะกร้า`);
      }
      const short = priced.filter((line) => line.product.stock < line.amount);
      if (short.length > 0) {
        const first = short[0] as PricedLine;
        throw new AppError(
          409,
          'out_of_stock',
          first.product.stock === 0
            ? `${first.product.name} สินค้าหมด`
            : `${first.product.name} มีสินค้าเหลือเพียง ${first.product.stock} ${'ชิ้น'}`,
          Object.fromEntries(short.map((line) => [line.product.code, String(line.product.stock)])),
        );
      }

      const subtotal = priced.reduce((sum, line) => sum + line.lineTotalSatang, 0);
      let discount = 0;
      let promotionCode: string | null = null;
      if (request.promotionCode) {
        const promotion = await applyPromotion(tx, request.promotionCode, promotionLines(priced), now);
        if (!(await takePromotionUse(tx, promotion.id))) {
          throw badRequest('promotion_used_up', 'โค้ดส่วนลดนี้ถูกใช้ครบจำนวนสิทธิ์แล้ว');
        }
        discount = promotion.discountSatang;
        promotionCode = promotion.code;
      }
      for (const line of priced) {
        if (!(await repo.takeStock(tx, line.product.id, line.amount))) {
          throw conflict('out_of_stock', `${line.product.name} มีสินค้าไม่พอ`);
        }
      }
      const shipping = shippingFee(company, delivery, subtotal - discount);
      const total = subtotal - discount + shipping;
      const cod = request.paymentMethod === 'cod';
      const status: OrderStatus = cod ? 'paid' : 'pending_payment';
      const order = await repo.insertOrder(tx, {
        orderNo: orderNumber(await repo.nextOrderSequence(tx), now),
        memberId: member.id,
        status,
        paymentMethod: request.paymentMethod,
        deliveryCode: delivery.code,
        deliveryName: delivery.name,
        shippingFeeSatang: shipping,
        subtotalSatang: subtotal,
        discountSatang: discount,
        totalSatang: total,
        vatSatang: includedVat(total),
        promotionCode,
        note: request.note ?? '',
        address,
        idempotencyKey: request.idempotencyKey,
        expiresAt: cod ? null : new Date(now.getTime() + company.orderExpiryHours * 3_600_000),
        paidAt: null,
      });
      await repo.insertOrderLines(
        tx,
        priced.map((line) => ({
          orderId: order.id,
          productId: line.product.id,
          productCode: line.product.code,
          productName: line.product.name,
          productImage: line.product.image,
          unitPriceSatang: line.unitPriceSatang,
          amount: line.amount,
          lineTotalSatang: line.lineTotalSatang,
        })),
      );
      await repo.insertOrderEvent(tx, {
        orderId: order.id,
        fromStatus: null,
        toStatus: status,
        actorType: 'member',
        actorId: member.id,
        note: cod ? 'สั่งซื้อแบบเก็บเงินปลายทาง' : 'สั่งซื้อสินค้า',
      });
      return { row: order, created: true };
    });
  } catch (error) {
    // Two requests with one key that locked no common row: the unique index keeps one order.
    if (isUniqueViolation(error)) {
      const winner = await repo.findOrderByIdempotencyKey(db, member.id, request.idempotencyKey);
      if (winner) return { order: await orderView(db, winner), created: false };
    }
    throw error;
  }
  const view = await orderView(db, placed.row);
  if (placed.created) notify(view, member.email, 'placed');
  return { order: view, created: placed.created };
}

// ---------------------------------------------------------------------------------------------------
// Reading

async function orderView(db: DbOrTx, row: repo.OrderRow, withEvents = true): Promise<OrderView> {
  const [lines, events, company] = await Promise.all([
    repo.linesOfOrders(db, [row.id]),
    withEvents ? repo.eventsOfOrder(db, row.id) : Promise.resolve([]),
    getCompany(),
  ]);
  return toView(row, lines, events, company);
}

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

function toView(row: repo.OrderRow, lines: repo.OrderLineRow[], events: repo.OrderEventRow[], company: CompanyInfo): OrderView {
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
    })),
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
const orderNotFound = () => notFound('order_not_found', 'ไม่พบคำสั่งซื้อนี้');

async function visibleOrder(db: DbOrTx, actor: Actor, orderNo: string): Promise<repo.OrderRow> {
  const row = await repo.findOrderByNo(db, orderNo);
  if (!row || (actor.type === 'member' && row.memberId !== actor.id)) throw orderNotFound();
  return row;
}

export async function getOrder(actor: Actor, orderNo: string): Promise<OrderView> {
  const db = await getDb();
  ensureSweeper();
  return orderView(db, await visibleOrder(db, actor, orderNo));
}

export const ORDER_PAGE_SIZE = 10;

export async function listOrders(
  memberId: string,
  tab: OrderTab,
  page: number,
): Promise<{ orders: OrderView[]; total: number; page: number; pageSize: number; counts: Record<OrderTab, number> }> {
  const db = await getDb();
  ensureSweeper();
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

// ---------------------------------------------------------------------------------------------------
// Moving an order along the status machine

export interface StatusChange {
  action: Exclude<OrderAction, 'upload_slip'>;
  carrier?: string | undefined;
  trackingNo?: string | undefined;
  note?: string | undefined;
}

/**
 * Applies one move of DESIGN.md section 8 for this actor, inside a transaction holding the order row:
 * two staff clicking at once, or a cancel racing the expiry sweep, cannot both apply.
 */
export async function changeOrderStatus(actor: Actor, orderNo: string, change: StatusChange): Promise<OrderView> {
  const db = await getDb();
  if (actor.type !== 'system') ensureSweeper();
  const company = await getCompany();
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    const row = await repo.lockOrderByNo(tx, orderNo);
    if (!row || (actor.type === 'member' && row.memberId !== actor.id)) throw orderNotFound();
    if (actor.type === 'member' && change.action !== 'cancel') throw forbidden('คุณไม่มีสิทธิ์เปลี่ยนสถานะคำสั่งซื้อนี้');
    const to = nextStatus(row, change.action, actor.type);
    if (!to) {
      throw conflict(
        'invalid_transition',
        change.action === 'cancel'
          ? 'คำสั่งซื้อนี้ไม่สามารถยกเลิกได้แล้ว'
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
    } else if (change.action === 'deliver') {
      values.deliveredAt = now;
    } else if (change.action === 'cancel' || change.action === 'expire') {
      values.cancelledAt = now;
      values.expiresAt = null;
    }
    if (returnsStock(row.status, to)) {
      const lines = await repo.linesOfOrders(tx, [row.id]);
      await repo.returnStock(tx, lines.map((line) => ({ productId: line.productId, amount: line.amount })));
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
    return { updated, previousSlip: change.action === 'reject_slip' ? row.slipPath : null };
  });
  if (result.previousSlip) await removeSlip(result.previousSlip).catch(() => {});
  const view = await orderView(db, result.updated);
  const mailKind = ({ confirm_payment: 'paid', ship: 'shipped', cancel: 'cancelled', expire: 'cancelled' } as const)[
    change.action as 'confirm_payment' | 'ship' | 'cancel' | 'expire'
  ];
  if (mailKind) {
    const contact = await repo.findMemberContact(db, result.updated.memberId);
    if (contact) notify(view, contact.email, mailKind);
  }
  return view;
}

// ---------------------------------------------------------------------------------------------------
// Slips

/**
 * Stores a payment slip for the member's own unpaid order and moves it to payment review. The content
 * is checked before anything is written; a refused request leaves no file behind.
 */
export async function uploadSlip(member: OrderMember, orderNo: string, bytes: Uint8Array): Promise<OrderView> {
  const type = checkSlip(bytes);
  const db = await getDb();
  const before = await visibleOrder(db, { type: 'member', id: member.id }, orderNo);
  if (!nextStatus(before, 'upload_slip', 'member')) {
    throw conflict('slip_not_accepted', 'คำสั่งซื้อนี้ไม่อยู่ในสถานะที่รอชำระเงิน');
  }
  const stored = await storeSlip(bytes, type);
  let replaced: string | null = null;
  let updated: repo.OrderRow;
  try {
    updated = await db.transaction(async (tx) => {
      const row = await repo.lockOrderByNo(tx, orderNo);
      if (!row || row.memberId !== member.id) throw orderNotFound();
      const to = nextStatus(row, 'upload_slip', 'member');
      if (!to) throw conflict('slip_not_accepted', 'คำสั่งซื้อนี้ไม่อยู่ในสถานะที่รอชำระเงิน');
      replaced = row.slipPath;
      const next = await repo.updateOrder(tx, row.id, { status: to, slipPath: stored, slipUploadedAt: new Date() });
      await repo.insertOrderEvent(tx, {
        orderId: row.id,
        fromStatus: row.status,
        toStatus: to,
        actorType: 'member',
        actorId: member.id,
        note: 'แนบสลิปการโอนเงิน',
      });
      return next;
    });
  } catch (error) {
    await removeSlip(stored).catch(() => {});
    throw error;
  }
  if (replaced) await removeSlip(replaced).catch(() => {});
  return orderView(db, updated);
}

export async function slipOf(actor: Actor, orderNo: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  const db = await getDb();
  const row = await visibleOrder(db, actor, orderNo);
  if (!row.slipPath) throw notFound('slip_not_found', 'ยังไม่มีสลิปสำหรับคำสั่งซื้อนี้');
  return readSlip(row.slipPath);
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
        await changeOrderStatus({ type: 'system', id: null }, orderNo, { action: 'expire', note: 'หมดเวลาชำระเงิน' });
        expired.push(orderNo);
      } catch (error) {
        // Paid or cancelled meanwhile: the row lock and the status check made the other move win.
        if (!(error instanceof AppError)) throw error;
        expired.push(orderNo);
      }
    }
  }
}

const sweeperKey = Symbol.for('yimlamai.orderSweeper');

/**
 * Starts the periodic expiry in this process on first use of the orders service. unref() lets the
 * process exit; the shutdown hook stops it before the database closes.
 */
export function ensureSweeper(): void {
  const holder = globalThis as unknown as Record<symbol, NodeJS.Timeout | undefined>;
  if (holder[sweeperKey]) return;
  const seconds = env().ORDER_SWEEP_SECONDS;
  if (seconds === 0) return;
  const timer = setInterval(() => {
    void database()
      .then(() => expireUnpaidOrders())
      .then((expired) => {
        if (expired.length > 0) log.info('unpaid orders expired', { count: expired.length });
      })
      .catch((error: unknown) => log.error('order expiry sweep failed', errorFields(error)));
  }, seconds * 1000);
  timer.unref();
  holder[sweeperKey] = timer;
  onShutdown('order-expiry-sweep', () => {
    clearInterval(timer);
    holder[sweeperKey] = undefined;
  });
}

const pendingMails = new Set<Promise<void>>();

/** Mails go out after the commit and never fail the order; a slow mail server does not slow checkout. */
function notify(order: OrderView, to: string, kind: 'placed' | 'paid' | 'shipped' | 'cancelled'): void {
  const sending = sendOrderMail(order, to, kind)
    .catch((error: unknown) => log.warn('order mail failed', { orderNo: order.orderNo, kind, ...errorFields(error) }))
    .finally(() => pendingMails.delete(sending));
  pendingMails.add(sending);
}

/** Waits for mails still being written (the CLI calls it before it exits). */
export async function flushOrderMails(): Promise<void> {
  await Promise.allSettled([...pendingMails]);
}

// ---------------------------------------------------------------------------------------------------
// What the checkout page offers this member

export interface CheckoutOptions {
  addresses: repo.AddressOption[];
  deliveryOptions: DeliveryOption[];
  paymentMethods: { code: PaymentMethod; label: string }[];
  freeShippingMinSatang: number | null;
}

export async function checkoutOptions(memberId: string): Promise<CheckoutOptions> {
  const db = await getDb();
  const company = await getCompany();
  const methods: PaymentMethod[] = ['promptpay', 'bank_transfer', 'cod'];
  return {
    addresses: await repo.listMemberAddresses(db, memberId),
    deliveryOptions: company.deliveryOptions,
    paymentMethods: methods.filter((method) => paymentMethodEnabled(company, method)).map((code) => ({ code, label: paymentMethodLabels[code] })),
    freeShippingMinSatang: company.freeShippingMinSatang,
  };
}

/** The QR and accounts of the payment page; null QR when PromptPay is off or the order is not payable. */
export async function paymentDetails(
  order: OrderView,
): Promise<{ qrSvg: string | null; payload: string | null; promptpayId: string; bankAccounts: CompanyInfo['bankAccounts'] }> {
  const company = await getCompany();
  const payable = order.status === 'pending_payment' || order.status === 'payment_review';
  const usePromptPay = payable && company.promptpayId !== '' && company.paymentMethods.promptpay && order.totalSatang > 0;
  const payload = usePromptPay ? promptPayPayload(company.promptpayId, order.totalSatang) : null;
  return {
    qrSvg: payload ? await qrSvg(payload) : null,
    payload,
    promptpayId: company.promptpayId,
    bankAccounts: company.bankAccounts,
  };
}
