import { satangToBaht } from '../../lib/money.ts';
import { paymentMethodLabels, statusLabels, type OrderQuote, type OrderView } from '../../lib/orders.ts';
import type { SlipCheckView } from '../../lib/slip-check.ts';
import type { OrderDocumentsView } from '../../lib/documents.ts';
import type { GiftView, GiftWrapSnapshot } from '../../lib/gift-wrap.ts';

/** issue 31 part 6: a wrapping as sold, its price in baht. */
function wrapJson(wrap: GiftWrapSnapshot | null) {
  return wrap ? { code: wrap.code, name: wrap.name, price: satangToBaht(wrap.priceSatang) } : null;
}

/** issue 31 part 6: the gift part of an order or quote (docs/design.md section 6). */
function giftJson(gift: GiftView) {
  return {
    wrap: wrapJson(gift.orderWrap),
    wrap_price: satangToBaht(gift.wrapSatang),
    message: gift.message,
    card_price: satangToBaht(gift.cardSatang),
    hide_prices: gift.hidePrices,
  };
}

/** The JSON shape of an order for API clients: baht numbers in `*_price` fields (docs/design.md section 6). */
export function orderJson(order: OrderView) {
  return {
    order_no: order.orderNo,
    status: order.status,
    status_label: statusLabels[order.status],
    payment_method: order.paymentMethod,
    payment_method_label: paymentMethodLabels[order.paymentMethod],
    delivery_code: order.deliveryCode,
    delivery_name: order.deliveryName,
    shipping_price: satangToBaht(order.shippingFeeSatang),
    subtotal_price: satangToBaht(order.subtotalSatang),
    discount_price: satangToBaht(order.discountSatang),
    total_price: satangToBaht(order.totalSatang),
    vat_price: satangToBaht(order.vatSatang),
    promotion_code: order.promotionCode,
    note: order.note,
    address: order.address,
    has_slip: order.hasSlip,
    carrier: order.carrier,
    tracking_no: order.trackingNo,
    tracking_url: order.trackingUrl,
    expires_at: order.expiresAt,
    paid_at: order.paidAt,
    shipped_at: order.shippedAt,
    delivered_at: order.deliveredAt,
    cancelled_at: order.cancelledAt,
    created_at: order.createdAt,
    lines: order.lines.map((line) => ({
      product_code: line.productCode,
      product_name: line.productName,
      product_image: line.productImage,
      product_price: satangToBaht(line.unitPriceSatang),
      amount: line.amount,
      line_total_price: satangToBaht(line.lineTotalSatang),
      gift_wrap: wrapJson(line.giftWrap),
    })),
    gift: giftJson(order.gift),
    events: order.events.map((event) => ({
      from_status: event.fromStatus,
      to_status: event.toStatus,
      actor_type: event.actorType,
      note: event.note,
      created_at: event.createdAt,
    })),
      ...(order.slipCheck !== undefined ? { slip_check: slipCheckJson(order.slipCheck) } : {}),
    ...(order.documents ? { documents: documentsJson(order.orderNo, order.documents) } : {}),
  };
}

/** issue 13: what the slip's QR said (the member sees it too: it is about their own transfer). */
function slipCheckJson(check: SlipCheckView | null) {
  if (!check) return null;
  return {
    status: check.status,
    label: check.label,
    bank: check.bank,
    bank_name: check.bankLabel,
    reference: check.reference,
    warning: check.warning,
    checked_at: check.checkedAt,
  };
}

/** issue 13: receipt and tax invoice numbers, with where to download them. */
function documentsJson(orderNo: string, documents: OrderDocumentsView) {
  const no = encodeURIComponent(orderNo);
  return {
    receipt_no: documents.receiptNo,
    receipt_url: documents.receiptNo ? `/order/receipt.pdf?no=${no}` : null,
    tax_invoice: documents.taxInvoice
      ? {
          buyer_name: documents.taxInvoice.buyerName,
          buyer_address: documents.taxInvoice.buyerAddress,
          buyer_tax_id: documents.taxInvoice.buyerTaxId,
          buyer_branch: documents.taxInvoice.buyerBranch,
          invoice_no: documents.taxInvoice.invoiceNo,
          invoice_url: documents.taxInvoice.invoiceNo ? `/order/tax-invoice.pdf?no=${no}` : null,
        }
      : null,
  };
}

export function quoteJson(quote: OrderQuote) {
  return {
    lines: quote.lines.map((line) => ({
      product_code: line.productCode,
      product_name: line.productName,
      product_image: line.productImage,
      product_price: satangToBaht(line.unitPriceSatang),
      amount: line.amount,
      line_total_price: satangToBaht(line.lineTotalSatang),
      stock: line.stock,
      available: line.available,
      gift_wrap: wrapJson(line.giftWrap),
    })),
    gift: giftJson(quote.gift),
    subtotal_price: satangToBaht(quote.subtotalSatang),
    discount_price: satangToBaht(quote.discountSatang),
    shipping_price: satangToBaht(quote.shippingFeeSatang),
    total_price: satangToBaht(quote.totalSatang),
    vat_price: satangToBaht(quote.vatSatang),
    promotion: quote.promotion ? { code: quote.promotion.code, name: quote.promotion.name, discount_price: satangToBaht(quote.promotion.discountSatang) } : null,
    promotion_error: quote.promotionError,
    free_shipping_min_price: quote.freeShippingMinSatang === null ? null : satangToBaht(quote.freeShippingMinSatang),
  };
}
