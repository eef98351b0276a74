import { z } from './zod.ts';
import type { ThaiAddress } from './types.ts';
import type { SlipCheckView } from './slip-check.ts';
import { taxInvoiceRequestSchema, type OrderDocumentsView } from './documents.ts';
import { giftRequestSchema, type GiftView, type GiftWrapSnapshot } from './gift-wrap.ts';

/**
 * Orders as both sides see them: the status machine of docs/design.md section 8 (who may move an order
 * where), the My Purchase tabs, the request schemas shared by the checkout island and its endpoints,
 * and the plain order shape pages and islands render. Pure code: no server imports.
 */
export type PaymentMethod = 'promptpay' | 'bank_transfer' | 'cod';
export type ActorType = 'member' | 'staff' | 'system';
export type OrderAction = 'upload_slip' | 'confirm_payment' | 'reject_slip' | 'ship' | 'deliver' | 'receive' | 'cancel' | 'expire';

/** Every order status, in the order of an order's life. The database schema takes its type from here. */
export const ORDER_STATUSES = [
  'pending_payment',
  'payment_review',
  'paid',
  'shipped',
  'delivered',
  'cancelled',
  'expired',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * The one Thai name of each status (issue 32, screen 10): badges, the back office's tabs and dashboard,
 * flashes, mails, CSV messages, timelines and the API's `status_label` all say these words and no others
 * (tests/unit/status-words.test.ts fails on a status worded anywhere else). Short enough for a tab on a
 * phone, and read the same by the shopper and the shop. The shopper's My Purchase tabs keep Shopee's
 * group names (docs/design.md section 5; decision 191).
 */
export const statusLabels: Record<OrderStatus, string> = {
  pending_payment: 'รอชำระเงิน',
  payment_review: 'รอตรวจสลิป',
  paid: 'รอจัดส่ง',
  shipped: 'กำลังจัดส่ง',
  delivered: 'สำเร็จแล้ว',
  cancelled: 'ยกเลิกแล้ว',
  expired: 'หมดเวลาชำระเงิน',
};

/** The name of a tab or count that holds several statuses: their names joined, never a third wording. */
export function statusGroupLabel(statuses: readonly OrderStatus[]): string {
  return statuses.map((status) => statusLabels[status]).join('/');
}

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  promptpay: 'พร้อมเพย์ (QR)',
  bank_transfer: 'โอนเงินผ่านธนาคาร',
  cod: 'เก็บเงินปลายทาง',
};

export const actionLabels: Record<OrderAction, string> = {
  upload_slip: 'แนบสลิปการโอนเงิน',
  confirm_payment: 'ยืนยันการชำระเงิน',
  reject_slip: 'ปฏิเสธสลิป',
  ship: 'จัดส่งสินค้า',
  deliver: 'จัดส่งสำเร็จ',
  receive: 'ยืนยันได้รับสินค้า',
  cancel: 'ยกเลิกคำสั่งซื้อ',
  expire: 'หมดเวลาชำระเงิน',
};

interface Transition {
  from: readonly OrderStatus[];
  to: OrderStatus;
  actors: readonly ActorType[];
}

/**
 * Every allowed move. A member may only act on their own order (checked by the service), and a
 * member's cancel has one more rule: see memberMayCancel.
 */
export const transitions: Record<OrderAction, Transition> = {
  upload_slip: { from: ['pending_payment', 'payment_review'], to: 'payment_review', actors: ['member'] },
  confirm_payment: { from: ['pending_payment', 'payment_review'], to: 'paid', actors: ['staff'] },
  reject_slip: { from: ['payment_review'], to: 'pending_payment', actors: ['staff'] },
  ship: { from: ['paid'], to: 'shipped', actors: ['staff'] },
  deliver: { from: ['shipped'], to: 'delivered', actors: ['staff', 'system'] },
  /** issue 29: the member presses ได้รับสินค้าแล้ว on their own shipped order. */
  receive: { from: ['shipped'], to: 'delivered', actors: ['member'] },
  cancel: { from: ['pending_payment', 'payment_review', 'paid'], to: 'cancelled', actors: ['member', 'staff'] },
  expire: { from: ['pending_payment'], to: 'expired', actors: ['system', 'staff'] },
};

/**
 * A member cancels only before payment is confirmed. A cash-on-delivery order waits in `paid`
 * ("to ship") without any money taken, so its member may still cancel it until it ships.
 */
export function memberMayCancel(order: { status: OrderStatus; paymentMethod: PaymentMethod }): boolean {
  if (order.status === 'pending_payment' || order.status === 'payment_review') return true;
  return order.status === 'paid' && order.paymentMethod === 'cod';
}

/** The actions a member may take on their own order through the shop (docs/design.md section 8). */
export const MEMBER_ACTIONS: readonly OrderAction[] = ['cancel', 'receive'];

/** The member may say "I received it" (ได้รับสินค้าแล้ว) once the order is on its way. */
export function memberMayReceive(order: { status: OrderStatus }): boolean {
  return order.status === 'shipped';
}

/** The status an action leads to, or null when this actor may not do it from this status. */
export function nextStatus(
  order: { status: OrderStatus; paymentMethod: PaymentMethod },
  action: OrderAction,
  actor: ActorType,
): OrderStatus | null {
  const transition = transitions[action];
  if (!transition.actors.includes(actor) || !transition.from.includes(order.status)) return null;
  if (action === 'cancel' && actor === 'member' && !memberMayCancel(order)) return null;
  if ((action === 'upload_slip' || action === 'confirm_payment') && order.paymentMethod === 'cod') return null;
  return transition.to;
}

/** Statuses that hold stock: leaving them for cancelled/expired gives the stock back. */
export function returnsStock(from: OrderStatus, to: OrderStatus): boolean {
  return (to === 'cancelled' || to === 'expired') && from !== 'cancelled' && from !== 'expired';
}

export type OrderTab = 'all' | 'to-pay' | 'to-ship' | 'to-receive' | 'completed' | 'cancelled';

/** The My Purchase tabs (DESIGN.md section 5) and the order statuses each one shows. */
export const orderTabs: readonly { key: OrderTab; label: string; statuses: readonly OrderStatus[] }[] = [
  { key: 'all', label: 'ทั้งหมด', statuses: ORDER_STATUSES },
  { key: 'to-pay', label: 'ที่ต้องชำระ', statuses: ['pending_payment', 'payment_review'] },
  { key: 'to-ship', label: 'ที่ต้องจัดส่ง', statuses: ['paid'] },
  { key: 'to-receive', label: 'ที่ต้องได้รับ', statuses: ['shipped'] },
  { key: 'completed', label: 'สำเร็จแล้ว', statuses: ['delivered'] },
  { key: 'cancelled', label: 'ยกเลิกแล้ว', statuses: ['cancelled', 'expired'] },
];

export function parseOrderTab(value: string | null | undefined): OrderTab {
  return orderTabs.some((tab) => tab.key === value) ? (value as OrderTab) : 'all';
}

export function tabOf(status: OrderStatus): OrderTab {
  return orderTabs.find((tab) => tab.key !== 'all' && tab.statuses.includes(status))?.key ?? 'all';
}

/** A tracking page link from the delivery option's template (`{tracking}` is replaced). */
export function trackingLink(template: string | null | undefined, trackingNo: string | null | undefined): string | null {
  if (!template || !trackingNo) return null;
  return template.replace('{tracking}', encodeURIComponent(trackingNo));
}

// ---- request schemas (island and endpoint share them) ----

const productCode = z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'รหัสสินค้าไม่ถูกต้อง');
const amount = z.coerce
  .number({ error: 'จำนวนสินค้าไม่ถูกต้อง' })
  .int('จำนวนสินค้าต้องเป็นจำนวนเต็ม')
  .min(1, 'จำนวนสินค้าต้องมีอย่างน้อย 1 ชิ้น')
  .max(9999, 'จำนวนสินค้าต่อรายการต้องไม่เกิน 9,999 ชิ้น');

export const orderLinesSchema = z
  .array(z.object({ product_code: productCode, amount }), { error: 'ไม่มีสินค้าในคำสั่งซื้อ' })
  .min(1, 'ไม่มีสินค้าในคำสั่งซื้อ')
  .max(100, 'สั่งซื้อได้ไม่เกิน 100 รายการต่อครั้ง');

export const promotionCodeSchema = z
  .string()
  .trim()
  .max(40, 'โค้ดส่วนลดไม่ถูกต้อง')
  .transform((value) => value.toUpperCase());

export const checkPromotionSchema = z.object({
  code: promotionCodeSchema.pipe(z.string().min(1, 'กรุณากรอกโค้ดส่วนลด')),
  lines: orderLinesSchema,
});

export const paymentMethodSchema = z.enum(['promptpay', 'bank_transfer', 'cod'], { error: 'กรุณาเลือกวิธีชำระเงิน' });

export const orderQuoteSchema = z.object({
  lines: orderLinesSchema,
  delivery_code: z.string().trim().max(40).optional(),
  promotion_code: promotionCodeSchema.optional(),
  /** issue 31 part 6: gift wrapping, the card message, prices left off the packing slip. */
  gift: giftRequestSchema.optional(),
});

export const idempotencyKeySchema = z
  .string({ error: 'ไม่พบรหัสอ้างอิงการสั่งซื้อ' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,100}$/, 'รหัสอ้างอิงการสั่งซื้อไม่ถูกต้อง');

export const placeOrderSchema = z.object({
  idempotency_key: idempotencyKeySchema.optional(),
  lines: orderLinesSchema,
  /** Left out for store pickup (issue 29); the server refuses its absence for any other delivery. */
  address_id: z.uuid({ error: 'กรุณาเลือกที่อยู่จัดส่ง' }).optional(),
  delivery_code: z.string({ error: 'กรุณาเลือกวิธีจัดส่ง' }).trim().min(1, 'กรุณาเลือกวิธีจัดส่ง').max(40),
  payment_method: paymentMethodSchema,
  promotion_code: promotionCodeSchema.optional(),
  note: z.string().trim().max(500, 'หมายเหตุต้องไม่เกิน 500 ตัวอักษร').optional(),
  tax_invoice: taxInvoiceRequestSchema.optional(),
  gift: giftRequestSchema.optional(),
});
export type PlaceOrderInput = z.infer<typeof placeOrderSchema>;

export const orderNoSchema = z.string({ error: 'ไม่พบเลขที่คำสั่งซื้อ' }).trim().regex(/^[A-Z0-9-]{4,40}$/, 'เลขที่คำสั่งซื้อไม่ถูกต้อง');

export const orderGetSchema = z.object({ no: orderNoSchema });

export const orderListSchema = z.object({
  tab: z.enum(['all', 'to-pay', 'to-ship', 'to-receive', 'completed', 'cancelled']).default('all'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const orderStatusUpdateSchema = z.object({
  no: orderNoSchema,
  action: z.enum(['confirm_payment', 'reject_slip', 'ship', 'deliver', 'receive', 'cancel', 'expire'], { error: 'คำสั่งไม่ถูกต้อง' }),
  carrier: z.string().trim().max(80).optional(),
  tracking_no: z
    .string()
    .trim()
    .max(60)
    .regex(/^[A-Za-z0-9-]*$/, 'เลขพัสดุต้องเป็นตัวอักษรภาษาอังกฤษหรือตัวเลข')
    .optional(),
  note: z.string().trim().max(500).optional(),
});
export type OrderStatusUpdateInput = z.infer<typeof orderStatusUpdateSchema>;

// ---- shapes sent to pages and islands ----

export interface OrderLineView {
  productCode: string;
  productName: string;
  productImage: string | null;
  unitPriceSatang: number;
  amount: number;
  lineTotalSatang: number;
  /** issue 31 part 6: this line's own wrapping (charged once per line), or null. */
  giftWrap: GiftWrapSnapshot | null;
}

export interface OrderEventView {
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  actorType: ActorType;
  note: string;
  createdAt: string;
}

export type AddressView = ThaiAddress;

export interface OrderView {
  orderNo: string;
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
  address: AddressView;
  hasSlip: boolean;
  carrier: string | null;
  trackingNo: string | null;
  trackingUrl: string | null;
  expiresAt: string | null;
  paidAt: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
  lines: OrderLineView[];
  events: OrderEventView[];
  /** issue 31 part 6: wrapping, the card and its message, prices hidden on the packing slip. */
  gift: GiftView;
  /** issue 13: what the current slip's QR said (single-order reads only; absent in lists). */
  slipCheck?: SlipCheckView | null;
  /** issue 13: the receipt and tax invoice numbers, once issued (single-order reads only). */
  documents?: OrderDocumentsView;
}

/** What the server charges for a set of lines, before the order exists (checkout preview). */
export interface OrderQuote {
  lines: (OrderLineView & { stock: number; available: boolean })[];
  subtotalSatang: number;
  discountSatang: number;
  shippingFeeSatang: number;
  gift: GiftView;
  totalSatang: number;
  vatSatang: number;
  promotion: { code: string; name: string; discountSatang: number } | null;
  promotionError: { code: string; message: string } | null;
  freeShippingMinSatang: number | null;
}
