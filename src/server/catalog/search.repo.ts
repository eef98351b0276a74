import { and, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { brands, categories, products, productVariants } from '../db/schema.ts';
import { escapeLike } from '../../lib/thai-text.ts';
import { filterConditions, type ProductFilter } from './product.repo.ts';
import { optionConditions, type OptionChoice } from './option-facets.ts';
import { matchWalk, matchWhere, rankOf, relevanceTiers, type SearchMatch } from './search-match.ts';
import { COUNT_BOUND, type ListingSort } from './listing-query.ts';
import { keptMap } from '../cache/kept-map.ts';

/**
 * Product search on the trigram indexes (docs/design.md section 2, pg_trgm). Thai has no spaces between
 * words, so matching is by substring (`LIKE '%…%'`, answered by the GIN trigram index on the
 * normalised `search_text`), ranked exact name, name prefix, name substring, then everything else.
 * What a keyword matches (its spellings, synonyms, the tone-free names) is a SearchMatch built in
 * search-words.ts (docs/decisions/179). When nothing matches, a word-similarity pass over names, brands
 * and categories finds products despite a typo. See docs/decisions/030-search-on-trigram-indexes.md.
 */
export interface IdPage {
  ids: number[];
  /** Exact up to COUNT_BOUND; above it the count stops and `capped` is set. */
  total: number;
  capped: boolean;
}

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** The column a listing sort orders by (then the id, the same way), as the indexes hold them. */
const SORT_KEYS: Record<ListingSort, { column: SQL; descending: boolean }> = {
  newest: { column: sql`${products.createdAt}`, descending: true },
  relevance: { column: sql`${products.createdAt}`, descending: true },
  price_asc: { column: sql`${products.priceSatang}`, descending: false },
  price_desc: { column: sql`${products.priceSatang}`, descending: true },
  name: { column: sql`${products.name}`, descending: false },
};

function orderFor(sort: ListingSort): SQL {
  const { column, descending } = SORT_KEYS[sort];
  const direction = descending ? sql`desc` : sql`asc`;
  return sql`${column} ${direction}, ${products.id} ${direction}`;
}

/** Terms of a normalised keyword: every term must appear (Thai shoppers sometimes add spaces). */
export function keywordTerms(key: string): string[] {
  return [...new Set(key.split(' ').filter((term) => term.length > 0))].slice(0, 8);
}

/** Count up to COUNT_BOUND + 1 rows: the scan stops there however many rows match. */
async function boundedCount(db: DbOrTx, where: SQL | undefined): Promise<{ total: number; capped: boolean }> {
  const rows = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from (select 1 from ${products} where ${where} limit ${COUNT_BOUND + 1}) as matched`),
  );
  const n = Number(rows[0]?.n ?? 0);
  return n > COUNT_BOUND ? { total: COUNT_BOUND, capped: true } : { total: n, capped: false };
}

export type BoundedCount = Pick<IdPage, 'total' | 'capped'>;

/**
 * Ids of one page in a sort that has an index (listings and sorted searches), with a bounded count;
 * `knownCount` (the same filter counted for another page or sort) spares the count query.
 */
async function sortedPage(db: DbOrTx, where: SQL | undefined, order: SQL, limit: number, offset: number, knownCount?: BoundedCount): Promise<IdPage> {
  const [pageRows, counted] = await Promise.all([
    db.execute(sql`select ${products.id} as id from ${products} where ${where} order by ${order} limit ${limit} offset ${offset}`),
    knownCount ?? boundedCount(db, where),
  ]);
  return { ids: rowsOf<{ id: number }>(pageRows).map((row) => Number(row.id)), total: counted.total, capped: counted.capped };
}

/** A page of a listing without a keyword. */
export function listIds(db: DbOrTx, filter: ProductFilter, sort: ListingSort, limit: number, offset: number, knownCount?: BoundedCount): Promise<IdPage> {
  const brandIds = filter.brandIds ?? [];
  if (brandIds.length < 2 && filter.options && filter.options.length > 0) return optionPage(db, filter, filter.options, sort, limit, offset, knownCount);
  if (brandIds.length < 2) return sortedPage(db, filterConditions(filter), orderFor(sort), limit, offset, knownCount);
  return severalBrandsPage(db, filter, brandIds, sort, limit, offset, knownCount);
}

/**
 * A page of a listing filtered by option values (docs/decisions/217). Left to itself the planner either
 * sorts every product with the value (9,000 for a common shade family over the whole scale catalog:
 * 200–450 ms) or probes every product of the listing; so, as a sorted search does (`containsIds`), the
 * sort's index is walked a bounded distance and each walked row's variants probed: a common value fills
 * the page there. Otherwise the value is rare enough to fetch its products from the option keys index
 * and sort them.
 */
async function optionPage(
  db: DbOrTx,
  filter: ProductFilter,
  options: readonly OptionChoice[],
  sort: ListingSort,
  limit: number,
  offset: number,
  knownCount?: BoundedCount,
): Promise<IdPage> {
  const where = filterConditions(filter);
  const walk = db.execute(
    sql`select id from (select ${products.id} as id, ${products.optionNames} as option_names, ${products.priceSatang} as price_satang, ${products.name} as name, ${products.createdAt} as created_at
      from ${products} where ${filterConditions({ ...filter, options: null })} order by ${orderFor(sort)} limit ${walkLength(limit, offset)}) as ${products}
      where ${and(...optionConditions(options, { candidates: false }))} order by ${orderFor(sort)} limit ${limit} offset ${offset}`,
  );
  const [walked, counted] = await Promise.all([walk, knownCount ?? boundedCount(db, where)]);
  const walkedIds = rowsOf<{ id: number }>(walked).map((row) => Number(row.id));
  if (walkedIds.length === limit) return { ids: walkedIds, ...counted };
  const sorted = rowsOf<{ id: number }>(await db.execute(sql`select ${products.id} as id from ${products} where ${where} order by ${orderBySorting(sort)} limit ${limit} offset ${offset}`));
  return { ids: sorted.map((row) => Number(row.id)), ...counted };
}

/**
 * A page of a listing filtered by several brands. No index gives `brand_id in (…)` in a sort's order,
 * so PostgreSQL either sorts every match or walks the whole sort's index dropping the other brands'
 * rows; when the brands sit together in that order (a name sort), the walk read 22,000 rows for one
 * page (370 ms at 100,000 products). Each brand's own index walk, cut at the page's end, merged in
 * order (a Merge Append), reads at most the brands × (offset + limit) entries (docs/decisions/168).
 */
async function severalBrandsPage(
  db: DbOrTx,
  filter: ProductFilter,
  brandIds: number[],
  sort: ListingSort,
  limit: number,
  offset: number,
  knownCount?: BoundedCount,
): Promise<IdPage> {
  const { column, descending } = SORT_KEYS[sort];
  const direction = descending ? sql`desc` : sql`asc`;
  const branches = brandIds.map(
    (brandId) =>
      sql`(select ${products.id} as id, ${column} as sort_key from ${products} where ${filterConditions({ ...filter, brandIds: [brandId] })} order by ${orderFor(sort)} limit ${offset + limit})`,
  );
  const [pageRows, counted] = await Promise.all([
    db.execute(sql`select id from (${sql.join(branches, sql` union all `)}) as listed order by sort_key ${direction}, id ${direction} limit ${limit} offset ${offset}`),
    knownCount ?? boundedCount(db, filterConditions(filter)),
  ]);
  return { ids: rowsOf<{ id: number }>(pageRows).map((row) => Number(row.id)), total: counted.total, capped: counted.capped };
}

/** The first ids of a listing (no keyword) in its sort, and how many match up to COUNT_BOUND. */
export interface ListingWindow {
  ids: Int32Array;
  total: number;
  capped: boolean;
}

/**
 * A listing's window in one statement: the ids of every page a shopper or a crawler can open, in
 * the sort's order. As many rows as the window holds are also the count, bounded like every other
 * (`length` must be above COUNT_BOUND), so no count statement is sent (docs/decisions/168). Only
 * for filters whose every sort has an index to walk (a category, one brand, or none): a price range
 * or several brands would sort all their matches here, where a single page walks an index and stops.
 */
export async function listWindow(db: DbOrTx, filter: ProductFilter, sort: ListingSort, length: number): Promise<ListingWindow> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`select ${products.id} as id from ${products} where ${filterConditions(filter)} order by ${orderFor(sort)} limit ${length}`),
  );
  const ids = Int32Array.from(rows, (row) => Number(row.id));
  return ids.length > COUNT_BOUND ? { ids, total: COUNT_BOUND, capped: true } : { ids, total: ids.length, capped: false };
}

/** How many of the newest products a walk may look at per row it needs. */
const WALK_PER_ROW = 50;
const MAX_WALK = 20_000;

const walkStarts = keptMap<string | null, number>({ max: 50, maxAgeMs: 60_000 });

/**
 * The created_at of the n-th newest active product: a walk from the newest product down to it looks
 * at no more than n rows. Re-read once a minute (new products only shorten the walk meanwhile).
 */
function walkFloor(db: DbOrTx, n: number): Promise<string | null> {
  return walkStarts.get(n, async () => {
    const rows = rowsOf<{ at: string | Date }>(
      await db.execute(sql`select ${products.createdAt} as at from ${products} where ${products.active} order by ${orderFor('newest')} offset ${n - 1} limit 1`),
    );
    const at = rows[0]?.at;
    return at === undefined ? null : at instanceof Date ? at.toISOString() : String(at);
  });
}

/**
 * The newest `need` rows of one relevance tier without reading the whole tier. A tier the sample saw
 * none of is small: read it from the bitmap and sort it. Otherwise walk it newest first over at most
 * WALK_PER_ROW × need rows, which fills the page unless the tier is sparse, and a sparse tier is small
 * enough to sort.
 */
async function newestOfTier(db: DbOrTx, where: SQL, need: number, seenInSample: boolean): Promise<number[]> {
  const newest = sql`select ${products.id} as id from ${products} where ${where}`;
  const ids = async (query: SQL) => rowsOf<{ id: number }>(await db.execute(query)).map((row) => Number(row.id));
  if (seenInSample) {
    // The created_at range bounds the rows any plan can read: walking the index, or intersecting its
    // bitmap with the trigram one.
    const floor = await walkFloor(db, Math.min(MAX_WALK, WALK_PER_ROW * need));
    if (floor !== null) {
      const walked = await ids(sql`${newest} and ${products.createdAt} >= ${floor} order by ${orderFor('newest')} limit ${need}`);
      if (walked.length >= need) return walked;
    }
  }
  return ids(sql`${newest} order by ${orderFor('newest')} limit ${need}`);
}

/**
 * Relevance without ranking every match. One pass reads at most COUNT_BOUND + 1 matches with
 * their tier: when that is all of them, it is the whole answer (ranked, counted). Otherwise the word is
 * common; the pass was a sample of the matches, which tells which tiers are dense, and the tiers are
 * read one after the other, newest first, until the page is full (newestOfTier): the work follows the
 * page, not the 100,000 matches.
 */
async function rankedPage(db: DbOrTx, filter: ProductFilter, match: SearchMatch, limit: number, offset: number): Promise<IdPage> {
  const filtered = filterConditions(filter);
  const where = and(filtered, matchWhere(match));
  // Only the page comes back, with the number of rows read and which tiers they fell in.
  const rows = rowsOf<{ id: number; n: number; seen: number }>(
    await db.execute(
      sql`select id, count(*) over ()::int as n, bit_or(1 << rank) over ()::int as seen from (select ${products.id} as id, ${rankOf(match)} as rank, ${products.createdAt} as created_at from ${products} where ${where} limit ${COUNT_BOUND + 1}) as matched order by rank, created_at desc, id desc limit ${limit} offset ${offset}`,
    ),
  );
  const first = rows[0];
  // Past the last match (the window keeps offsets below the bound): count on their own.
  if (first === undefined) return { ids: [], ...(await boundedCount(db, where)) };
  if (Number(first.n) <= COUNT_BOUND) return { ids: rows.map((row) => Number(row.id)), total: Number(first.n), capped: false };
  const seenMask = Number(first.seen);
  const need = offset + limit;
  const ids: number[] = [];
  const tiers = relevanceTiers(match);
  for (const [rank, tier] of tiers.entries()) {
    // The name tiers have their own indexes (lower(name) and lower(code) for exact and prefix, the name
    // trigrams for the rest of the name matches): the word's condition is only checked on their rows,
    // in a form the search-text trigram index cannot answer, or the planner intersects its bitmap of
    // every match of the word with theirs (2.4 of 4.7 ms for ของชำร่วย's name prefixes on PostgreSQL).
    const ownIndex = rank < tiers.length - 1;
    const tierWhere = ownIndex ? and(filtered, matchWalk(match), tier) : and(where, tier);
    ids.push(...(await newestOfTier(db, tierWhere as SQL, need - ids.length, (seenMask & (1 << rank)) !== 0)));
    if (ids.length >= need) break;
  }
  return { ids: ids.slice(offset, need), total: COUNT_BOUND, capped: true };
}

/** The sort's order by expressions no index can answer, so the plan sorts the matches it fetched. */
function orderBySorting(sort: ListingSort): SQL {
  switch (sort) {
    case 'price_asc':
      return sql`${products.priceSatang} + 0 asc, ${products.id} asc`;
    case 'price_desc':
      return sql`${products.priceSatang} + 0 desc, ${products.id} desc`;
    case 'name':
      return sql`${products.name} || '' asc, ${products.id} asc`;
    default:
      return sql`${products.createdAt} + interval '0' desc, ${products.id} desc`;
  }
}

/** How far down the sort's index a sorted search looks for its page before it sorts the matches instead. */
function walkLength(limit: number, offset: number): number {
  return Math.min(4000, Math.max(1000, 4 * (offset + limit)));
}

/** Products containing the keyword, best name matches first (or in the chosen sort). */
export async function containsIds(
  db: DbOrTx,
  match: SearchMatch,
  filter: ProductFilter,
  sort: ListingSort,
  limit: number,
  offset: number,
  knownCount?: BoundedCount,
): Promise<IdPage> {
  if (sort === 'relevance') return rankedPage(db, filter, match, limit, offset);
  const where = and(filterConditions(filter), matchWhere(match));
  // Left to itself the planner either fetches every match through the trigram index to sort them (all
  // 100,000 for ของขวัญ: half a second) or walks the sort's index past tens of thousands of rows
  // without the word (ลิป by name: the lipsticks sit together near the end). So: walk the index a
  // bounded distance first; a word common enough fills the page there, exactly as a full sort would.
  // Otherwise the matches are few enough to fetch and sort. The walked rows are named like the table,
  // so the same column references (the word's condition, the sort) read them.
  const walk = db.execute(
    sql`select id from (select ${products.id} as id, ${products.searchText} as search_text, ${products.priceSatang} as price_satang, ${products.name} as name, ${products.createdAt} as created_at
      from ${products} where ${filterConditions(filter)} order by ${orderFor(sort)} limit ${walkLength(limit, offset)}) as ${products}
      where ${matchWalk(match)} order by ${orderFor(sort)} limit ${limit} offset ${offset}`,
  );
  const [walked, counted] = await Promise.all([walk, knownCount ?? boundedCount(db, where)]);
  const walkedIds = rowsOf<{ id: number }>(walked).map((row) => Number(row.id));
  if (walkedIds.length === limit) return { ids: walkedIds, ...counted };
  const sorted = rowsOf<{ id: number }>(
    await db.execute(sql`select ${products.id} as id from ${products} where ${where} order by ${orderBySorting(sort)} limit ${limit} offset ${offset}`),
  );
  return { ids: sorted.map((row) => Number(row.id)), total: counted.total, capped: counted.capped };
}

/** How similar a keyword must be to a word of a name, brand or category to count as a typo of it. */
export const TYPO_THRESHOLD = 0.45;

/**
 * Typo-tolerant pass: the keyword is word-similar to a product name (trigram index on lower(name)) or
 * to a brand or category name (small tables). The threshold is set for this transaction only.
 */
export async function similarIds(db: DbOrTx, key: string, filter: ProductFilter, sort: ListingSort, limit: number, offset: number): Promise<IdPage> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${String(TYPO_THRESHOLD)}, true)`);
    // Each branch can use its own index; an OR across them would make the planner scan every row.
    const candidates = sql`(
      select ${products.id} from ${products} where ${key} <% lower(${products.name})
      union select ${products.id} from ${products} where ${products.brandId} in (select ${brands.id} from ${brands} where ${key} <% lower(${brands.name}) or ${key} <% ${brands.nameTh})
      union select ${products.id} from ${products} where ${products.categoryId} in (select ${categories.id} from ${categories} where ${key} <% lower(${categories.name}) or ${key} <% lower(${categories.nameEn}))
    )`;
    const where = and(filterConditions(filter), sql`${products.id} in ${candidates}`);
    const order =
      sort === 'relevance'
        ? sql`word_similarity(${key}, lower(${products.name})) desc, ${orderFor('newest')}`
        : orderFor(sort);
    return sortedPage(tx, where, order, limit, offset);
  });
}

/** Names for as-you-type suggestions: prefix matches first, from the name trigram index. */
export async function suggestionRows(db: DbOrTx, key: string, limit: number): Promise<{ code: string; name: string }[]> {
  const like = escapeLike(key);
  const result = await db.execute(sql`
    select ${products.code} as code, ${products.name} as name
    from ${products}
    where ${products.active} and lower(${products.name}) like ${`%${like}%`}
    order by (lower(${products.name}) like ${`${like}%`}) desc, length(${products.name}), ${products.id} desc
    limit ${limit}`);
  return rowsOf<{ code: string; name: string }>(result);
}

/**
 * Suggestions past the names: products whose variant's code or option value holds the key (a shade's
 * name, a size, a variant's code), each once, with the first such variant. Candidates come from the
 * search text's trigram index (it holds the variants' codes and values), then each is checked against
 * its variants.
 */
export async function variantSuggestionRows(
  db: DbOrTx,
  key: string,
  limit: number,
): Promise<{ code: string; name: string; optionNames: string[]; values: (string | null)[] }[]> {
  const like = `%${escapeLike(key)}%`;
  const result = await db.execute(sql`
    select v.code as code, ${products.name} as name, ${products.optionNames} as "optionNames", json_build_array(v.option1, v.option2, v.option3) as values
    from ${products}
    join lateral (
      select * from ${productVariants} v
      where v.product_id = ${products.id} and v.active
        and (lower(v.code) like ${like} or lower(v.option1) like ${like} or lower(v.option2) like ${like} or lower(v.option3) like ${like})
      order by v.sort_order, v.id limit 1
    ) v on true
    where ${products.active} and ${products.searchText} like ${like} and lower(${products.name}) not like ${like}
      and ${products.optionNames} <> '{}'
    order by length(${products.name}), ${products.id} desc
    limit ${limit}`);
  return rowsOf<{ code: string; name: string; optionNames: string[] | string; values: (string | null)[] | string }>(result).map((row) => ({
    ...row,
    // Both drivers parse arrays and json; a string is read the same way should one not.
    optionNames: typeof row.optionNames === 'string' ? parsePgTextArray(row.optionNames) : row.optionNames,
    values: typeof row.values === 'string' ? (JSON.parse(row.values) as (string | null)[]) : row.values,
  }));
}

/** `{สี,ขนาด}` as a driver may hand back a text[] it did not parse. */
function parsePgTextArray(text: string): string[] {
  const inner = text.replace(/^\{|\}$/g, '');
  return inner === '' ? [] : inner.split(',').map((part) => part.replace(/^"|"$/g, ''));
}
