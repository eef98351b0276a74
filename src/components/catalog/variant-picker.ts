import { formatBaht } from '../../lib/money';
import { pictureAtLeast, pictureSrcset, PRODUCT_PICTURE_SIZES } from '../../lib/pictures';
import { tierTable, type PriceTier } from '../../lib/pricing';
import { optionValues, variantForValues, type ChoosableVariant } from '../../lib/variant-choice';

/**
 * The product page's variant picker (VariantPicker.astro, docs/decisions/206): a change of any option
 * picks the variant at once and the page follows it without loading again — the price, the wholesale
 * table, the stock, the code, the main picture, the cart button (product-add-to-cart.ts hears
 * `variant-change`) and `?variant=CODE` in the address bar. The words are the page's.
 */
interface PickerVariant extends ChoosableVariant {
  image: string | null;
  name: string;
  tiers: PriceTier[];
}

/**
 * The variant's picture (or the product's, for a variant without one) becomes the gallery's first, its
 * thumbnail with it, and is shown: a shopper who had opened another picture sees the shade they chose.
 */
function showPicture(page: HTMLElement, image: string | null): void {
  const main = page.querySelector<HTMLImageElement>('.gallery-image-0');
  if (!main || !image) return;
  if (main.getAttribute('src') !== image) {
    const srcset = pictureSrcset(image);
    if (srcset) {
      main.srcset = srcset;
      main.sizes = PRODUCT_PICTURE_SIZES;
    } else {
      main.removeAttribute('srcset');
      main.removeAttribute('sizes');
    }
    main.src = image;
    const thumb = page.querySelector<HTMLImageElement>('.gallery-thumb-0 img');
    if (thumb) thumb.src = pictureAtLeast(image, 144);
  }
  const first = page.querySelector<HTMLInputElement>('#product-image-0');
  if (first) first.checked = true;
}

export function enhanceVariantPicker(): void {
  const form = document.querySelector<HTMLFormElement>('[data-variant-picker]');
  if (!form) return;
  const variants = JSON.parse(form.dataset.variants || '[]') as PickerVariant[];
  const groups = [...form.querySelectorAll<HTMLFieldSetElement>('fieldset[data-option]')];
  const chosenValues = () => groups.map((group) => group.querySelector<HTMLInputElement>('input:checked')?.value ?? null);
  const page = document.querySelector<HTMLElement>('.product-page');
  const cart = document.querySelector<HTMLElement>('[data-product-add-to-cart]');
  form.querySelector<HTMLElement>('[data-variant-submit]')?.classList.add('d-none');

  function apply(variant: PickerVariant, values: (string | null)[]) {
    groups.forEach((group, index) => {
      const states = optionValues(variants, index, values);
      group.querySelectorAll<HTMLInputElement>('input[type="radio"]').forEach((input) => {
        input.checked = input.value === values[index];
        const state = states.find((entry) => entry.value === input.value);
        const label = input.nextElementSibling as HTMLElement;
        label.classList.toggle('variant-sold-out', !state?.inStock);
        label.querySelector('[data-state]')!.textContent = !state?.exists ? (form!.dataset.wordNone ?? '') : !state.inStock ? (form!.dataset.wordSoldOut ?? '') : '';
      });
      const shown = group.querySelector('[data-option-chosen]');
      if (shown) shown.textContent = values[index] ?? '';
    });
    if (page) {
      page.querySelectorAll('[data-variant-price]').forEach((node) => (node.textContent = formatBaht(variant.priceSatang)));
      page.querySelectorAll('[data-variant-code]').forEach((node) => (node.textContent = variant.code));
      page.querySelectorAll<HTMLElement>('[data-variant-in-stock]').forEach((node) => (node.hidden = variant.stock <= 0));
      page.querySelectorAll<HTMLElement>('[data-variant-sold-out]').forEach((node) => (node.hidden = variant.stock > 0));
      page.querySelectorAll<HTMLInputElement>('input[data-variant-code-input]').forEach((input) => (input.value = variant.code));
      // BackInStock.astro asks again whether a member waits for this variant.
      page.querySelector('[data-back-in-stock]')?.dispatchEvent(new CustomEvent('variant-change'));
      const table = page.querySelector<HTMLElement>('[data-variant-tiers]');
      if (table) {
        const rows = variant.tiers.length > 0 ? tierTable(variant.priceSatang, variant.tiers) : [];
        table.hidden = rows.length === 0;
        const body = table.querySelector('tbody')!;
        const template = table.dataset.openEnded ?? '{from}';
        body.replaceChildren(
          ...rows.map((row) => {
            const tr = document.createElement('tr');
            const range = document.createElement('td');
            range.textContent = row.to === null ? template.replace('{from}', row.from.toLocaleString('th-TH')) : `${row.from.toLocaleString('th-TH')}–${row.to.toLocaleString('th-TH')}`;
            const price = document.createElement('td');
            const amount = document.createElement('span');
            amount.className = 'text-price';
            amount.textContent = formatBaht(row.priceSatang);
            price.append(amount);
            tr.append(range, price);
            return tr;
          }),
        );
      }
      showPicture(page, variant.image);
    }
    if (cart) {
      const before = cart.dataset.name ?? '';
      for (const key of ['added', 'limited', 'sold_out'] as const) cart.dataset[key] = (cart.dataset[key] ?? '').split(before).join(variant.name);
      Object.assign(cart.dataset, {
        code: variant.code,
        name: variant.name,
        price: String(variant.priceSatang / 100),
        image: variant.image ?? '',
        stock: String(variant.stock),
        tiers: JSON.stringify(variant.tiers.map((tier) => ({ min_quantity: tier.minQuantity, price: tier.priceSatang / 100 }))),
      });
      cart.dispatchEvent(new CustomEvent('variant-change'));
    }
    const url = new URL(location.href);
    for (const key of ['o1', 'o2', 'o3']) url.searchParams.delete(key);
    url.searchParams.set('variant', variant.code);
    history.replaceState(history.state, '', url);
  }

  form.addEventListener('change', (event) => {
    const changed = groups.findIndex((group) => group.contains(event.target as Node));
    const values = chosenValues();
    const variant = variantForValues(variants, values, Math.max(0, changed));
    if (variant) apply(variant, groups.map((_, index) => variant.values[index] ?? null));
  });
  form.addEventListener('submit', (event) => event.preventDefault());
}
