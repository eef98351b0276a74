import { getLiveEntry } from 'astro:content';
import { cachePublicPage, doNotCache, type RouteCacheHandle } from '../../server/catalog/catalog-cache';

/**
 * A published content page through the live collection (src/live.config.ts), looked up in the page's
 * frontmatter so an unknown page can still become the 404 page (a component cannot once the page streams).
 */
export type LivePage = NonNullable<Awaited<ReturnType<typeof getLiveEntry<'pages'>>>['entry']>;

export async function loadContentPage(Astro: { cache: unknown; rewrite(path: string): Promise<Response> }, slug: string): Promise<LivePage | Response> {
  const { entry, error } = await getLiveEntry('pages', slug);
  const cache = Astro.cache as RouteCacheHandle;
  if (!entry) {
    // Not found is an answer (404); any other failure is a real error for the 500 page.
    if (error && error.name !== 'LiveEntryNotFoundError') throw error;
    doNotCache(cache);
    return Astro.rewrite('/404');
  }
  cachePublicPage(cache, ['content', ...(entry.cacheHint?.tags ?? [])]);
  return entry;
}
