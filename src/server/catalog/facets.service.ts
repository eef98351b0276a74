import { and, sql, type SQL } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { products } from '../db/schema.ts';
import type { ProductSummary } from '../../lib/types.ts';
import { keptMap } from '../cache/kept-map.ts';
import { onCatalogChange } from './catalog-cache.ts';
import { listBrands } from './catalog.service.ts';
import { COUNT_BOUND } from './listing-query.ts';
import { filterConditions, type ProductFilter } from './product.repo.ts';
import { matchCacheKey, matchWhere, type SearchMatch } from './search-match.ts';
import { readOptionFacets, type OptionFacet, type OptionFacetRead } from './option-facets.ts';

/**
 * The listing's facets (docs/decisions/180): the brands present in the current category or search, each
 * with how many of its products are there, and the price range there. Brands and prices the shopper
 * already chose do not narrow them, so another brand can be added and a chosen one is always listed.
 */
export interface BrandFacet {
  code: string;
  name: string;
  /** Null when the search matched more than the facets read (see `capped`). */
  count: number | null;
}

export interface ListingFacets {
  brands: BrandFacet[];
  /** The lowest and highest price present, in satang; null when nothing is there. */
  minSatang: number | null;
  maxSatang: number | null;
  /** A search matched more than COUNT_BOUND products: brands come from the first ones, without counts. */
  capped: boolean;
  /** The options (สี, ขนาด…) the products here are sold in, with their values (docs/decisions/217). */
  options: OptionFacet[];
  /** More than COUNT_BOUND products with options here: their values come from the first ones, without counts. */
  optionsCapped: boolean;
}

export const NO_FACETS: ListingFacets = { brands: [], minSatang: null, maxSatang: null, capped: false, options: [], optionsCapped: false };

interface FacetRow {
  brand_id: number | null;
  n: number;
  lo: number;
  hi: number;
}

const ID_CACHE_MS = 5 * 60_000;
const facetCache = keptMap<{ rows: FacetRow[]; capped: boolean }>({ max: 1000, maxAgeMs: ID_CACHE_MS, dropOn: onCatalogChange });
const optionFacetCache = keptMap<OptionFacetRead>({ max: 1000, maxAgeMs: ID_CACHE_MS, dropOn: onCatalogChange });

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * One grouped read. A category or the whole catalog is read from an index alone (category, brand,
 * price; brand, price); a search reads at most COUNT_BOUND + 1 of its matches, like its count.
 */
async function facetRows(where: SQL | undefined, bounded: boolean): Promise<{ rows: FacetRow[]; capped: boolean }> {
  const db = await getDb();
  const source = bounded
    ? sql`(select ${products.brandId} as brand_id, ${products.priceSatang} as price_satang from ${products} where ${where} limit ${COUNT_BOUND + 1}) as matched`
    : sql`(select ${products.brandId} as brand_id, ${products.priceSatang} as price_satang from ${products} where ${where}) as matched`;
  const rows = rowsOf<FacetRow>(
    await db.execute(sql`select brand_id, count(*)::int as n, min(price_satang)::int as lo, max(price_satang)::int as hi from ${source} group by brand_id`),
  ).map((row) => ({ brand_id: row.brand_id === null ? null : Number(row.brand_id), n: Number(row.n), lo: Number(row.lo), hi: Number(row.hi) }));
  const read = rows.reduce((sum, row) => sum + row.n, 0);
  return { rows, capped: bounded && read > COUNT_BOUND };
}

/** The facets of a listing or a search: its category (or promotion scope) and keyword, not its brands, prices or options. */
export async function listingFacets(
  filter: ProductFilter,
  keyword: { match: SearchMatch | null; items: readonly ProductSummary[] } | null,
): Promise<ListingFacets> {
  const base: ProductFilter = { categoryId: filter.categoryId ?? null, scope: filter.scope ?? null };
  const brandList = await listBrands();
  const byId = new Map(brandList.map((brand) => [brand.id, brand]));
  if (keyword && !keyword.match) {
    // Similar names (the trigram pass): no condition to group by, so the brands on the page, without counts.
    const codes = new Set(keyword.items.map((item) => item.brandCode).filter((code): code is string => code !== null));
    const prices = keyword.items.map((item) => item.priceSatang);
    return {
      brands: brandList.filter((brand) => codes.has(brand.code)).map((brand) => ({ code: brand.code, name: brand.name, count: null })),
      minSatang: prices.length > 0 ? Math.min(...prices) : null,
      maxSatang: prices.length > 0 ? Math.max(...prices) : null,
      capped: true,
      // The cards carry no option values to group: no option facets for similar names.
      options: [],
      optionsCapped: false,
    };
  }
  const match = keyword?.match ?? null;
  const cacheKey = JSON.stringify([base.categoryId, base.scope, match ? matchCacheKey(match) : null]);
  const where = and(filterConditions(base), match ? matchWhere(match) : undefined);
  const [{ rows, capped }, optionRead] = await Promise.all([
    facetCache.get(cacheKey, () => facetRows(where, match !== null)),
    optionFacetCache.get(cacheKey, async () => readOptionFacets(await getDb(), where)),
  ]);
  const brands = rows
    .flatMap((row) => {
      const brand = row.brand_id === null ? undefined : byId.get(row.brand_id);
      return brand ? [{ code: brand.code, name: brand.name, count: capped ? null : row.n }] : [];
    })
    .sort((a, b) => (b.count ?? 0) - (a.count ?? 0) || a.name.localeCompare(b.name, 'th'));
  return {
    brands,
    minSatang: rows.length > 0 ? Math.min(...rows.map((row) => row.lo)) : null,
    maxSatang: rows.length > 0 ? Math.max(...rows.map((row) => row.hi)) : null,
    capped,
    options: optionRead.options,
    optionsCapped: optionRead.capped,
  };
}
