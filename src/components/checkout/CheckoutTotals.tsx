import { bahtToSatang, formatBaht } from '../../lib/money';

/** The checkout summary's totals, from the server's quote: goods, discount, delivery, gift wrapping and card, total and VAT. */
export interface QuoteTotals {
  subtotal_price: number;
  discount_price: number;
  shipping_price: number;
  gift: { wrap_price: number; card_price: number };
  total_price: number;
  vat_price: number;
  promotion: { code: string } | null;
}

export default function CheckoutTotals({ quote, withCard }: { quote: QuoteTotals; withCard: boolean }) {
  return (
    <dl className="row small mb-2 checkout-totals">
      <dt className="col-7 fw-normal">ยอดรวมสินค้า</dt>
      <dd className="col-5 text-end mb-1">{formatBaht(bahtToSatang(quote.subtotal_price))}</dd>
      {quote.discount_price > 0 && (
        <>
          <dt className="col-7 fw-normal">ส่วนลด {quote.promotion?.code}</dt>
          <dd className="col-5 text-end mb-1 text-success">-{formatBaht(bahtToSatang(quote.discount_price))}</dd>
        </>
      )}
      <dt className="col-7 fw-normal">ค่าจัดส่ง</dt>
      <dd className="col-5 text-end mb-1">{quote.shipping_price === 0 ? 'ฟรี' : formatBaht(bahtToSatang(quote.shipping_price))}</dd>
      {quote.gift.wrap_price > 0 && (
        <>
          <dt className="col-7 fw-normal">ห่อของขวัญ</dt>
          <dd className="col-5 text-end mb-1" data-testid="order-gift-wrap">{formatBaht(bahtToSatang(quote.gift.wrap_price))}</dd>
        </>
      )}
      {withCard && (
        <>
          <dt className="col-7 fw-normal">การ์ดข้อความ</dt>
          <dd className="col-5 text-end mb-1">{quote.gift.card_price === 0 ? 'ฟรี' : formatBaht(bahtToSatang(quote.gift.card_price))}</dd>
        </>
      )}
      <dt className="col-7 fs-6">ยอดชำระทั้งหมด</dt>
      <dd className="col-5 text-end mb-1 fs-5 fw-semibold text-danger" data-testid="order-total">
        {formatBaht(bahtToSatang(quote.total_price))}
      </dd>
      <dt className="col-7 fw-normal text-secondary">รวมภาษีมูลค่าเพิ่ม 7%</dt>
      <dd className="col-5 text-end mb-0 text-secondary" data-testid="order-vat">
        {formatBaht(bahtToSatang(quote.vat_price))}
      </dd>
    </dl>
  );
}
