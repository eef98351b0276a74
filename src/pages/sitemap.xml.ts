import type { APIRoute } from 'astro';
import { sitemapIndexXml } from '../server/catalog/sitemap.service';
import { cachePublicPage, type RouteCacheHandle } from '../server/catalog/catalog-cache';

export const GET: APIRoute = async (context) => {
  const xml = await sitemapIndexXml(context.site ?? context.url);
  cachePublicPage(context.cache as unknown as RouteCacheHandle, ['sitemap'], 3600);
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
