import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '../../lib/use-store';
import { $cart, orderableLine, removeCartItem, type CartItem } from '../../stores/cart';
import { applyQuote, updateCartItem } from '../../stores/cart-edits';
import { useHydrated } from '../../lib/use-hydrated';
import { bahtToSatang, formatBaht } from '../../lib/money';
import { nextTierFor } from '../../lib/pricing';
import type { CartQuote, CartQuoteLine } from '../../lib/cart-limits';
import { confirmRemove } from './confirm-remove';
import QuantityStepper from './QuantityStepper';
import DeliveryEstimates from './DeliveryEstimates';
import type { DeliveryOption } from '../../lib/types';

const QUOTE_DELAY_MS = 350;

type Status = 'idle' | 'loading' | 'ready' | 'error';

/** What the shopper is told about a line after the server priced it (Thai, short). */
function notesFor(line: CartQuoteLine): string[] {
  const notes: string[] = [];
  if (line.unavailable) {
    notes.push('สินค้านี้ไม่มีจำหน่ายแล้ว กรุณาลบออกจากตะกร้า');
    return notes;
  }
  if (line.price_changed && line.last_seen_price !== null) {
    notes.push(`ราคาเปลี่ยนจาก ${formatBaht(bahtToSatang(line.last_seen_price))} เป็น ${formatBaht(line.unit_price_satang)}`);
  }
  if (line.insufficient_stock) {
    notes.push(line.stock > 0 ? `สินค้าคงเหลือ ${line.stock} ชิ้น ปรับจำนวนให้แล้ว` : 'สินค้าหมด กรุณาลบออกจากตะกร้า');
  }
  return notes;
}

/** The key of what the server must price: codes and amounts (prices never matter to the server). */
function quoteKey(items: readonly CartItem[]): string {
  return items.map((item) => `${item.product_code}:${item.amount}`).join(',');
}

interface Props {
  /** issue 29: the shop's delivery options and free-delivery amount, for the estimate beside the total. */
  deliveryOptions?: DeliveryOption[];
  freeShippingMinSatang?: number | null;
}

export default function CartPage({ deliveryOptions = [], freeShippingMinSatang = null }: Props) {
  const hydrated = useHydrated();
  const items = useStore($cart);
  const [status, setStatus] = useState<Status>('idle');
  const [unavailable, setUnavailable] = useState<ReadonlySet<string>>(new Set());
  const [notes, setNotes] = useState<Record<string, string[]>>({});
  const [retry, setRetry] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const quotedOnce = useRef(false);
  const key = quoteKey(items);

  useEffect(() => {
    if (!hydrated || key === '') return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setStatus('loading');
      try {
        const body = {
          items: $cart.get().map((item) => ({ product_code: item.product_code, amount: item.amount, product_price: item.product_price })),
        };
        const response = await fetch('/api/cart/quote', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(`quote ${response.status}`);
        const { data } = (await response.json()) as { data: CartQuote };
        if (controller.signal.aborted) return;
        setUnavailable(new Set(data.lines.filter((line) => line.unavailable).map((line) => line.product_code)));
        setNotes((old) => {
          const next = { ...old };
          for (const line of data.lines) {
            const lineNotes = notesFor(line);
            // A note stays until the shopper touches the line, even when the follow-up quote is clean.
            if (lineNotes.length > 0) next[line.product_code] = lineNotes;
          }
          return next;
        });
        applyQuote(data.lines);
        quotedOnce.current = true;
        setStatus('ready');
      } catch (error) {
        if (controller.signal.aborted || (error instanceof DOMException && error.name === 'AbortError')) return;
        setStatus('error');
      }
      // The first quote goes at once; later ones wait for the shopper to stop pressing +/−.
    }, quotedOnce.current ? QUOTE_DELAY_MS : 0);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [hydrated, key, retry]);

  const forget = useCallback((code: string) => {
    setNotes((old) => {
      if (!(code in old)) return old;
      const { [code]: _gone, ...rest } = old;
      return rest;
    });
  }, []);

  const countable = items.filter((item) => orderableLine(item) && !unavailable.has(item.product_code));
  const orderable = useMemo(
    () => items.length > 0 && items.every((item) => !unavailable.has(item.product_code) && (item.stock === undefined || item.amount <= item.stock)),
    [items, unavailable],
  );
  const subtotalSatang = countable.reduce((sum, item) => sum + bahtToSatang(item.product_price) * item.amount, 0);
  const pieces = countable.reduce((sum, item) => sum + item.amount, 0);

  async function remove(code: string) {
    if (!(await confirmRemove())) return;
    removeCartItem(code);
    forget(code);
    heading.current?.focus();
  }

  if (!hydrated) {
    return (
      <div className="cart-page">
        <h1 className="h3 mb-3">ตะกร้าสินค้า</h1>
        <p className="text-secondary needs-js" role="status">
          กำลังโหลดตะกร้าสินค้า…
        </p>
      </div>
    );
  }

  if (items.length === 0) {
    return (
      <div className="cart-page">
        <h1 className="h3 mb-3" ref={heading} tabIndex={-1}>
          ตะกร้าสินค้า
        </h1>
        <div className="text-center py-5 bg-white rounded shadow-sm">
          <p className="text-secondary mb-3">ไม่มีสินค้าในตะกร้าสินค้าของคุณ</p>
          <a className="btn btn-shop" href="/product">
            เลือกซื้อสินค้าต่อ
          </a>
        </div>
      </div>
    );
  }

  return (
    <div className="cart-page">
      <h1 className="h3 mb-3" ref={heading} tabIndex={-1}>
        ตะกร้าสินค้า <span className="text-secondary fs-6">({items.length} รายการ)</span>
      </h1>
      <div className="row g-3">
        <div className="col-lg-8">
          {status === 'error' && (
            <div className="alert alert-warning d-flex justify-content-between align-items-center" role="alert">
              <span>ไม่สามารถตรวจสอบราคาล่าสุดได้ ราคาที่แสดงอาจไม่เป็นปัจจุบัน</span>
              <button type="button" className="btn btn-sm btn-outline-dark" onClick={() => setRetry((value) => value + 1)}>
                ลองใหม่
              </button>
            </div>
          )}
          <ul className="list-unstyled m-0 d-grid gap-2" aria-label="รายการสินค้าในตะกร้า">
            {items.map((item) => (
              <CartLine
                key={item.product_code}
                item={item}
                unavailable={unavailable.has(item.product_code)}
                notes={notes[item.product_code] ?? []}
                onAmount={(amount) => {
                  forget(item.product_code);
                  updateCartItem(item.product_code, amount);
                }}
                onRemove={() => void remove(item.product_code)}
              />
            ))}
          </ul>
        </div>
        <div className="col-lg-4">
          <section className="bg-white rounded shadow-sm p-3 cart-summary" aria-label="สรุปคำสั่งซื้อ">
            <div className="d-flex justify-content-between mb-1">
              <span>จำนวนสินค้า</span>
              <span data-testid="cart-pieces">{pieces.toLocaleString('th-TH')} ชิ้น</span>
            </div>
            <div className="d-flex justify-content-between align-items-baseline mb-2">
              <span>ยอดรวมสินค้า</span>
              <strong className="fs-5 text-price" data-testid="cart-subtotal">
                {formatBaht(subtotalSatang)}
              </strong>
            </div>
            <DeliveryEstimates options={deliveryOptions} freeShippingMinSatang={freeShippingMinSatang} goodsSatang={subtotalSatang} />
            <p className="small text-secondary mb-3">ค่าจัดส่งและส่วนลดคำนวณอีกครั้งในขั้นตอนสั่งซื้อ</p>
            <p className="small text-secondary mb-2" role="status" aria-live="polite">
              {status === 'loading' ? 'กำลังตรวจสอบราคาและสต็อกล่าสุด…' : status === 'ready' ? 'ราคาและสต็อกเป็นปัจจุบันแล้ว' : ''}
            </p>
            {orderable ? (
              <a className="btn btn-shop w-100 mb-2" href="/order">
                สั่งซื้อสินค้า
              </a>
            ) : (
              <>
                <button type="button" className="btn btn-shop w-100 mb-2" disabled aria-describedby="cart-blocked">
                  สั่งซื้อสินค้า
                </button>
                <p id="cart-blocked" className="small text-danger">
                  กรุณาลบสินค้าที่หมดหรือไม่มีจำหน่าย หรือปรับจำนวนก่อนสั่งซื้อ
                </p>
              </>
            )}
            <a className="btn btn-outline-secondary w-100 mb-2" href="/quotation/new">
              ขอใบเสนอราคา
            </a>
            <a className="btn btn-outline-primary w-100" href="/product">
              เลือกซื้อสินค้าต่อ
            </a>
          </section>
        </div>
      </div>
    </div>
  );
}

interface LineProps {
  item: CartItem;
  unavailable: boolean;
  notes: string[];
  onAmount: (amount: number) => void;
  onRemove: () => void;
}

function CartLine({ item, unavailable, notes, onAmount, onRemove }: LineProps) {
  const unitSatang = bahtToSatang(item.product_price);
  const retailSatang = item.retail_price === undefined ? null : bahtToSatang(item.retail_price);
  const tiers = (item.tiers ?? []).map((tier) => ({ minQuantity: tier.min_quantity, priceSatang: bahtToSatang(tier.price) }));
  const next = retailSatang === null ? null : nextTierFor(retailSatang, tiers, item.amount);
  const wholesale = retailSatang !== null && unitSatang < retailSatang;
  const soldOut = !orderableLine(item);
  const nameId = `cart-line-${item.product_code}`;
  const href = `/product/${encodeURIComponent(item.product_code)}`;
  return (
    <li className={`bg-white rounded shadow-sm p-2 p-md-3 cart-line${unavailable ? ' opacity-75' : ''}`} data-product-code={item.product_code}>
      <div className="d-flex gap-2 gap-md-3">
        <a href={href} className="flex-shrink-0" tabIndex={-1} aria-hidden="true">
          <img src={item.product_image ?? '/images/placeholder.svg'} alt="" width="80" height="80" className="rounded cart-thumb" decoding="async" />
        </a>
        <div className="flex-grow-1 min-w-0">
          <div className="d-flex justify-content-between gap-2">
            <a id={nameId} href={href} className="text-reset text-decoration-none fw-medium cart-line-name">
              {item.product_name}
            </a>
            <button type="button" className="btn btn-sm btn-outline-danger flex-shrink-0 align-self-start" aria-describedby={nameId} onClick={onRemove}>
              ลบ
            </button>
          </div>
          <div className="small text-secondary">
            ราคาต่อชิ้น{' '}
            <span className="text-price" data-testid="unit-price">
              {formatBaht(unitSatang)}
            </span>
            {wholesale && retailSatang !== null && (
              <>
                {' '}
                <s className="text-secondary">{formatBaht(retailSatang)}</s> <span className="badge text-bg-success">ราคาส่ง</span>
              </>
            )}
          </div>
          {next && !unavailable && (
            <div className="small text-success" data-testid="next-tier">
              ซื้อเพิ่มอีก {next.missing} ชิ้น ราคาชิ้นละ {formatBaht(next.priceSatang)}
            </div>
          )}
          {notes.map((note) => (
            <div key={note} className="small text-danger" data-testid="cart-line-note">
              {note}
            </div>
          ))}
          {soldOut && !unavailable && notes.length === 0 && <div className="small text-danger">สินค้าหมด</div>}
          <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mt-2">
            <QuantityStepper
              size="sm"
              value={item.amount}
              max={item.stock === undefined ? 9999 : Math.max(item.stock, 1)}
              label={`จำนวน ${item.product_name}`}
              disabled={unavailable || soldOut}
              onChange={onAmount}
            />
            <div className="text-end">
              <span className="small text-secondary me-1">รวม</span>
              <strong className="text-price" data-testid="line-total">
                {unavailable ? '-' : formatBaht(unitSatang * item.amount)}
              </strong>
            </div>
          </div>
        </div>
      </div>
    </li>
  );
}
