import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '../../lib/use-store';
import { $cart } from '../../stores/cart';
import { clearCart } from '../../stores/cart-edits';
import { useHydrated } from '../../lib/use-hydrated';
import { bahtToSatang, formatBaht } from '../../lib/money';
import type { DeliveryOption } from '../../lib/types';
import type { PaymentMethod } from '../../lib/orders';
import TaxInvoiceFields, { emptyTaxInvoice, type TaxInvoiceInput } from './TaxInvoiceFields';
import CheckoutAddress, { type AddressOption } from './CheckoutAddress';
import { isStorePickup } from '../../lib/delivery';
import type { GiftWrapOption } from '../../lib/gift-wrap';
import CheckoutTotals, { type QuoteTotals } from './CheckoutTotals';
import GiftWrapSection, { emptyGift, giftMessageProblem, giftRequest, type GiftChoice } from './GiftWrapSection';

interface Props {
  addresses: AddressOption[];
  deliveryOptions: DeliveryOption[];
  paymentMethods: { code: PaymentMethod; label: string }[];
  freeShippingMinSatang: number | null;
  pickupPlace: { address: string; hours: string };
  giftWrapOptions: GiftWrapOption[];
  giftCardPriceSatang: number;
}

interface QuoteLine {
  product_code: string;
  product_name: string;
  product_image: string | null;
  product_price: number;
  amount: number;
  line_total_price: number;
  stock: number;
  available: boolean;
}

interface Quote extends QuoteTotals {
  lines: QuoteLine[];
  promotion: { code: string; name: string; discount_price: number } | null;
  promotion_error: { code: string; message: string } | null;
}

const KEY_STORAGE = 'checkoutKey';

/**
 * One idempotency key per cart content, kept in localStorage: a double click, a retry after a lost
 * answer and a second tab with the same cart all send the same key, so the server makes one order.
 */
function checkoutKey(signature: string): string {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY_STORAGE) ?? 'null') as { key: string; signature: string } | null;
    if (stored && stored.signature === signature && /^[A-Za-z0-9_-]{8,100}$/.test(stored.key)) return stored.key;
  } catch {
    // A damaged value is replaced below.
  }
  const key = `co-${crypto.randomUUID()}`;
  localStorage.setItem(KEY_STORAGE, JSON.stringify({ key, signature }));
  return key;
}

async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ ok: boolean; status: number; data?: T; message?: string; code?: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as { data?: T; message?: string; code?: string };
    return { ok: response.ok, status: response.status, ...json };
  } catch {
    return { ok: false, status: 0, message: 'เชื่อมต่อไม่สำเร็จ กรุณาตรวจสอบอินเทอร์เน็ตแล้วลองใหม่', code: 'network' };
  }
}

export default function CheckoutForm({ addresses, deliveryOptions, paymentMethods, freeShippingMinSatang, pickupPlace, giftWrapOptions, giftCardPriceSatang }: Props) {
  const hydrated = useHydrated();
  const cart = useStore($cart);
  const lines = useMemo(() => cart.map((item) => ({ product_code: item.product_code, amount: item.amount })), [cart]);
  const signature = useMemo(() => JSON.stringify(lines), [lines]);
  const [addressId, setAddressId] = useState(() => (addresses.find((a) => a.isDefault) ?? addresses[0])?.id ?? '');
  const [deliveryCode, setDeliveryCode] = useState(deliveryOptions[0]?.code ?? '');
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod | ''>(paymentMethods[0]?.code ?? '');
  const [codeInput, setCodeInput] = useState('');
  const [promotionCode, setPromotionCode] = useState('');
  const [promotionMessage, setPromotionMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [note, setNote] = useState('');
  const [wantsTaxInvoice, setWantsTaxInvoice] = useState(false);
  const [taxInvoice, setTaxInvoice] = useState<TaxInvoiceInput>(emptyTaxInvoice);
  const [gift, setGift] = useState<GiftChoice>(emptyGift);
  const quoteGift = useMemo(() => JSON.stringify(giftRequest(gift, true) ?? null), [gift]);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [quoteError, setQuoteError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState('');
  const pickup = isStorePickup(deliveryCode);

  const refreshQuote = useCallback(async () => {
    if (lines.length === 0) {
      setQuote(null);
      return;
    }
    const answer = await postJson<Quote>('/api/order-quote', {
      lines,
      delivery_code: deliveryCode || undefined,
      promotion_code: promotionCode || undefined,
      gift: JSON.parse(quoteGift) ?? undefined,
    });
    if (answer.ok && answer.data) {
      setQuote(answer.data);
      setQuoteError('');
    } else {
      setQuoteError(answer.message ?? 'ไม่สามารถคำนวณราคาได้');
    }
  }, [lines, deliveryCode, promotionCode, quoteGift]);

  useEffect(() => {
    if (hydrated) void refreshQuote();
  }, [hydrated, refreshQuote]);

  // Taken when the page shows the cart, not at the click: a second tab opened on the same cart finds
  // the same key in localStorage, so confirming in both tabs still makes one order. The click sends the
  // key taken here: the other tab's order, once placed, removes the stored key, and a tab that read it
  // again at its click (before the emptied cart reached it) made a second order.
  const shownKey = useRef<{ key: string; signature: string } | null>(null);
  useEffect(() => {
    if (hydrated && lines.length > 0) shownKey.current = { key: checkoutKey(signature), signature };
  }, [hydrated, lines.length, signature]);

  async function applyCode() {
    const code = codeInput.trim().toUpperCase();
    if (!code) {
      setPromotionMessage({ ok: false, text: 'กรุณากรอกโค้ดส่วนลด' });
      return;
    }
    const answer = await postJson<{ code: string; name: string; discount_price: number }>('/api/check-promotion', { code, lines });
    if (answer.ok && answer.data) {
      setPromotionCode(answer.data.code);
      setPromotionMessage({ ok: true, text: `ใช้โค้ด ${answer.data.code} แล้ว: ${answer.data.name} ลด ${formatBaht(bahtToSatang(answer.data.discount_price))}` });
    } else {
      setPromotionCode('');
      setPromotionMessage({ ok: false, text: answer.message ?? 'โค้ดส่วนลดไม่ถูกต้อง' });
    }
  }

  function removeCode() {
    setPromotionCode('');
    setCodeInput('');
    setPromotionMessage(null);
  }

  async function placeOrder() {
    setError('');
    if (!addressId && !pickup) return setError('กรุณาเลือกที่อยู่จัดส่ง');
    if (!deliveryCode) return setError('กรุณาเลือกวิธีจัดส่ง');
    if (!paymentMethod) return setError('กรุณาเลือกวิธีชำระเงิน');
    const giftProblem = giftMessageProblem(gift.message);
    if (giftProblem) return setError(giftProblem);
    setSubmitting(true);
    const key = shownKey.current?.signature === signature ? shownKey.current.key : checkoutKey(signature);
    const answer = await postJson<{ order_no: string; payment_method: PaymentMethod }>(
      '/api/orders',
      {
        lines,
        address_id: pickup ? undefined : addressId,
        delivery_code: deliveryCode,
        payment_method: paymentMethod,
        promotion_code: promotionCode || undefined,
        note: note.trim() || undefined,
        tax_invoice: wantsTaxInvoice ? taxInvoice : undefined,
        gift: giftRequest(gift),
      },
      { 'Idempotency-Key': key },
    );
    if (answer.ok && answer.data) {
      localStorage.removeItem(KEY_STORAGE);
      clearCart();
      const no = encodeURIComponent(answer.data.order_no);
      window.location.assign(answer.data.payment_method === 'cod' ? `/order/success?no=${no}` : `/order/payment?no=${no}`);
      return;
    }
    setSubmitting(false);
    if (answer.status === 400 || answer.status === 0) {
      setError(answer.message ?? 'ข้อมูลไม่ถูกต้อง');
      if (answer.code?.startsWith('promotion_')) removeCode();
      return;
    }
    if (answer.status === 401) {
      window.location.assign('/login?next=%2Forder');
      return;
    }
    window.location.assign(`/order/failed?code=${encodeURIComponent(answer.code ?? 'error')}`);
  }

  if (!hydrated) {
    return (
      <div className="text-center py-5 text-secondary needs-js" aria-busy="true">
        กำลังโหลด…
      </div>
    );
  }

  if (cart.length === 0) {
    return (
      <div className="card card-body text-center py-5">
        <p className="mb-3">ไม่มีสินค้าในตะกร้าสินค้าของคุณ</p>
        <div>
          <a className="btn btn-warning" href="/product">
            เลือกซื้อสินค้า
          </a>
        </div>
      </div>
    );
  }

  const unavailable = quote?.lines.filter((line) => !line.available) ?? [];
  const goodsAfterDiscount = quote ? bahtToSatang(quote.subtotal_price - quote.discount_price) : 0;

  return (
    <div className="row g-4 checkout">
      <div className="col-12 col-lg-7 d-grid gap-3 align-content-start">
        <CheckoutAddress addresses={addresses} addressId={addressId} onChoose={setAddressId} pickup={pickup} pickupPlace={pickupPlace} />

        <section className="card" aria-labelledby="checkout-delivery">
          <div className="card-body">
            <h2 className="h5 card-title" id="checkout-delivery">
              วิธีจัดส่ง
            </h2>
            <div className="d-grid gap-2" role="radiogroup" aria-label="วิธีจัดส่ง">
              {deliveryOptions.map((option) => {
                const free = option.feeSatang > 0 && freeShippingMinSatang !== null && goodsAfterDiscount >= freeShippingMinSatang;
                return (
                  <label key={option.code} className="form-check border rounded p-2 ps-5 mb-0 d-flex justify-content-between gap-2">
                    <span>
                      <input
                        className="form-check-input"
                        type="radio"
                        name="delivery"
                        value={option.code}
                        checked={deliveryCode === option.code}
                        onChange={() => setDeliveryCode(option.code)}
                      />
                      {option.name} <span className="d-block small text-secondary">{option.days}</span>
                    </span>
                    <span className="text-nowrap">
                      {option.feeSatang === 0 ? 'ฟรี' : free ? <><s className="text-secondary">{formatBaht(option.feeSatang)}</s> ฟรี</> : formatBaht(option.feeSatang)}
                    </span>
                  </label>
                );
              })}
            </div>
            {freeShippingMinSatang !== null && (
              <p className="small text-secondary mt-2 mb-0">ส่งฟรีเมื่อสั่งซื้อครบ {formatBaht(freeShippingMinSatang)}</p>
            )}
          </div>
        </section>

        <section className="card" aria-labelledby="checkout-payment">
          <div className="card-body">
            <h2 className="h5 card-title" id="checkout-payment">
              วิธีชำระเงิน
            </h2>
            <div className="d-grid gap-2" role="radiogroup" aria-label="วิธีชำระเงิน">
              {paymentMethods.map((method) => (
                <label key={method.code} className="form-check border rounded p-2 ps-5 mb-0">
                  <input
                    className="form-check-input"
                    type="radio"
                    name="payment"
                    value={method.code}
                    checked={paymentMethod === method.code}
                    onChange={() => setPaymentMethod(method.code)}
                  />
                  {method.label}
                </label>
              ))}
            </div>
          </div>
        </section>

        <GiftWrapSection options={giftWrapOptions} cardPriceSatang={giftCardPriceSatang} lines={quote?.lines ?? []} value={gift} onChange={setGift} />

        <section className="card" aria-labelledby="checkout-note">
          <div className="card-body">
            <h2 className="h5 card-title" id="checkout-note">
              <label htmlFor="order-note">หมายเหตุถึงร้าน</label>
            </h2>
            <textarea
              id="order-note"
              className="form-control"
              rows={2}
              maxLength={500}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              placeholder="เช่น ขอใบเสร็จแยก หรือเวลาที่สะดวกรับของ"
            />
          </div>
        </section>

        <section className="card" aria-labelledby="checkout-tax-invoice">
          <div className="card-body">
            <div className="form-check mb-0">
              <input
                className="form-check-input"
                type="checkbox"
                id="checkout-tax-invoice"
                checked={wantsTaxInvoice}
                onChange={(event) => setWantsTaxInvoice(event.target.checked)}
              />
              <label className="form-check-label" htmlFor="checkout-tax-invoice">
                ต้องการใบกำกับภาษีเต็มรูป (สำหรับบริษัท/นิติบุคคล)
              </label>
            </div>
            {wantsTaxInvoice && (
              <div className="mt-2">
                <TaxInvoiceFields value={taxInvoice} onChange={setTaxInvoice} errors={{}} />
              </div>
            )}
          </div>
        </section>
      </div>

      <div className="col-12 col-lg-5">
        <section className="card checkout-summary" aria-labelledby="checkout-summary">
          <div className="card-body">
            <h2 className="h5 card-title" id="checkout-summary">
              สรุปคำสั่งซื้อ
            </h2>
            {quoteError && <div className="alert alert-danger">{quoteError}</div>}
            <ul className="list-unstyled mb-3 checkout-lines">
              {(quote?.lines ?? []).map((line) => (
                <li key={line.product_code} className="d-flex gap-2 py-2 border-bottom">
                  <img
                    src={line.product_image ?? '/images/placeholder.svg'}
                    alt=""
                    width="48"
                    height="48"
                    className="rounded object-fit-cover flex-shrink-0 bg-light"
                  />
                  <div className="flex-grow-1 small">
                    <div className="fw-semibold">{line.product_name}</div>
                    <div className="text-secondary">
                      {formatBaht(bahtToSatang(line.product_price))} × {line.amount}
                    </div>
                    {!line.available && <div className="text-danger">{line.stock === 0 ? 'สินค้าหมด' : `เหลือเพียง ${line.stock} ชิ้น`}</div>}
                  </div>
                  <div className="text-nowrap">{formatBaht(bahtToSatang(line.line_total_price))}</div>
                </li>
              ))}
            </ul>

            <div className="mb-3">
              <label htmlFor="promotion-code" className="form-label small mb-1">
                โค้ดส่วนลด
              </label>
              {promotionCode ? (
                <div className="d-flex justify-content-between align-items-center border rounded px-2 py-1">
                  <span className="fw-semibold">{promotionCode}</span>
                  <button type="button" className="btn btn-link btn-sm text-danger" onClick={removeCode}>
                    นำออก
                  </button>
                </div>
              ) : (
                <div className="input-group">
                  <input
                    id="promotion-code"
                    className="form-control"
                    value={codeInput}
                    maxLength={40}
                    autoCapitalize="characters"
                    onChange={(event) => setCodeInput(event.target.value)}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter') {
                        event.preventDefault();
                        void applyCode();
                      }
                    }}
                  />
                  <button type="button" className="btn btn-outline-primary" onClick={() => void applyCode()}>
                    ใช้โค้ด
                  </button>
                </div>
              )}
              {promotionMessage && (
                <div className={`small mt-1 ${promotionMessage.ok ? 'text-success' : 'text-danger'}`} role="status">
                  {promotionMessage.text}
                </div>
              )}
              {quote?.promotion_error && promotionCode && <div className="small text-danger mt-1">{quote.promotion_error.message}</div>}
            </div>

            {quote && <CheckoutTotals quote={quote} withCard={gift.message.trim() !== ''} />}
            {error && (
              <div className="alert alert-danger py-2" role="alert">
                {error}
              </div>
            )}
            <button
              type="button"
              className="btn btn-warning btn-lg w-100"
              disabled={submitting || !quote || unavailable.length > 0 || (addresses.length === 0 && !pickup)}
              onClick={() => void placeOrder()}
            >
              {submitting ? 'กำลังสั่งซื้อ…' : 'ยืนยันการสั่งซื้อ'}
            </button>
            <p className="small text-secondary mt-2 mb-0" data-testid="checkout-terms">
              การกดยืนยันการสั่งซื้อถือว่าคุณยอมรับ<a href="/terms">ข้อกำหนดและเงื่อนไข</a>และรับทราบ<a href="/privacy">นโยบายความเป็นส่วนตัว</a>ของร้าน
            </p>
            {unavailable.length > 0 && (
              <p className="small text-danger mt-2 mb-0">
                สินค้าบางรายการมีไม่พอ กรุณา<a href="/cart">แก้ไขตะกร้าสินค้า</a>
              </p>
            )}
          </div>
        </section>
      </div>
    </div>
  );
}
