import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from '../../lib/use-store';
import { $cart, cartTotal, repairStoredCart } from '../../stores/cart';
import { useHydrated } from '../../lib/use-hydrated';

// Fetched when the pointer or focus reaches the button, so it is usually there by the time it opens. Failing
// to load (an old page after a deploy; ProgressBar.astro reloads it then), the panel still leads to /cart.
const loadPanel = () => import('./CartPanel');
const CartPanel = lazy(() =>
  loadPanel().catch(() => ({
    default: () => (
      <a className="dropdown-item" href="/cart">
        ดูตะกร้าสินค้า
      </a>
    ),
  })),
);

/**
 * The navbar cart: a button with the item count that opens a panel of the lines, the total and the
 * way to /cart and /order. A disclosure (button + region), not an ARIA menu, because the panel holds
 * prices and totals as well as actions. The server renders 0 and a closed panel; the island then
 * shows the stored cart, so hydration never mismatches.
 */
export default function CartButton({ icon }: { icon?: ReactNode }) {
  const hydrated = useHydrated();
  const items = useStore($cart);
  // From the lines here rather than through $cartCount and $cartTotal: nanostores' `computed` stays out of
  // the script every page loads (docs/decisions/212).
  const count = items.length;
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  // Fixed ids, not useId(): islands are server-rendered without an id prefix (docs/decisions/151), and
  // the navbar holds the one cart button of a page.
  const panelId = 'navbar-cart-panel';
  const countId = 'navbar-cart-count';
  const shownCount = hydrated ? count : 0;
  const lines = hydrated ? items : [];

  useEffect(() => {
    // A corrupt or foreign value under the key is written back clean once per page.
    try {
      repairStoredCart();
    } catch {
      // Storage can be unavailable (privacy modes); the cart then lives in memory only.
    }
  }, []);

  return (
    <div className="cart-dropdown position-relative" ref={wrapper}>
      <button
        ref={toggle}
        type="button"
        className="btn btn-cart position-relative"
        aria-label="ตะกร้าสินค้า"
        title="ตะกร้าสินค้า"
        aria-expanded={open}
        aria-controls={panelId}
        aria-describedby={countId}
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
        onClick={() => setOpen((value) => !value)}
      >
        {/* The icon comes from the server (Navbar.astro): its path data stays out of the script every page loads. */}
        {icon}
        <span className="badge rounded-pill bg-danger ms-1 cart-count" data-testid="cart-count" aria-hidden="true">
          {shownCount > 99 ? '99+' : shownCount}
        </span>
        <span id={countId} className="visually-hidden">
          {`${shownCount} รายการ`}
        </span>
      </button>
      <div
        id={panelId}
        role="region"
        aria-label="สินค้าในตะกร้า"
        className={`dropdown-menu dropdown-menu-end cart-panel p-0${open ? ' show' : ''}`}
        hidden={!open}
      >
        {/* Contents only while open: a closed panel leaves no hidden copies of its words in the page. They,
            and the ways an open panel closes, are their own module, fetched on first open: an anonymous
            page's script stays under its budget (docs/decisions/212). */}
        {open && (
          <Suspense fallback={null}>
            <CartPanel lines={lines} total={cartTotal(lines)} panelId={panelId} wrapper={wrapper} toggle={toggle} setOpen={setOpen} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
