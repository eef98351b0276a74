import { satangToBaht } from '../../lib/money.ts';
import type { QuotationView } from '../../lib/quotations.ts';

/** The JSON shape of a quotation: baht numbers in `*_price` fields, like orders. */
export function quotationJson(quotation: QuotationView) {
  return {
    quotation_no: quotation.quotationNo,
    buyer_name: quotation.buyerName,
    buyer_company: quotation.buyerCompany,
    buyer_address: quotation.buyerAddress,
    buyer_tax_id: quotation.buyerTaxId,
    buyer_phone: quotation.buyerPhone,
    delivery_code: quotation.deliveryCode,
    delivery_name: quotation.deliveryName,
    shipping_price: satangToBaht(quotation.shippingFeeSatang),
    subtotal_price: satangToBaht(quotation.subtotalSatang),
    total_price: satangToBaht(quotation.totalSatang),
    vat_price: satangToBaht(quotation.vatSatang),
    valid_until: quotation.validUntil,
    created_at: quotation.createdAt,
    order_no: quotation.orderNo,
    valid: quotation.valid,
    pdf_url: `/quotation/${encodeURIComponent(quotation.quotationNo)}/pdf`,
    lines: quotation.lines.map((line) => ({
      product_code: line.productCode,
      product_name: line.productName,
      product_price: satangToBaht(line.unitPriceSatang),
      amount: line.amount,
      line_total_price: satangToBaht(line.lineTotalSatang),
    })),
  };
}
