import { useState } from 'react';
import { addToCart } from '../../stores/cart';
import { unitPriceFor } from '../../lib/pricing';
import { formatBaht } from '../../lib/money';

interface Props {
  product: {
    code: string;
    name: string;
    priceBaht: number;
    image: string | null;
    stock: number;
    tiers: { minQuantity: number; priceSatang: number }[];
  };
}

/**
 * The product page's buying area: quantity stepper and `หยิบใส่ตะกร้า` (or a disabled `สินค้าหมด`).
 * Minimal version from the catalog issue; the cart issue owns the fuller one (feedback, cart sync).
 */
export default function AddToCart({ product }: Props) {
  const max = Math.max(0, Math.min(product.stock, 9999));
  const [amount, setAmount] = useState(1);
  const [added, setAdded] = useState(false);
  if (max === 0) {
    return (
      <button type="button" className="btn btn-secondary btn-lg w-100" disabled>
        สินค้าหมด
      </button>
    );
  }
  const retailSatang = Math.round(product.priceBaht * 100);
  const unitSatang = unitPriceFor(retailSatang, product.tiers, amount);
  const set = (value: number) => {
    setAdded(false);
    setAmount(Math.max(1, Math.min(max, Number.isFinite(value) ? Math.floor(value) : 1)));
  };
  return (
    <div className="add-to-cart">
      <div className="d-flex align-items-center gap-3 mb-3 flex-wrap">
        <span className="text-secondary">จำนวน</span>
        <div className="input-group quantity-stepper" style={{ width: '9.5rem' }}>
          <button type="button" className="btn btn-outline-secondary" aria-label="ลดจำนวน" onClick={() => set(amount - 1)} disabled={amount <= 1}>
            −
          </button>
          <input
            className="form-control text-center"
            type="number"
            inputMode="numeric"
            min={1}
            max={max}
            value={amount}
            aria-label="จำนวน"
            onChange={(event) => set(Number(event.target.value))}
          />
          <button type="button" className="btn btn-outline-secondary" aria-label="เพิ่มจำนวน" onClick={() => set(amount + 1)} disabled={amount >= max}>
            +
          </button>
        </div>
        <span className="small text-secondary">มีสินค้า {product.stock.toLocaleString('th-TH')} ชิ้น</span>
      </div>
      {unitSatang !== retailSatang && (
        <p className="small text-success mb-2" data-testid="tier-price">
          ราคาส่ง {formatBaht(unitSatang)} ต่อชิ้น เมื่อซื้อ {amount} ชิ้น
        </p>
      )}
      <button
        type="button"
        className="btn btn-cart btn-lg w-100"
        onClick={() => {
          addToCart({
            product_code: product.code,
            product_name: product.name,
            product_price: unitSatang / 100,
            product_image: product.image,
            stock: product.stock,
            amount,
          });
          setAdded(true);
        }}
      >
        หยิบใส่ตะกร้า
      </button>
      <p className="small text-success mt-2 mb-0" role="status" aria-live="polite">
        {added ? 'เพิ่มสินค้าลงตะกร้าแล้ว' : ''}
      </p>
    </div>
  );
}
