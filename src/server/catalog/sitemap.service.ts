import { asc, count, eq } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { navigationCategories } from './navigation.service.ts';
import { listPromotions } from '../promotions/promotion-catalog.service.ts';
import { listGalleries } from '../content/content.service.ts';
import { listPublishedPages } from '../content/pages.service.ts';

/**
 * sitemap.xml is an index: one file of pages (home, listings, categories, promotions, gallery,
 * content) and product files of at most PRODUCTS_PER_FILE URLs (the protocol allows 50,000).
 */
export const PRODUCTS_PER_FILE = 40_000;

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] as string);

export function urlsetXml(urls: SitemapUrl[], site: URL): string {
  const items = urls
    .map((url) => `<url><loc>${escapeXml(new URL(url.loc, site).href)}</loc>${url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : ''}</url>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items}</urlset>\n`;
}

export async function sitemapIndexXml(site: URL): Promise<string> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(products).where(eq(products.active, true));
  const files = Math.max(1, Math.ceil((row?.n ?? 0) / PRODUCTS_PER_FILE));
  const locations = ['/sitemaps/pages.xml', ...Array.from({ length: files }, (_, i) => `/sitemaps/products-${i + 1}.xml`)];
  const items = locations.map((loc) => `<sitemap><loc>${escapeXml(new URL(loc, site).href)}</loc></sitemap>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items}</sitemapindex>\n`;
}

export async function pageUrls(): Promise<SitemapUrl[]> {
  const [categories, promotions, albums, pages] = await Promise.all([navigationCategories(), listPromotions(), listGalleries(), listPublishedPages()]);
  return [
    { loc: '/' },
    { loc: '/product' },
    ...categories.map((category) => ({ loc: `/product/category/${encodeURIComponent(category.code)}` })),
    { loc: '/promotions' },
    ...promotions.filter((p) => p.state === 'active' || p.state === 'upcoming').map((p) => ({ loc: `/promotions/${encodeURIComponent(p.code)}` })),
    { loc: '/gallery' },
    ...albums.map((album) => ({ loc: `/gallery/${encodeURIComponent(album.code)}` })),
    // Content pages as editors publish them (the four built-in ones and any /pages/{slug}).
    ...pages.map((page) => ({ loc: page.path, lastmod: page.publishedAt.toISOString().slice(0, 10) })),
  ];
}

/** Product URLs of file `part` (1-based); null when the file does not exist. */
export async function productUrls(part: number): Promise<SitemapUrl[] | null> {
  const db = await getDb();
  const rows = await db
    .select({ code: products.code, updatedAt: products.updatedAt })
    .from(products)
    .where(eq(products.active, true))
    .orderBy(asc(products.id))
    .limit(PRODUCTS_PER_FILE)
    .offset((part - 1) * PRODUCTS_PER_FILE);
  if (rows.length === 0 && part > 1) return null;
  return rows.map((row) => ({ loc: `/product/${encodeURIComponent(row.code)}`, lastmod: row.updatedAt.toISOString().slice(0, 10) }));
}
