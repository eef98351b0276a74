import { useEffect, type RefObject } from 'react';
import { orderableLine, removeCartItem, type CartItem } from '../../stores/cart';
import { bahtToSatang, formatBaht } from '../../lib/money';
import { confirmationOpen, confirmRemove } from './confirm-remove';

const PLACEHOLDER_IMAGE = '/images/placeholder.svg';

/**
 * What the navbar cart's panel holds while open: the lines, the total and the way to /cart and /order,
 * and what closes it (a press outside, Escape, focus leaving; not while the remove confirmation is up).
 * A module of its own, fetched when the panel first opens, so it is not part of the script every
 * anonymous page loads (docs/design.md section 15, docs/decisions/212).
 */
export default function CartPanel({
  lines,
  total,
  panelId,
  wrapper,
  toggle,
  setOpen,
}: {
  lines: readonly CartItem[];
  total: number;
  panelId: string;
  /** The cart button's wrapper (button and panel) and its button. */
  wrapper: RefObject<HTMLDivElement | null>;
  toggle: RefObject<HTMLButtonElement | null>;
  setOpen: (open: boolean) => void;
}) {
  useEffect(() => {
    const root = wrapper.current;
    function onPointerDown(event: PointerEvent) {
      if (confirmationOpen()) return;
      if (root && !root.contains(event.target as Node)) setOpen(false);
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || confirmationOpen()) return;
      setOpen(false);
      toggle.current?.focus();
    }
    function onFocusOut(event: FocusEvent) {
      const next = event.relatedTarget as Node | null;
      if (next && root && !confirmationOpen() && !root.contains(next)) setOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    root?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
      root?.removeEventListener('focusout', onFocusOut);
    };
  }, [wrapper, toggle, setOpen]);

  async function remove(code: string) {
    if (!(await confirmRemove())) return;
    removeCartItem(code);
    // The pressed button is gone with its line; keep the keyboard user in the cart.
    toggle.current?.focus();
  }

  if (lines.length === 0) return <p className="text-center text-secondary m-0 px-3 py-4">ไม่มีสินค้าในตะกร้าสินค้าของคุณ</p>;
  return (
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
              <button type="button" className="btn btn-sm btn-outline-danger flex-shrink-0" aria-describedby={nameId} onClick={() => void remove(item.product_code)}>
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
  );
}
