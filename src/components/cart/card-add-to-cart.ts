import { addToCart } from '../../stores/cart';

/**
 * "Add to cart" on product cards without an island per card: Navbar.astro's script has one delegated
 * click handler for every `button[data-add-to-cart]` on the page and fetches this module on the first
 * press (it is not part of the script every page loads, docs/decisions/212). It shares the cart store
 * with the navbar island (one module instance per page), so the badge updates at once; the cart page
 * re-prices with the server later.
 */
const FEEDBACK_MS = 1600;

const messages = {
  added: '✓ เพิ่มลงตะกร้าแล้ว',
  limited: 'ครบจำนวนในสต็อกแล้ว',
  sold_out: 'สินค้าหมด',
  full: 'ตะกร้าเต็มแล้ว',
} as const;

/** Adds the pressed card's product and shows how it went on the button for a moment. */
export function addCardToCart(button: HTMLButtonElement): void {
  const data = button.dataset;
  const price = Number(data.price);
  const stock = Number(data.stock);
  const result = addToCart({
    product_code: data.code ?? '',
    product_name: data.name ?? '',
    product_price: Number.isFinite(price) ? price : 0,
    product_image: data.image || null,
    amount: 1,
    ...(Number.isInteger(stock) ? { stock, retail_price: price } : {}),
  });
  const label = button.querySelector<HTMLElement>('[data-label]');
  if (!label) return;
  const original = label.dataset.label ?? label.textContent ?? '';
  label.textContent = messages[result.status];
  button.classList.toggle('btn-success', result.status === 'added');
  window.setTimeout(() => {
    label.textContent = original;
    button.classList.remove('btn-success');
  }, FEEDBACK_MS);
}
