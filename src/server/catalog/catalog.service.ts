import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { getDb, type Db } from '../db/client.ts';
import { perDatabase } from '../db/per-database.ts';
import { brands, categories, productImages, productPriceTiers, products, productVariants } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { searchKey } from '../../lib/thai-text.ts';
import { variantDisplayName, variantOptions } from '../../lib/variants.ts';
import type { CategorySummary, ProductSummary } from '../../lib/types.ts';
import type { BrandSummary, ProductDetail, ProductPage, ProductVariantView, Suggestion } from '../../lib/catalog-types.ts';
import { PAGE_SIZE, RESULT_WINDOW, type ListingQuery } from './listing-query.ts';
import { navigationCategories } from './navigation.service.ts';
import { productColumns, randomRecommended, summariesByIds, summariesOf, summaryQuery, toSummary, type ProductFilter } from './product.repo.ts';
import { containsIds, listIds, listWindow, similarIds, suggestionRows, variantSuggestionRows, type BoundedCount, type IdPage, type ListingWindow } from './search.repo.ts';
import { onCatalogChange } from './catalog-cache.ts';
import { exactMatch, forgivingMatch } from './search-words.ts';
import type { SearchMatch } from './search-match.ts';
import { keptValue } from '../cache/kept-value.ts';
import { keptMap } from '../cache/kept-map.ts';

/** How long the few rows every page reads (brands, categories) are kept without a change announced. */
const KEEP_MS = 60_000;

/** Typo tolerance only runs for keywords long enough to have trigrams worth comparing. */
const MIN_SIMILAR_LENGTH = 3;
/**
 * Fewer results than this from the keyword and its synonyms is "little": the forgiving pass (no tone
 * marks, one edit) runs and its answer is taken when it finds more (docs/decisions/179).
 */
export const FEW_RESULTS = 5;

/** Active brands by name: the listing's filter reads them on every uncached page. */
const keptBrands = keptValue(async (): Promise<BrandSummary[]> => {
  const db = await getDb();
  return db
    .select({ id: brands.id, code: brands.code, name: brands.name, nameTh: brands.nameTh, description: brands.description, logo: brands.logo })
    .from(brands)
    .where(eq(brands.active, true))
    .orderBy(asc(brands.name));
}, KEEP_MS);

/** Active categories with their descriptions, by lower-case code. */
const keptCategories = keptValue(async () => {
  const db = await getDb();
  const rows = await db
    .select({ id: categories.id, code: categories.code, name: categories.name, nameEn: categories.nameEn, image: categories.image, description: categories.description })
    .from(categories)
    .where(eq(categories.active, true));
  return new Map(rows.map((row) => [row.code.toLowerCase(), row]));
}, KEEP_MS);

onCatalogChange(() => {
  keptBrands.drop();
  keptCategories.drop();
});

export async function listBrands(): Promise<BrandSummary[]> {
  return [...(await keptBrands.get())];
}

export async function findCategory(code: string): Promise<(CategorySummary & { description: string }) | null> {
  const category = (await keptCategories.get()).get(code.toLowerCase());
  return category ? { ...category } : null;
}

export async function categoryByCode(code: string): Promise<CategorySummary & { description: string }> {
  const category = await findCategory(code);
  if (!category) throw notFound('category_not_found', 'ไม่พบประเภทสินค้านี้');
  return category;
}

export async function categoryByName(name: string): Promise<CategorySummary & { description: string }> {
  const db = await getDb();
  const key = searchKey(name);
  const [row] = await db
    .select({ id: categories.id, code: categories.code, name: categories.name, nameEn: categories.nameEn, image: categories.image, description: categories.description })
    .from(categories)
    .where(and(eq(categories.active, true), sql`(lower(${categories.name}) = ${key} or lower(${categories.nameEn}) = ${key})`));
  if (!row) throw notFound('category_not_found', 'ไม่พบประเภทสินค้านี้');
  return row;
}

/** Turns codes into the ids the queries filter on; an unknown brand filters everything out. */
async function resolveFilter(query: ListingQuery): Promise<ProductFilter & { impossible: boolean; category: (CategorySummary & { description: string }) | null }> {
  const db = await getDb();
  const category = query.category ? await categoryByCode(query.category) : null;
  let brandIds: number[] | null = null;
  if (query.brands.length > 0) {
    const rows = await db.select({ id: brands.id }).from(brands).where(inArray(brands.code, query.brands));
    brandIds = rows.map((row) => row.id);
  }
  return {
    category,
    categoryId: category?.id ?? null,
    brandIds,
    minSatang: query.minSatang,
    maxSatang: query.maxSatang,
    options: query.options.length > 0 ? query.options : null,
    impossible: brandIds !== null && brandIds.length === 0,
  };
}

/**
 * Recently answered id pages (searches, filtered listings), so paging back and forth, the suggestion
 * box and the same popular keyword do not rescan the matches; and listing windows, where one read of
 * a category's (or a brand's) sort answers every page of it (docs/decisions/168). Dropped on any
 * catalog change and after five minutes; the rows themselves (price, stock, name) are always read
 * fresh (keeping them cost the rendering thread's garbage collector more than it saved the database:
 * docs/decisions/163).
 */
const ID_CACHE_MAX = 1000;
// A window is LISTING_WINDOW ids in an Int32Array (4 KB): one per category or brand and sort is a few hundred.
const WINDOW_CACHE_MAX = 500;
// Every page a listing links to, the last one's overhang included (lastPage in listing-query.ts).
const LISTING_WINDOW = RESULT_WINDOW + PAGE_SIZE;
// Any catalog change clears them (invalidateCatalog), so the time only bounds changes made elsewhere.
const ID_CACHE_MS = 5 * 60_000;
type FoundIds = IdPage & { similar: boolean; match: SearchMatch | null };
const idCache = keptMap<FoundIds>({ max: ID_CACHE_MAX, maxAgeMs: ID_CACHE_MS, dropOn: onCatalogChange });
const listingWindows = keptMap<ListingWindow>({ max: WINDOW_CACHE_MAX, maxAgeMs: ID_CACHE_MS, dropOn: onCatalogChange });
// A filtered listing's (or a sorted search's) bounded count is the same on every page and in every sort of the same filter.
const listingCounts = keptMap<BoundedCount>({ max: ID_CACHE_MAX, maxAgeMs: ID_CACHE_MS, dropOn: onCatalogChange });

export function clearProductQueryCache(): void {
  idCache.drop();
  listingWindows.drop();
  listingCounts.drop();
}

/** A page of a listing or of search results. Unknown category codes are a 404. */
export async function findProducts(
  query: ListingQuery,
  pageSize = PAGE_SIZE,
  scope: ProductFilter['scope'] = null,
): Promise<ProductPage & { category: (CategorySummary & { description: string }) | null; match: SearchMatch | null; filter: ProductFilter }> {
  // A listing window holds the last page's overhang for pages of PAGE_SIZE, not more.
  if (pageSize > PAGE_SIZE) throw new Error(`page size ${pageSize} is above ${PAGE_SIZE}`);
  const db = await getDb();
  const filter = { ...(await resolveFilter(query)), scope };
  const offset = (query.page - 1) * pageSize;
  const empty = { items: [], total: 0, page: query.page, pageSize, similar: false, category: filter.category, match: null, filter };
  if (filter.impossible) return empty;
  const key = searchKey(query.keyword);
  // Past the window only the (bounded) count is read, for the message and the page links.
  const beyondWindow = offset >= RESULT_WINDOW;
  const found = key || !windowed(filter) ? await pagedIds(db, key, filter, query, pageSize, offset, beyondWindow) : await windowIds(db, filter, query.sort, pageSize, offset, beyondWindow);
  return {
    items: await summariesByIds(db, found.ids),
    total: found.total,
    totalCapped: found.capped,
    // Past the window only when there is something there; past the end of a short list is just empty.
    beyondWindow: beyondWindow && (found.capped || found.total > offset),
    page: query.page,
    pageSize,
    similar: found.similar,
    category: filter.category,
    match: found.match,
    filter,
  };
}

/**
 * A listing of a category, of one brand or of the whole catalog: each of its sorts has an index that
 * starts with its filter, so its window is one short walk (docs/decisions/168). Option values, like a
 * price range, are checked row by row on the walk: such a listing reads one page at a time.
 */
function windowed(filter: ProductFilter): boolean {
  const brands = filter.brandIds?.length ?? 0;
  const oneFilter = brands === 0 || (brands === 1 && !filter.categoryId);
  return oneFilter && !filter.scope && filter.minSatang === null && filter.maxSatang === null && !filter.options?.length;
}

/** A listing page's ids, cut from its filter's and sort's window. */
async function windowIds(db: Db, filter: ProductFilter, sort: ListingQuery['sort'], pageSize: number, offset: number, beyondWindow: boolean): Promise<FoundIds> {
  const listingSort = sort === 'relevance' ? 'newest' : sort;
  const window = await listingWindows.get(JSON.stringify([filter.categoryId, filter.brandIds, listingSort]), () =>
    listWindow(db, filter, listingSort, LISTING_WINDOW),
  );
  const ids = beyondWindow ? [] : Array.from(window.ids.subarray(offset, offset + pageSize));
  return { ids, total: window.total, capped: window.capped, similar: false, match: null };
}

/**
 * One page's ids of a search, or of a listing filtered by price, brand or a promotion's scope, with
 * the bounded count kept per filter for its other pages and sorts. When nothing contains a keyword,
 * similar names.
 */
async function pagedIds(
  db: Db,
  key: string,
  filter: ProductFilter,
  query: ListingQuery,
  pageSize: number,
  offset: number,
  beyondWindow: boolean,
): Promise<FoundIds> {
  const cacheKey = JSON.stringify([key, filter.scope, filter.categoryId, filter.brandIds, filter.minSatang, filter.maxSatang, filter.options, query.sort, beyondWindow ? 0 : pageSize, beyondWindow ? -1 : offset]);
  return idCache.get(cacheKey, async () => {
    if (beyondWindow) {
      const first = await pagedIds(db, key, filter, { ...query, page: 1 }, pageSize, 0, false);
      return { ids: [], total: first.total, capped: first.capped, similar: first.similar, match: first.match };
    }
    const countKey = JSON.stringify([key, filter.scope, filter.categoryId, filter.brandIds, filter.minSatang, filter.maxSatang, filter.options]);
    const known = listingCounts.peek(countKey);
    const since = listingCounts.mark();
    const remember = (page: IdPage) => {
      if (!known) listingCounts.keep(countKey, { total: page.total, capped: page.capped }, since);
    };
    if (!key) {
      const listed = await listIds(db, filter, query.sort === 'relevance' ? 'newest' : query.sort, pageSize, offset, known);
      remember(listed);
      return { ...listed, similar: false, match: null };
    }
    const exact = await exactMatch(key);
    const contained = await containsIds(db, exact, filter, query.sort, pageSize, offset, query.sort === 'relevance' ? undefined : known);
    if (query.sort !== 'relevance') remember(contained);
    if (contained.total >= FEW_RESULTS) return { ...contained, similar: false, match: exact };
    // Little found: the keyword without tone marks and the known words one edit away (docs/decisions/179).
    const forgiving = await forgivingMatch(key);
    if (forgiving) {
      const wider = await containsIds(db, forgiving, filter, query.sort, pageSize, offset);
      if (wider.total > contained.total) return { ...wider, similar: contained.total === 0, match: forgiving };
    }
    if (contained.total > 0 || [...key].length < MIN_SIMILAR_LENGTH) return { ...contained, similar: false, match: exact };
    const similarPage = await similarIds(db, key, filter, query.sort, pageSize, offset);
    return { ...similarPage, similar: similarPage.total > 0, match: null };
  });
}

/** How many products match; above COUNT_BOUND the count stops there and `capped` is set. */
export async function countProducts(query: ListingQuery): Promise<{ count: number; capped: boolean }> {
  const result = await findProducts({ ...query, page: 1 }, 1);
  return { count: result.total, capped: result.totalCapped === true };
}

type DetailWhere = { code: string } | { id: number } | { name: string };

type VariantJson = Omit<ProductVariantView, 'tiers'> & { tiers: ProductDetail['tiers'] };

/** The product page's one query: the product, its category and brand, pictures and tiers. */
function detailQuery(db: Db, condition: SQL) {
  return db
    .select({
      card: productColumns,
      nameEn: products.nameEn,
      description: products.description,
      unit: products.unit,
      recommended: products.recommended,
      updatedAt: products.updatedAt,
      categoryId: categories.id,
      categoryNameEn: categories.nameEn,
      categoryImage: categories.image,
      categoryDescription: categories.description,
      brandId: brands.id,
      brandNameTh: brands.nameTh,
      brandDescription: brands.description,
      brandLogo: brands.logo,
      // Pictures and price tiers ride along as JSON: one round trip for the page, not three.
      images: sql<ProductDetail['images']>`(select coalesce(json_agg(json_build_object('url', ${productImages.url}, 'alt', ${productImages.alt}, 'width', ${productImages.width}, 'height', ${productImages.height}) order by ${productImages.sortOrder}, ${productImages.id}), '[]'::json) from ${productImages} where ${productImages.productId} = ${products.id})`,
      tiers: sql<ProductDetail['tiers']>`(select coalesce(json_agg(json_build_object('minQuantity', ${productPriceTiers.minQuantity}, 'priceSatang', ${productPriceTiers.priceSatang}) order by ${productPriceTiers.minQuantity}), '[]'::json) from ${productPriceTiers} where ${productPriceTiers.productId} = ${products.id} and ${productPriceTiers.variantId} is null)`,
      optionNames: products.optionNames,
      // The variants with their own tiers (docs/decisions/205), in the same round trip.
      variants: sql<VariantJson[]>`(select coalesce(json_agg(json_build_object('code', v.code, 'values', json_build_array(v.option1, v.option2, v.option3), 'swatch', v.swatch, 'priceSatang', v.price_satang, 'stock', v.stock, 'image', v.image, 'active', v.active, 'tiers', (select coalesce(json_agg(json_build_object('minQuantity', t.min_quantity, 'priceSatang', t.price_satang) order by t.min_quantity), '[]'::json) from product_price_tiers t where t.variant_id = v.id)) order by v.sort_order, v.id), '[]'::json) from product_variants v where v.product_id = ${products.id})`,
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .leftJoin(brands, eq(brands.id, products.brandId))
    .where(and(eq(products.active, true), condition))
    .limit(1);
}

/**
 * The two queries of every product page, built once per database (Drizzle's prepared queries with
 * placeholders): building a query's SQL from its builder was about a tenth of an uncached product
 * page's CPU (docs/decisions/150).
 */
const productPageQueriesOf = perDatabase((db: Db) => ({
  detailByCode: detailQuery(db, eq(sql`lower(${products.code})`, sql.placeholder('code'))).prepare('product_detail_by_code'),
  // A variant's code (`/product/{variantCode}`): asked only when no product has the code.
  detailByVariantCode: detailQuery(
    db,
    eq(products.id, sql`(select ${productVariants.productId} from ${productVariants} where lower(${productVariants.code}) = ${sql.placeholder('code')})`),
  ).prepare('product_detail_by_variant_code'),
  related: summaryQuery(db, and(eq(products.categoryId, sql.placeholder('categoryId')), sql`${products.stock} > 0`))
    .orderBy(desc(products.recommended), desc(products.createdAt), desc(products.id))
    .limit(sql.placeholder('limit'))
    .prepare('product_related'),
}));

async function loadDetail(where: DetailWhere): Promise<ProductDetail | null> {
  const db = await getDb();
  let [found] =
    'code' in where
      ? await productPageQueriesOf(db).detailByCode.execute({ code: where.code.toLowerCase() })
      : await detailQuery(db, 'id' in where ? eq(products.id, where.id) : eq(sql`lower(${products.name})`, searchKey(where.name)));
  if (!found && 'code' in where) [found] = await productPageQueriesOf(db).detailByVariantCode.execute({ code: where.code.toLowerCase() });
  if (!found) return null;
  const { card, images, tiers, optionNames, variants, ...row } = found;
  const summary = toSummary(card);
  return {
    ...summary,
    optionNames,
    variants: variants.map((variant) => ({ ...variant, values: variant.values.slice(0, optionNames.length), tiers: variant.tiers.length > 0 ? variant.tiers : tiers })),
    nameEn: row.nameEn,
    description: row.description,
    unit: row.unit,
    recommended: row.recommended,
    updatedAt: row.updatedAt.toISOString(),
    images: images.length > 0 ? images : summary.image ? [{ url: summary.image, alt: summary.name }] : [],
    tiers,
    category: { id: row.categoryId, code: summary.categoryCode, name: summary.categoryName, nameEn: row.categoryNameEn, image: row.categoryImage, description: row.categoryDescription },
    brand:
      row.brandId !== null && summary.brandCode !== null
        ? { id: row.brandId, code: summary.brandCode, name: summary.brandName ?? '', nameTh: row.brandNameTh ?? '', description: row.brandDescription ?? '', logo: row.brandLogo }
        : null,
  };
}

function required(detail: ProductDetail | null): ProductDetail {
  if (!detail) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
  return detail;
}

export const productByCode = async (code: string) => required(await loadDetail({ code }));
export const productById = async (id: number) => required(await loadDetail({ id }));
export const productByName = async (name: string) => required(await loadDetail({ name }));
export const findProductByCode = (code: string) => loadDetail({ code });

/**
 * The related block's candidates by category: every product of a category shows the same list less
 * itself, so one read serves all of them (a crawler walking a category's pages asked it once per page,
 * half of an uncached product page's database time; docs/decisions/152). Dropped with every catalog
 * change, like the pages that show it.
 */
const RELATED_KEEP_MAX = 500;
const relatedByCategory = keptMap<ProductSummary[]>({ max: RELATED_KEEP_MAX, maxAgeMs: KEEP_MS, dropOn: onCatalogChange });

function relatedCandidates(categoryId: number, limit: number): Promise<ProductSummary[]> {
  // A read on its way when a change drops the map answers its own requests but is kept nowhere.
  return relatedByCategory.get(`${categoryId}:${limit}`, async () => {
    const db = await getDb();
    return summariesOf(await productPageQueriesOf(db).related.execute({ categoryId, limit }));
  });
}

/** Same category, in stock, recommended then newest first, without the product itself. */
export async function relatedProducts(product: Pick<ProductDetail, 'id' | 'category'>, limit = 6): Promise<ProductSummary[]> {
  const candidates = await relatedCandidates(product.category.id, limit + 1);
  return candidates.filter((candidate) => candidate.id !== product.id).slice(0, limit);
}

export async function productSubImages(code: string): Promise<{ url: string; alt: string }[]> {
  const detail = required(await loadDetail({ code }));
  return detail.images.slice(1);
}

export async function randomProducts(limit: number): Promise<ProductSummary[]> {
  return randomRecommended(await getDb(), limit);
}

/** As-you-type suggestions: matching categories and brands first, then product names. */
export async function suggestions(keyword: string, limit = 8): Promise<Suggestion[]> {
  const key = searchKey(keyword);
  if (!key) return [];
  const [categoryList, brandList, productRows] = await Promise.all([
    navigationCategories(),
    listBrands(),
    getDb().then((db) => suggestionRows(db, key, limit)),
  ]);
  const out: Suggestion[] = [];
  for (const category of categoryList) {
    if (searchKey(`${category.name} ${category.nameEn}`).includes(key)) {
      out.push({ kind: 'category', label: category.name, href: `/product/category/${encodeURIComponent(category.code)}` });
    }
  }
  for (const brand of brandList) {
    if (searchKey(`${brand.name} ${brand.nameTh}`).includes(key)) {
      out.push({ kind: 'brand', label: brand.name, href: `/product?brand=${encodeURIComponent(brand.code)}` });
    }
  }
  for (const row of productRows) {
    out.push({ kind: 'product', label: row.name, href: `/product/${encodeURIComponent(row.code)}` });
  }
  // A shade's name or a variant's code: the product once, opened on that variant (its code's URL chooses it).
  if (productRows.length < limit) {
    for (const row of await variantSuggestionRows(await getDb(), key, limit - productRows.length)) {
      const label = variantDisplayName(row.name, variantOptions(row.optionNames, row.values));
      out.push({ kind: 'product', label, href: `/product/${encodeURIComponent(row.code)}` });
    }
  }
  return out.slice(0, limit + 3);
}
