/**
 * Stored pictures are `/media/<folder>/<24 hex>-<width>.webp`, written at 320, 640 and 1280 pixels wide but
 * never wider than the original (src/server/storage/images.ts). So the widest variant's URL alone says
 * which widths exist: every standard width below it, and it. Pure: used by shop and back-office markup.
 */
export const PICTURE_WIDTHS = [320, 640, 1280] as const;

/** The product page's main picture's `sizes`: the page writes it, and the variant picker when it swaps the picture. */
export const PRODUCT_PICTURE_SIZES = '(min-width: 992px) 40vw, (min-width: 768px) 50vw, 100vw';

const STORED = /^(\/media\/[a-z]+\/[a-f0-9]{24})-(\d+)\.webp$/;

export function storedWidths(url: string | null | undefined): number[] {
  const match = url ? STORED.exec(url) : null;
  if (!match) return [];
  const widest = Number(match[2]);
  return [...PICTURE_WIDTHS.filter((width) => width < widest), widest];
}

/** `srcset` for a stored picture; undefined for any other URL (placeholders, old demo SVGs). */
export function pictureSrcset(url: string | null | undefined): string | undefined {
  const match = url ? STORED.exec(url) : null;
  if (!match) return undefined;
  return storedWidths(url)
    .map((width) => `${match[1]}-${width}.webp ${width}w`)
    .join(', ');
}

/** The smallest stored variant at least `width` wide (for thumbnails); the URL itself otherwise. */
export function pictureAtLeast(url: string, width: number): string {
  const match = STORED.exec(url);
  if (!match) return url;
  const chosen = storedWidths(url).find((candidate) => candidate >= width) ?? Number(match[2]);
  return `${match[1]}-${chosen}.webp`;
}
