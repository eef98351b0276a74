import { useStore } from '@nanostores/react';
import { $cartCount } from '../../stores/cart';
import { useHydrated } from '../../lib/use-hydrated';

/** The navbar cart button with the item count; the server renders 0, the island fills in the stored count. */
export default function CartButton() {
  const hydrated = useHydrated();
  const count = useStore($cartCount);
  const shown = hydrated ? count : 0;
  return (
    <a className="btn btn-cart position-relative" href="/cart" aria-label="ตะกร้าสินค้า" title="ตะกร้าสินค้า">
      <svg width="20" height="20" viewBox="0 0 16 16" fill="currentColor" aria-hidden="true">
        <path d="M0 1.5A.5.5 0 0 1 .5 1H2a.5.5 0 0 1 .485.379L2.89 3H14.5a.5.5 0 0 1 .491.592l-1.5 8A.5.5 0 0 1 13 12H4a.5.5 0 0 1-.491-.408L2.01 3.607 1.61 2H.5a.5.5 0 0 1-.5-.5M5 12a2 2 0 1 0 0 4 2 2 0 0 0 0-4m7 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4" />
      </svg>
      <span className="badge rounded-pill bg-danger ms-1 cart-count" data-testid="cart-count">
        {shown}
      </span>
    </a>
  );
}
