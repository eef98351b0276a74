import type { LiveLoader } from 'astro/loaders';
import { errorFields, log } from '../log.ts';
import { listPublishedPages, publishedPage, type PublishedPage } from './pages.service.ts';

/**
 * The live loader behind `getLiveEntry('pages', slug)` / `getLiveCollection('pages')` (src/live.config.ts):
 * published pages straight from the database on every (uncached) request, so a publish is on the site
 * as soon as the route cache drops the page. Cache hints carry the tags invalidateCatalog({ content }) drops.
 */
export type PageEntryData = Omit<PublishedPage, 'html'>;
export interface PageCollectionFilter {
  onlyFooter?: boolean;
}

function entry(page: PublishedPage, withHtml: boolean) {
  const { html, ...data } = page;
  return { id: page.slug, data, ...(withHtml ? { rendered: { html } } : {}), cacheHint: { tags: ['content', `page:${page.slug}`], lastModified: page.publishedAt } };
}

export function contentPagesLoader(): LiveLoader<PageEntryData, { id: string }, PageCollectionFilter> {
  return {
    name: 'shop-content-pages',
    async loadEntry({ filter }) {
      try {
        const page = await publishedPage(filter.id);
        return page ? entry(page, true) : undefined;
      } catch (error) {
        log.error('content pages could not be loaded', errorFields(error));
        return { error: error instanceof Error ? error : new Error(String(error)) };
      }
    },
    async loadCollection({ filter }) {
      try {
        // A collection is for lists (the footer's links): titles and addresses, no rendered bodies.
        const pages = await listPublishedPages({ onlyFooter: filter?.onlyFooter ?? false });
        return { entries: pages.map((page) => entry(page, false)), cacheHint: { tags: ['content'] } };
      } catch (error) {
        log.error('content pages could not be loaded', errorFields(error));
        return { error: error instanceof Error ? error : new Error(String(error)) };
      }
    },
  };
}
