import { WISH_ADD, wishLabel } from '../../lib/wishlist';

/**
 * The heart of a wishlist button (docs/decisions/209), one path drawn as an outline; theme.scss fills
 * it when the button is pressed (`aria-pressed="true"`). Shared by the cards' HTML and WishHeart.astro.
 */
export const HEART_SVG =
  '<svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 20.7 3.6 12.6a5.2 5.2 0 0 1 7.4-7.3l1 1 1-1a5.2 5.2 0 0 1 7.4 7.3z"/></svg>';

/**
 * A heart button, always unpressed: the page may be cached for everyone, and hearts.ts presses the
 * member's. Cards pass the product's name so each heart says which product it is for. `code` and
 * `name` come already escaped for HTML.
 */
export function heartButtonHtml(code: string, name: string | null, extraClass: string): string {
  return (
    `<button type="button" class="wish-heart needs-js ${extraClass}" data-wish="${code}"${name ? ` data-name="${name}"` : ''}` +
    ` aria-pressed="false" aria-label="${wishLabel(false, name ?? undefined)}" title="${WISH_ADD}">${HEART_SVG}</button>`
  );
}
