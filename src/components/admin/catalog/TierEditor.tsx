import { useEffect, useRef, useState } from 'react';
import { MAX_TIERS, parseBaht, parseWholeNumber, tierProblem } from '../../../lib/product-rules';

interface Row {
  id: number;
  min: string;
  price: string;
}

interface Props {
  initial: { min: string; price: string }[];
  /** The name of the retail price input, read to check that tier prices fall below it. */
  priceInput: string;
  serverError?: string;
}

/**
 * Wholesale tiers: rows of "from N units → price". Checked as typed with the same rule the server
 * applies (quantities rising, prices falling, below retail). Posts tier_min / tier_price in row order.
 */
export default function TierEditor({ initial, priceInput, serverError = '' }: Props) {
  // Ids start from the row index, so the server render and the first client render agree.
  const [rows, setRows] = useState<Row[]>(() => initial.map((row, index) => ({ id: index, ...row })));
  const nextId = useRef(initial.length);
  const [retail, setRetail] = useState<number | null>(null);

  useEffect(() => {
    const field = document.querySelector<HTMLInputElement>(`input[name="${priceInput}"]`);
    if (!field) return;
    const read = () => setRetail(parseBaht(field.value));
    read();
    field.addEventListener('input', read);
    return () => field.removeEventListener('input', read);
  }, [priceInput]);

  const filled = rows.filter((row) => row.min.trim() !== '' || row.price.trim() !== '');
  let problem = '';
  const parsed = filled.map((row) => ({ minQuantity: parseWholeNumber(row.min), priceSatang: parseBaht(row.price) }));
  const bad = parsed.findIndex((row) => row.minQuantity === null || row.priceSatang === null);
  if (bad >= 0) problem = `ราคาส่งแถวที่ ${bad + 1}: กรุณากรอกจำนวนและราคาเป็นตัวเลข`;
  else if (retail !== null) problem = tierProblem(retail, parsed as { minQuantity: number; priceSatang: number }[]) ?? '';
  const message = problem || serverError;

  const update = (id: number, change: Partial<Row>) => setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));

  return (
    <fieldset className="tier-editor" data-testid="tier-editor">
      <legend className="form-label fs-6 mb-1">ราคาส่ง</legend>
      <p className="form-text mt-0">ซื้อตั้งแต่จำนวนนี้ขึ้นไป ได้ราคาต่อหน่วยนี้ (จำนวนต้องมากขึ้น ราคาต้องลดลงทีละแถว)</p>
      {rows.length > 0 && (
        <div className="row g-1 small text-secondary d-none d-sm-flex">
          <div className="col-5">ตั้งแต่ (ชิ้น)</div>
          <div className="col-5">ราคาต่อหน่วย (บาท)</div>
        </div>
      )}
      {rows.map((row, index) => (
        <div className="row g-1 mb-1 align-items-center" key={row.id}>
          <div className="col-5">
            <label className="visually-hidden" htmlFor={`tier-min-${row.id}`}>
              ราคาส่งแถวที่ {index + 1} ตั้งแต่จำนวน
            </label>
            <input id={`tier-min-${row.id}`} name="tier_min" inputMode="numeric" className="form-control form-control-sm" placeholder="เช่น 10" value={row.min} onChange={(event) => update(row.id, { min: event.target.value })} />
          </div>
          <div className="col-5">
            <label className="visually-hidden" htmlFor={`tier-price-${row.id}`}>
              ราคาส่งแถวที่ {index + 1} ราคาต่อหน่วย
            </label>
            <input id={`tier-price-${row.id}`} name="tier_price" inputMode="decimal" className="form-control form-control-sm" placeholder="เช่น 89" value={row.price} onChange={(event) => update(row.id, { price: event.target.value })} />
          </div>
          <div className="col-2">
            <button type="button" className="btn btn-sm btn-outline-danger w-100" onClick={() => setRows((current) => current.filter((item) => item.id !== row.id))} aria-label={`ลบราคาส่งแถวที่ ${index + 1}`}>
              ลบ
            </button>
          </div>
        </div>
      ))}
      {message && (
        <div className="text-danger small" role="alert">
          {message}
        </div>
      )}
      <button type="button" className="btn btn-sm btn-outline-dark mt-1" disabled={rows.length >= MAX_TIERS} onClick={() => setRows((current) => [...current, { id: nextId.current++, min: '', price: '' }])}>
        + เพิ่มขั้นราคาส่ง
      </button>
    </fieldset>
  );
}
