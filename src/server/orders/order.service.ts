import { getDb, type DbOrTx } from '../db/client.ts';
import type { AddressSnapshot } from '../db/schema.ts';
import { isStorePickup } from '../../lib/delivery.ts';
import { AppError, badRequest, conflict } from '../http/errors.ts';
import { getCompany } from '../company/company.service.ts';
import { applyPromotion } from '../promotions/promotion.service.ts';
import { takePromotionUse } from '../promotions/promotion.repo.ts';
import { includedVat } from '../../lib/money.ts';
import { paymentMethodLabels, type OrderStatus, type OrderView, type PaymentMethod } from '../../lib/orders.ts';
import type { CompanyInfo, DeliveryOption } from '../../lib/types.ts';
import * as repo from './order.repo.ts';
import { enqueueOrderMail } from '../mail/outbox.ts';
import { recordStockMovements } from '../catalog-admin/stock.repo.ts';
import { saveTaxInvoiceRequest } from '../documents/receipt.service.ts';
import { applyQuotedPrices, markQuotationOrdered, type QuotedPrices } from '../quotations/quotation-order.ts';
import type { TaxInvoiceRequest } from '../../lib/documents.ts';
import { promptPayPayload, qrSvg } from './promptpay.ts';
import type { OrderMember } from './order-actors.ts';
import { type PricedLine, type RequestedLine, deliveryFor, mergeLines, priceLines, promotionLines, shippingFee } from './order-pricing.ts';
import { orderView } from './order-read.ts';
import { stockChanged } from './order-status.service.ts';
import { priceGift } from './gift-pricing.ts';
import type { GiftRequest, GiftWrapOption } from '../../lib/gift-wrap.ts';
export * from './order-actors.ts';
export * from './order-pricing.ts';
export * from './order-read.ts';
export * from './order-status.service.ts';
export * from './order-slips.service.ts';

/**
 * Orders (docs/design.md section 8): placing one in a single transaction, and what checkout offers. The rest
 * of the order rules live beside it by job (actors, pricing, reading, status changes, slips) and are
 * re-exported here, so callers keep one entry point.
 */

// ---------------------------------------------------------------------------------------------------
// Placing an order

export interface PlaceOrderRequest {
  idempotencyKey: string;
  lines: RequestedLine[];
  /** Optional for store pickup only (issue 29): the buyer's name and phone stand in for an address. */
  addressId?: string | undefined;
  deliveryCode: string;
  paymentMethod: PaymentMethod;
  promotionCode?: string | undefined;
  note?: string | undefined;
  /** issue 13: the buyer asked for a full tax invoice at checkout. */
  taxInvoice?: TaxInvoiceRequest | undefined;
  /** issue 13: ordering from a quotation: its prices and delivery fee stand (stock is checked as ever). */
  quotation?: QuotedPrices | undefined;
  /** issue 31 part 6: wrapping, card message, prices off the packing slip (decision 221). */
  gift?: GiftRequest | undefined;
}

/**
 * issue 29: a store-pickup order needs no delivery address; the order keeps who collects it (the
 * member's name and phone) and says where, so labels, documents and staff read it plainly.
 */
async function pickupSnapshot(db: DbOrTx, memberId: string): Promise<AddressSnapshot | null> {
  const contact = await repo.findMemberContactWithPhone(db, memberId);
  if (!contact) return null;
  return {
    recipientName: `${contact.firstName} ${contact.lastName}`.trim(),
    phone: contact.phone,
    line1: 'รับเองที่หน้าร้าน',
    subdistrict: '',
    district: '',
    province: '',
    postcode: '',
  };
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
  const existing = await repo.findOrderByIdempotencyKey(db, member.id, request.idempotencyKey);
  if (existing) return { order: await orderView(db, existing), created: false };

  const company = await getCompany();
  const delivery = deliveryFor(company, request.deliveryCode);
  if (!delivery) throw badRequest('delivery_invalid', 'กรุณาเลือกวิธีจัดส่ง', { delivery_code: 'กรุณาเลือกวิธีจัดส่ง' });
  if (!paymentMethodEnabled(company, request.paymentMethod)) {
    throw badRequest('payment_method_unavailable', 'วิธีชำระเงินนี้ไม่เปิดให้บริการ', { payment_method: 'วิธีชำระเงินนี้ไม่เปิดให้บริการ' });
  }
  const address = request.addressId
    ? await repo.findMemberAddress(db, member.id, request.addressId)
    : isStorePickup(delivery.code)
      ? await pickupSnapshot(db, member.id)
      : null;
  if (!address) throw badRequest('address_invalid', 'กรุณาเลือกที่อยู่จัดส่ง', { address_id: 'กรุณาเลือกที่อยู่จัดส่ง' });
  const requested = mergeLines(request.lines);
  // Checked before any lock: a wrapping no longer offered or a card with a link never reaches the transaction.
  const { gift, lineWraps } = priceGift(company, request.gift, requested.map((line) => line.product_code));
  if (gift.hidePrices && request.paymentMethod === 'cod') {
    throw badRequest('gift_hide_prices_cod', 'เก็บเงินปลายทางจากผู้รับ จึงซ่อนราคาในใบแพ็คสินค้าไม่ได้ กรุณาเลือกวิธีชำระเงินอื่น', { gift: 'ซ่อนราคาไม่ได้เมื่อเก็บเงินปลายทาง' });
  }
  const now = new Date();

  let placed: { row: repo.OrderRow; created: boolean };
  try {
    placed = await db.transaction(async (tx) => {
      // The member before the variants: every order takes both in this order, so they never deadlock.
      await repo.lockMember(tx, member.id);
      const locked = await repo.lockProductsByCode(tx, requested.map((line) => line.product_code));
      const tiers = await repo.tiersByVariant(tx, locked);
      // A concurrent request with this key may have committed while we waited for the locks.
      const raced = await repo.findOrderByIdempotencyKey(tx, member.id, request.idempotencyKey);
      if (raced) return { row: raced, created: false };

      const { priced, missing } = priceLines(requested, locked, tiers);
      if (request.quotation) applyQuotedPrices(request.quotation, priced);
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
        const promotion = await applyPromotion(tx, request.promotionCode, promotionLines(priced), now, member.id);
        if (!(await takePromotionUse(tx, promotion.id))) {
          throw badRequest('promotion_used_up', 'โค้ดส่วนลดนี้ถูกใช้ครบจำนวนสิทธิ์แล้ว');
        }
        discount = promotion.discountSatang;
        promotionCode = promotion.code;
      }
      for (const line of priced) {
        if (!(await repo.takeStock(tx, line.product.variantId, line.amount))) {
          throw conflict('out_of_stock', `${line.product.name} มีสินค้าไม่พอ`);
        }
      }
      const shipping = request.quotation ? request.quotation.shippingFeeSatang : shippingFee(company, delivery, subtotal - discount);
      const total = subtotal - discount + shipping + gift.wrapSatang + gift.cardSatang;
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
        giftWrap: gift.orderWrap,
        giftWrapSatang: gift.wrapSatang,
        giftMessage: gift.message,
        giftCardSatang: gift.cardSatang,
        giftHidePrices: gift.hidePrices,
        idempotencyKey: request.idempotencyKey,
        expiresAt: cod ? null : new Date(now.getTime() + company.orderExpiryHours * 3_600_000),
        paidAt: null,
      });
      await recordStockMovements(
        tx,
        priced.map((line) => ({ productId: line.product.id, variantId: line.product.variantId, delta: -line.amount, kind: 'order' as const, orderNo: order.orderNo })),
      );
      await repo.insertOrderLines(
        tx,
        priced.map((line) => ({
          orderId: order.id,
          productId: line.product.id,
          variantId: line.product.variantId,
          productCode: line.product.code,
          productName: line.product.name,
          variantOptions: line.product.options,
          productImage: line.product.image,
          unitPriceSatang: line.unitPriceSatang,
          amount: line.amount,
          lineTotalSatang: line.lineTotalSatang,
          giftWrap: lineWraps.get(line.product.code) ?? null,
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
      // The mail commits with the order (outbox): never lost, never waited on.
      await enqueueOrderMail(tx, order.orderNo, member.email, 'placed');
      if (request.taxInvoice) await saveTaxInvoiceRequest(tx, order.id, request.taxInvoice);
      if (request.quotation) await markQuotationOrdered(tx, request.quotation.id, order.id);
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
  if (placed.created) {
    // Stock changed: cached product pages and listings showing these products must not sell on.
    stockChanged(view.lines.map((line) => line.productCode));
  }
  return { order: view, created: placed.created };
}

// ---------------------------------------------------------------------------------------------------
// What the checkout page offers this member

export interface CheckoutOptions {
  addresses: repo.AddressOption[];
  deliveryOptions: DeliveryOption[];
  paymentMethods: { code: PaymentMethod; label: string }[];
  freeShippingMinSatang: number | null;
  /** issue 29: where and when a store-pickup order is collected. */
  pickupPlace: { address: string; hours: string };
  /** issue 31 part 6: the wrappings on offer now (active ones only) and the card's price. */
  giftWrapOptions: GiftWrapOption[];
  giftCardPriceSatang: number;
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
    pickupPlace: { address: company.pickupAddress || company.address, hours: company.pickupHours || company.openingHours },
    giftWrapOptions: company.giftWrapOptions.filter((option) => option.active),
    giftCardPriceSatang: company.giftCardPriceSatang,
  };
}

/**
 * The PromptPay payload an order is paid with, or null when PromptPay is off or the order is not payable:
 * the one string behind the page's QR and the picture `/order/payment-qr.png` saves, so both pay the same.
 */
export function orderPromptPayPayload(order: OrderView, company: CompanyInfo): string | null {
  const payable = order.status === 'pending_payment' || order.status === 'payment_review';
  const usePromptPay = payable && company.promptpayId !== '' && company.paymentMethods.promptpay && order.totalSatang > 0;
  return usePromptPay ? promptPayPayload(company.promptpayId, order.totalSatang) : null;
}

/** The QR and accounts of the payment page; null QR when PromptPay is off or the order is not payable. */
export async function paymentDetails(
  order: OrderView,
): Promise<{ qrSvg: string | null; payload: string | null; promptpayId: string; bankAccounts: CompanyInfo['bankAccounts'] }> {
  const company = await getCompany();
  const payload = orderPromptPayPayload(order, company);
  return {
    qrSvg: payload ? await qrSvg(payload) : null,
    payload,
    promptpayId: company.promptpayId,
    bankAccounts: company.bankAccounts,
  };
}
