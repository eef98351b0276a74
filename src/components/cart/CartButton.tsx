import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useStore } from '../../lib/use-store';
import { $cart, $cartCount, $cartTotal, orderableLine, removeCartItem, repairStoredCart } from '../../stores/cart';
import { useHydrated } from '../../lib/use-hydrated';
import { bahtToSatang, formatBaht } from '../../lib/money';
import { confirmationOpen, confirmRemove } from './confirm-remove';

const PLACEHOLDER_IMAGE = '/images/placeholder.svg';

/**
 * The navbar cart: a button with the item count that opens a panel of the lines, the total and the
 * way to /cart and /order. A disclosure (button + region), not an ARIA menu, because the panel holds
 * prices and totals as well as actions. The server renders 0 and a closed panel; the island then
 * shows the stored cart, so hydration never mismatches.
 */
export default function CartButton({ icon }: { icon?: ReactNode }) {
  const hydrated = useHydrated();
  const items = useStore($cart);
  const count = useStore($cartCount);
  const total = useStore($cartTotal);
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

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (confirmationOpen()) return;
      if (wrapper.current && !wrapper.current.contains(event.target as Node)) setOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || confirmationOpen()) return;
      setOpen(false);
      toggle.current?.focus();
    }
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  async function remove(code: string) {
    if (!(await confirmRemove())) return;
    removeCartItem(code);
    // The pressed button is gone with its line; keep the keyboard user in the cart.
    toggle.current?.focus();
  }

  return (
    <div
      className="cart-dropdown position-relative"
      ref={wrapper}
      onBlur={(event) => {
        const next = event.relatedTarget as Node | null;
        if (open && next && !confirmationOpen() && !event.currentTarget.contains(next)) setOpen(false);
      }}
    >
      <button
        ref={toggle}
        type="button"
        className="btn btn-cart position-relative"
        aria-label="ตะกร้าสินค้า"
        title="ตะกร้าสินค้า"
        aria-expanded={open}
        aria-controls={panelId}
        aria-describedby={countId}
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
        {/* Contents only while open: a closed panel leaves no hidden copies of its words in the page. */}
        {!open ? null : lines.length === 0 ? (
          <p className="text-center text-secondary m-0 px-3 py-4">ไม่มีสินค้าในตะกร้าสินค้าของคุณ</p>
        ) : (
          <>
            <ul className="list-unstyled m-0 cart-panel-lines">
              {lines.map((item) => {
                const nameId = `${panelId}-${item.product_code}`;
                return (
                  <li key={item.product_code} className="d-flex gap-2 align-items-center px-3 py-2 border-bottom" data-product-code={item.product_code}>
                    <img
                      src={item.product_image ?? PLACEHOLDER_IMAGE}
                      alt=""
                      width="48"
                      height="48"
                      className="rounded flex-shrink-0 cart-thumb"
                      loading="lazy"
                      decoding="async"
                    />
                    <div className="flex-grow-1 min-w-0">
                      <a id={nameId} className="d-block text-reset text-decoration-none text-truncate small" href={`/product/${encodeURIComponent(item.product_code)}`}>
                        {item.product_name}
                      </a>
                      <span className="small text-price" data-testid="cart-line-price">
                        {formatBaht(bahtToSatang(item.product_price))} x {item.amount}
                      </span>
                      {!orderableLine(item) && <span className="badge text-bg-secondary ms-2">สินค้าหมด</span>}
                    </div>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-danger flex-shrink-0"
                      aria-describedby={nameId}
                      onClick={() => void remove(item.product_code)}
                    >
                      ลบ
                    </button>
                  </li>
                );
              })}
            </ul>
            <div className="px-3 py-2 d-flex justify-content-between align-items-baseline">
              <span>ยอดสั่งซื้อทั้งหมด</span>
              <strong className="text-price" data-testid="cart-total">
                {formatBaht(bahtToSatang(total))}
              </strong>
            </div>
            <div className="px-3 pb-3 d-flex gap-2">
              <a className="btn btn-outline-primary btn-sm flex-fill" href="/cart">
                ดูตะกร้าสินค้า
              </a>
              <a className="btn btn-shop btn-sm flex-fill" href="/order">
                สั่งซื้อสินค้า
              </a>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
