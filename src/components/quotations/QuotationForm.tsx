import { useState, type FormEvent } from 'react';
import { useStore } from '../../lib/use-store';
import { $cart } from '../../stores/cart';
import { useHydrated } from '../../lib/use-hydrated';
import { formatBaht } from '../../lib/money';
import type { DeliveryOption } from '../../lib/types';
import { postJson } from '../account/api';

interface Props {
  deliveryOptions: DeliveryOption[];
  defaultName: string;
  defaultPhone: string;
  validDays: number;
}

/**
 * A quotation from the cart (docs/design.md section 14): who it is for, how it is delivered; the server prices
 * the lines (wholesale tiers, delivery fee) and answers the quotation, whose page opens next.
 */
export default function QuotationForm({ deliveryOptions, defaultName, defaultPhone, validDays }: Props) {
  const hydrated = useHydrated();
  const cart = useStore($cart);
  const [buyerName, setBuyerName] = useState(defaultName);
  const [buyerCompany, setBuyerCompany] = useState('');
  const [buyerAddress, setBuyerAddress] = useState('');
  const [buyerTaxId, setBuyerTaxId] = useState('');
  const [buyerPhone, setBuyerPhone] = useState(defaultPhone);
  const [deliveryCode, setDeliveryCode] = useState(deliveryOptions[0]?.code ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);

  if (!hydrated) return <p className="text-secondary needs-js">กำลังโหลดตะกร้าสินค้า…</p>;
  if (cart.length === 0) {
    return (
      <div className="card card-body text-center py-5">
        <p className="mb-3">ยังไม่มีสินค้าในตะกร้า เลือกสินค้าที่ต้องการก่อนขอใบเสนอราคา</p>
        <div>
          <a className="btn btn-shop" href="/product">
            เลือกซื้อสินค้า
          </a>
        </div>
      </div>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    setMessage('');
    setErrors({});
    const result = await postJson<{ quotation_no: string }>('/api/quotations', {
      lines: cart.map((item) => ({ product_code: item.product_code, amount: item.amount })),
      delivery_code: deliveryCode,
      buyer_name: buyerName,
      buyer_company: buyerCompany,
      buyer_address: buyerAddress,
      buyer_tax_id: buyerTaxId,
      buyer_phone: buyerPhone,
    });
    if (result.ok && result.data) {
      window.location.assign(`/quotation/${encodeURIComponent(result.data.quotation_no)}`);
      return;
    }
    if (result.status === 401) {
      window.location.assign('/login?next=%2Fquotation%2Fnew');
      return;
    }
    setErrors(result.fields);
    setMessage(result.message);
    setSending(false);
  }

  const input = (id: string, label: string, value: string, set: (value: string) => void, extra: Record<string, unknown> = {}) => (
    <div className="mb-2">
      <label className="form-label" htmlFor={`q-${id}`}>
        {label}
      </label>
      <input
        id={`q-${id}`}
        className={`form-control ${errors[id] ? 'is-invalid' : ''}`}
        value={value}
        onChange={(event) => set(event.target.value)}
        aria-describedby={errors[id] ? `q-${id}-error` : undefined}
        {...extra}
      />
      {errors[id] && (
        <div className="invalid-feedback" id={`q-${id}-error`}>
          {errors[id]}
        </div>
      )}
    </div>
  );

  return (
    <form className="row g-4" onSubmit={(event) => void submit(event)} noValidate>
      <div className="col-12 col-lg-7">
        <section className="card">
          <div className="card-body">
            <h2 className="h5">ออกใบเสนอราคาในนาม</h2>
            {input('buyer_name', 'ชื่อผู้ขอใบเสนอราคา', buyerName, setBuyerName, { maxLength: 120, autoComplete: 'name' })}
            {input('buyer_company', 'บริษัท / หน่วยงาน / โรงเรียน (ถ้ามี)', buyerCompany, setBuyerCompany, { maxLength: 200, autoComplete: 'organization' })}
            <div className="mb-2">
              <label className="form-label" htmlFor="q-buyer_address">
                ที่อยู่ (ถ้ามี)
              </label>
              <textarea id="q-buyer_address" className="form-control" rows={2} maxLength={500} value={buyerAddress} onChange={(event) => setBuyerAddress(event.target.value)} />
            </div>
            <div className="row g-2">
              <div className="col-sm-6">{input('buyer_tax_id', 'เลขประจำตัวผู้เสียภาษี (ถ้ามี)', buyerTaxId, setBuyerTaxId, { inputMode: 'numeric', maxLength: 17 })}</div>
              <div className="col-sm-6">{input('buyer_phone', 'เบอร์โทรศัพท์', buyerPhone, setBuyerPhone, { inputMode: 'tel', maxLength: 30, autoComplete: 'tel' })}</div>
            </div>
            <fieldset className="mt-2">
              <legend className="form-label fs-6">วิธีจัดส่ง</legend>
              {deliveryOptions.map((option) => (
                <div className="form-check" key={option.code}>
                  <input
                    className="form-check-input"
                    type="radio"
                    name="delivery"
                    id={`q-delivery-${option.code}`}
                    checked={deliveryCode === option.code}
                    onChange={() => setDeliveryCode(option.code)}
                  />
                  <label className="form-check-label" htmlFor={`q-delivery-${option.code}`}>
                    {option.name} <span className="text-secondary small">({option.feeSatang > 0 ? formatBaht(option.feeSatang) : 'ไม่มีค่าจัดส่ง'})</span>
                  </label>
                </div>
              ))}
            </fieldset>
          </div>
        </section>
      </div>
      <div className="col-12 col-lg-5">
        <section className="card">
          <div className="card-body">
            <h2 className="h5">สินค้าในใบเสนอราคา</h2>
            <ul className="list-unstyled small mb-2">
              {cart.map((item) => (
                <li key={item.product_code} className="d-flex justify-content-between gap-2 border-bottom py-1">
                  <span>{item.product_name}</span>
                  <span className="text-nowrap">x{item.amount.toLocaleString('th-TH')}</span>
                </li>
              ))}
            </ul>
            <p className="small text-secondary">ราคาต่อหน่วยคิดตามราคาขายส่งตามจำนวนของวันนี้ ใบเสนอราคามีผล {validDays} วัน</p>
            {message && (
              <div className="alert alert-danger py-2 small" role="alert">
                {message}
              </div>
            )}
            <button type="submit" className="btn btn-shop w-100" disabled={sending}>
              {sending ? 'กำลังออกใบเสนอราคา…' : 'ออกใบเสนอราคา'}
            </button>
          </div>
        </section>
      </div>
    </form>
  );
}
