import { AppError } from '../http/errors.ts';
import type { CategorySummary } from '../../lib/types.ts';
import type { BrandSummary, ProductPage } from '../../lib/catalog-types.ts';
import { findProducts, listBrands } from './catalog.service.ts';
import { emptyQuery, lastPage, queryFromSearchParams, type ListingQuery } from './listing-query.ts';
import { navigationCategories } from './navigation.service.ts';
import { cachePublicPage, doNotCache, tagFor, type RouteCacheHandle } from './catalog-cache.ts';
import { listingFacets, NO_FACETS, type ListingFacets } from './facets.service.ts';

export type ListingMode = 'all' | 'category' | 'search';

export interface ListingData {
  mode: ListingMode;
  query: ListingQuery;
  result: ProductPage;
  category: (CategorySummary & { description: string }) | null;
  categories: CategorySummary[];
  brands: BrandSummary[];
  /** The brands (with counts) and the price range present in this category or search (docs/decisions/180). */
  facets: ListingFacets;
  /** A search answered with near results: the known words one edit from the keyword, offered as links. */
  nearWords: string[];
  /** A Thai message when a filter in the URL was malformed (the page answers 400). */
  error: string | null;
  /** The page asked for lies past the listing's last one (the page answers 404 with a link to it). */
  pastTheEnd: boolean;
}

/**
 * Everything a listing page renders, from its URL. A malformed filter renders the page with the
 * message and status 400; an unknown category is a 404 (returned as null); both are not cached.
 */
export async function loadListing(
  astro: { url: URL; response: { status?: number }; cache: unknown },
  mode: ListingMode,
  overrides: { keyword?: string; category?: string | null; page?: string | undefined } = {},
): Promise<ListingData | null> {
  const cache = astro.cache as RouteCacheHandle;
  const [categories, brands] = await Promise.all([navigationCategories(), listBrands()]);
  let query: ListingQuery = { ...emptyQuery };
  try {
    query = queryFromSearchParams(astro.url.searchParams, overrides);
    const result = await findProducts(query);
    const facets = await listingFacets(result.filter, query.keyword ? { match: result.match, items: result.items } : null);
    const nearWords = result.similar && result.match ? result.match.corrections : [];
    // Decided from the count the page has read anyway: a page within range costs nothing more.
    if (!result.beyondWindow && result.page > lastPage(result.total, result.pageSize)) {
      doNotCache(cache);
      astro.response.status = 404;
      return { mode, query, result, category: result.category, categories, brands, facets, nearWords, error: null, pastTheEnd: true };
    }
    const tags = ['listing', ...(mode === 'search' ? ['search'] : []), ...(result.category ? [tagFor.category(result.category.code)] : [])];
    cachePublicPage(cache, tags);
    return { mode, query, result, category: result.category, categories, brands, facets, nearWords, error: null, pastTheEnd: false };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) {
      doNotCache(cache);
      return null;
    }
    if (error instanceof AppError && error.status === 400) {
      doNotCache(cache);
      astro.response.status = 400;
      return {
        mode,
        query: { ...query, keyword: mode === 'search' ? (overrides.keyword ?? '').slice(0, 100) : '' },
        result: { items: [], total: 0, page: 1, pageSize: 24, similar: false },
        category: null,
        categories,
        brands,
        facets: NO_FACETS,
        nearWords: [],
        error: error.message,
        pastTheEnd: false,
      };
    }
    throw error;
  }
}
