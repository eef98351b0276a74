import type { APIRoute } from 'astro';
import { pageUrls, productUrls, urlsetXml } from '../../server/catalog/sitemap.service';
import { cachePublicPage, type RouteCacheHandle } from '../../server/catalog/catalog-cache';

/** /sitemaps/pages.xml and /sitemaps/products-{n}.xml, listed by /sitemap.xml. */
export const GET: APIRoute = async (context) => {
  const file = context.params.file ?? '';
  const site = context.site ?? context.url;
  let urls;
  if (file === 'pages.xml') urls = await pageUrls();
  else {
    const match = /^products-([1-9]\d{0,3})\.xml$/.exec(file);
    urls = match ? await productUrls(Number(match[1])) : null;
  }
  if (!urls) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  cachePublicPage(context.cache as unknown as RouteCacheHandle, ['sitemap'], 3600);
  return new Response(urlsetXml(urls, site), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
