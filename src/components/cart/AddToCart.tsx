import { useEffect, useRef, useState } from 'react';
import { addToCart, type AddResult } from '../../stores/cart';
import { bahtToSatang, formatBaht, satangToBaht } from '../../lib/money';
import { nextTierFor, unitPriceFor, type PriceTier } from '../../lib/pricing';
import { useHydrated } from '../../lib/use-hydrated';
import QuantityStepper from './QuantityStepper';

export interface AddToCartProduct {
  code: string;
  name: string;
  /** Retail unit price in baht. */
  priceBaht: number;
  image: string | null;
  stock: number;
  /** Wholesale tiers; leave out where they are not loaded (product cards): the cart page fills them in. */
  tiers?: PriceTier[];
}

interface Props {
  product: AddToCartProduct;
}

function message(result: AddResult, name: string, wanted: number): { text: string; tone: 'success' | 'warning' } {
  switch (result.status) {
    case 'added':
      return { text: `เพิ่ม ${name} จำนวน ${wanted} ชิ้น ลงตะกร้าแล้ว`, tone: 'success' };
    case 'limited':
      return { text: `มี ${name} ในตะกร้า ${result.amount} ชิ้น ครบตามจำนวนสินค้าคงเหลือแล้ว`, tone: 'warning' };
    case 'sold_out':
      return { text: `${name} หมดแล้ว`, tone: 'warning' };
    case 'full':
      return { text: 'ตะกร้าสินค้าเต็มแล้ว กรุณาสั่งซื้อหรือลบสินค้าบางรายการก่อน', tone: 'warning' };
  }
}

/**
 * Quantity stepper and `หยิบใส่ตะกร้า` for a product (DESIGN.md sections 5 and 7). The badge in the
 * navbar follows through the shared store; a toast confirms what happened.
 */
export default function AddToCart({ product }: Props) {
  // Until the island runs, a tap would do nothing: the controls stay disabled so nobody taps in vain.
  const hydrated = useHydrated();
  const [quantity, setQuantity] = useState(1);
  const [toast, setToast] = useState<{ text: string; tone: 'success' | 'warning'; key: number } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const soldOut = product.stock <= 0;
  const retailSatang = bahtToSatang(product.priceBaht);
  const tiers = product.tiers ?? [];
  const unitSatang = unitPriceFor(retailSatang, tiers, quantity);
  const next = nextTierFor(retailSatang, tiers, quantity);

  useEffect(() => () => clearTimeout(timer.current), []);

  function add() {
    const wanted = quantity;
    const result = addToCart({
      product_code: product.code,
      product_name: product.name,
      product_price: satangToBaht(unitSatang),
      product_image: product.image,
      stock: product.stock,
      ...(product.tiers
        ? {
            retail_price: product.priceBaht,
            tiers: product.tiers.map((tier) => ({ min_quantity: tier.minQuantity, price: satangToBaht(tier.priceSatang) })),
          }
        : {}),
      amount: wanted,
    });
    setToast({ ...message(result, product.name, wanted), key: Date.now() });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setToast(null), 3500);
  }

  const button = soldOut ? (
    <button type="button" className="btn btn-secondary" disabled>
      สินค้าหมด
    </button>
  ) : (
    <button type="button" className="btn btn-shop px-4" onClick={add} disabled={!hydrated}>
      หยิบใส่ตะกร้า
    </button>
  );

  return (
    <div className="add-to-cart">
      {!soldOut && (
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
          <span aria-hidden="true">จำนวน</span>
          <QuantityStepper value={quantity} max={product.stock} onChange={setQuantity} label="จำนวน" disabled={!hydrated} />
          <span className="small text-secondary">มีสินค้า {product.stock.toLocaleString('th-TH')} ชิ้น</span>
        </div>
      )}
      {!soldOut && (
        <p className="small mb-2" data-testid="add-to-cart-price">
          ชิ้นละ <span className="text-price">{formatBaht(unitSatang)}</span> รวม{' '}
          <strong className="text-price">{formatBaht(unitSatang * quantity)}</strong>
          {next && (
            <span className="d-block text-success">
              ซื้อเพิ่มอีก {next.missing} ชิ้น ราคาชิ้นละ {formatBaht(next.priceSatang)}
            </span>
          )}
        </p>
      )}
      {button}
      <div className="cart-toast-slot" role="status" aria-live="polite">
        {toast && (
          <div key={toast.key} className={`toast show align-items-center border-0 text-bg-${toast.tone === 'success' ? 'success' : 'warning'}`}>
            <div className="d-flex">
              <div className="toast-body">{toast.text}</div>
              <button type="button" className="btn-close btn-close-white me-2 m-auto" aria-label="ปิด" onClick={() => setToast(null)} />
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
