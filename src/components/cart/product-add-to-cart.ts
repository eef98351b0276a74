import { bahtToSatang, formatBaht, satangToBaht } from '../../lib/money';
import { nextTierFor, unitPriceFor, type PriceTier } from '../../lib/pricing';
import { addToCart, limitFor, type CartTier } from '../../stores/cart';

/**
 * The product page's stepper and `หยิบใส่ตะกร้า`, for the markup AddToCart.astro renders: the amount stays
 * between 1 and what a cart line takes (the stock, at most MAX_LINE_AMOUNT), the price line follows the
 * wholesale tiers, and the chosen amount goes into the cart store the navbar island shares (one module
 * instance per page), with a toast. The words are the page's (data attributes of AddToCart.astro, `{n}`
 * for a number), so this script carries none.
 */
const TOAST_MS = 3500;

/** The page's words with the number put in; the last `{n}`, as a product's name before it may hold one. */
function words(template = '', amount: number): string {
  const at = template.lastIndexOf('{n}');
  return at < 0 ? template : template.slice(0, at) + amount.toLocaleString('th-TH') + template.slice(at + 3);
}

/** Called by AddToCart.astro's script for every product form on the page (one on a product page). */
export function enhanceProductAddToCart(): void {
  document.querySelectorAll<HTMLElement>('[data-product-add-to-cart]').forEach(enhance);
}

function enhance(root: HTMLElement): void {
  const data = root.dataset;
  let retailBaht = 0;
  let stock = 0;
  let tiers: CartTier[] = [];
  let priceTiers: PriceTier[] = [];
  let retailSatang = 0;
  let limit = 1;
  /** What the page wrote (and the variant picker writes again on a choice, docs/decisions/206). */
  function load() {
    retailBaht = Number(data.price);
    stock = Number(data.stock);
    // Written by AddToCart.astro from the database, as the cart keeps them.
    tiers = JSON.parse(data.tiers || '[]') as CartTier[];
    priceTiers = tiers.map((tier) => ({ minQuantity: tier.min_quantity, priceSatang: bahtToSatang(tier.price) }));
    retailSatang = bahtToSatang(retailBaht);
    // What one cart line takes: the stock, but never more than the cart's cap on a line.
    limit = Math.max(1, limitFor(stock));
  }
  load();

  const input = root.querySelector<HTMLInputElement>('input');
  // Sold out: the server rendered a disabled `สินค้าหมด` and nothing to enhance.
  if (!input) return;
  // The rest of AddToCart.astro's markup is there whenever the amount field is.
  const find = <T extends HTMLElement>(selector: string) => root.querySelector<T>(selector)!;
  const minus = find<HTMLButtonElement>('[data-step="-1"]');
  const plus = find<HTMLButtonElement>('[data-step="1"]');
  const add = find<HTMLButtonElement>('[data-add]');
  const unitPrice = find('[data-unit-price]');
  const totalPrice = find('[data-total-price]');
  const nextTier = find('[data-next-tier]');
  const toastSlot = find('.cart-toast-slot');

  let quantity = 1;
  let toastTimer: ReturnType<typeof setTimeout> | undefined;

  function show(amount: number) {
    quantity = amount;
    input!.value = String(amount);
    minus.disabled = amount <= 1;
    plus.disabled = amount >= limit;
    const unitSatang = unitPriceFor(retailSatang, priceTiers, amount);
    const next = nextTierFor(retailSatang, priceTiers, amount);
    unitPrice.textContent = formatBaht(unitSatang);
    totalPrice.textContent = formatBaht(unitSatang * amount);
    nextTier.textContent = next ? words(data.next, next.missing).replace('{price}', formatBaht(next.priceSatang)) : '';
    nextTier.classList.toggle('d-none', !next);
  }

  /** What was typed, kept between 1 and the line's limit; anything unreadable keeps the amount. */
  function commit() {
    const parsed = Number.parseInt(input!.value, 10);
    show(Number.isFinite(parsed) ? Math.min(limit, Math.max(1, parsed)) : quantity);
  }

  function closeToast() {
    clearTimeout(toastTimer);
    toastSlot.replaceChildren();
  }

  function toast(text: string, tone: 'success' | 'warning') {
    const box = find<HTMLTemplateElement>('template[data-toast]').content.firstElementChild!.cloneNode(true) as HTMLElement;
    box.classList.add(`text-bg-${tone}`);
    box.querySelector('.toast-body')!.textContent = text;
    box.querySelector('button')!.addEventListener('click', closeToast);
    clearTimeout(toastTimer);
    toastSlot.replaceChildren(box);
    toastTimer = setTimeout(closeToast, TOAST_MS);
  }

  minus.addEventListener('click', () => show(Math.max(1, quantity - 1)));
  plus.addEventListener('click', () => show(Math.min(limit, quantity + 1)));
  input.addEventListener('blur', commit);
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    commit();
  });
  add.addEventListener('click', () => {
    // A typed amount not yet confirmed by blur or Enter counts, as the shopper sees it.
    if (document.activeElement === input) commit();
    const wanted = quantity;
    const result = addToCart({
      product_code: data.code ?? '',
      product_name: data.name ?? '',
      product_price: satangToBaht(unitPriceFor(retailSatang, priceTiers, wanted)),
      product_image: data.image || null,
      stock,
      retail_price: retailBaht,
      tiers,
      amount: wanted,
    });
    toast(words(data[result.status], result.status === 'added' ? wanted : result.amount), result.status === 'added' ? 'success' : 'warning');
  });

  // The variant picker chose another variant: its price, tiers and stock from now on.
  root.addEventListener('variant-change', () => {
    load();
    const soldOut = stock <= 0;
    root.querySelector<HTMLElement>('[data-sold-out-button]')?.toggleAttribute('hidden', !soldOut);
    root.querySelector<HTMLElement>('[data-in-stock-controls]')?.toggleAttribute('hidden', soldOut);
    const count = root.querySelector('[data-stock-count]');
    if (count) count.textContent = stock.toLocaleString('th-TH');
    show(Math.min(limit, quantity));
  });

  input.disabled = false;
  add.disabled = false;
  show(quantity);
}
