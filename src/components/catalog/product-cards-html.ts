import type { ProductSummary } from '../../lib/types';
import { formatBaht, satangToBaht } from '../../lib/money';
import { pictureSrcset } from '../../lib/pictures';
import { escapeHtml } from '../../lib/html';
import { heartButtonHtml } from '../wishlist/heart-svg';
import { isSwatchColour, optionLabel } from '../../lib/variants';
import { averageRating, ratingLabel } from '../../lib/reviews';

/** Colour dots a card shows before "+N" (a lipstick in twelve shades shows five and +7). */
const CARD_DOTS = 5;

/** The shades of a product sold in several, as dots under its name; nothing for other products. */
function swatchDotsHtml(product: ProductSummary): string {
  const swatches = (product.variantChoices?.swatches ?? []).filter((swatch) => isSwatchColour(swatch.color));
  if (swatches.length < 2) return '';
  const dots = swatches
    .slice(0, CARD_DOTS)
    .map((swatch) => `<span class="card-dot" style="background-color:${swatch.color}" title="${escapeHtml(optionLabel({ name: 'สี', value: swatch.name }))}"></span>`)
    .join('');
  const more = swatches.length > CARD_DOTS ? `<span class="card-dot-more">+${swatches.length - CARD_DOTS}</span>` : '';
  return `<div class="card-dots" role="img" aria-label="มี ${swatches.length} สี">${dots}${more}</div>`;
}

/** ★ 4.6 (12) under the name of a product with published reviews (docs/decisions/224); nothing without. */
function ratingHtml(product: ProductSummary): string {
  const count = product.reviewCount ?? 0;
  if (count <= 0) return '';
  const average = averageRating(count, product.reviewRatingSum ?? 0);
  return `<div class="card-rating small" role="img" aria-label="${escapeHtml(ratingLabel(average, count))}"><span class="rating-star">★</span> ${average.toFixed(1)} <span class="text-secondary">(${count.toLocaleString('th-TH')})</span></div>`;
}

/**
 * The product cards of a grid, written as one string (docs/decisions/158). A listing page is 24 cards
 * of twenty-odd attributes and texts each; through Astro's component renderer every one of them was a
 * component instance and an attribute expression, which was a sixth of the listing page's time.
 * The markup is the one the cards always had (the add-to-cart buttons are wired by
 * cart/card-add-to-cart.ts through their data attributes, the hearts by wishlist/hearts.ts, always
 * unpressed here: docs/decisions/209); every value goes through `escapeHtml`.
 */
export function productCardHtml(product: ProductSummary, eager: boolean): string {
  const href = escapeHtml(`/product/${encodeURIComponent(product.code)}`);
  const code = escapeHtml(product.code);
  const name = escapeHtml(product.name);
  const srcset = pictureSrcset(product.image);
  const picture =
    `<img class="card-img-top product-card-img" src="${escapeHtml(product.image ?? '/images/placeholder.svg')}"` +
    (srcset ? ` srcset="${escapeHtml(srcset)}" sizes="(min-width: 1200px) 200px, (min-width: 768px) 25vw, 50vw"` : '') +
    ` alt="${name}" width="240" height="240"` +
    (eager ? ' loading="eager" fetchpriority="high"' : ' loading="lazy"') +
    ' decoding="async">';
  const brand = product.brandName ? `<div class="small text-secondary text-truncate">${escapeHtml(product.brandName)}</div>` : '';
  const wholesale =
    product.wholesaleFromSatang !== null ? `<div class="small text-success">ราคาส่งเริ่ม ${escapeHtml(formatBaht(product.wholesaleFromSatang))}</div>` : '';
  const choices = product.variantChoices;
  const priceFrom = choices && choices.highestSatang > product.priceSatang ? '<span class="small fw-normal">เริ่มต้น </span>' : '';
  // A product of several variants is chosen on its page: a card cannot know which shade is wanted.
  const action =
    product.stock <= 0
      ? '<span class="badge text-bg-secondary">สินค้าหมด</span>'
      : choices
        ? `<a class="btn btn-outline-dark btn-sm w-100 mt-2" href="${href}" aria-label="เลือกตัวเลือกของ ${name}">เลือกตัวเลือก</a>`
        : `<button type="button" class="btn btn-cart btn-sm w-100 mt-2 card-add-button needs-js" aria-label="หยิบ ${name} ใส่ตะกร้า" data-add-to-cart` +
        ` data-code="${code}" data-name="${name}" data-price="${satangToBaht(product.priceSatang)}" data-image="${escapeHtml(product.image ?? '')}" data-stock="${product.stock}">` +
        '<span data-label="ใส่ตะกร้า" aria-live="polite">ใส่ตะกร้า</span></button>';
  return (
    `<article class="card h-100 product-card border-0 shadow-sm" data-product-code="${code}">` +
    `<a href="${href}" class="text-decoration-none text-reset">${picture}</a>` +
    heartButtonHtml(code, name, 'wish-heart-card') +
    `<div class="card-body p-2 d-flex flex-column">${brand}` +
    `<h3 class="product-card-name fw-normal mb-1"><a href="${href}" class="text-reset text-decoration-none">${name}</a></h3>` +
    swatchDotsHtml(product) +
    ratingHtml(product) +
    `<div class="mt-auto"><div class="text-price">${priceFrom}${escapeHtml(formatBaht(product.priceSatang))}</div>${wholesale}${action}</div>` +
    '</div></article>'
  );
}

/** The grid's columns: the first `eagerCount` pictures load at once (above the fold), the rest lazily. */
export function productCardsHtml(products: readonly ProductSummary[], eagerCount: number): string {
  let html = '';
  products.forEach((product, index) => {
    html += `<div class="col">${productCardHtml(product, index < eagerCount)}</div>`;
  });
  return html;
}
