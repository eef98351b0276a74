import { and, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { brands, categories, products } from '../db/schema.ts';
import { escapeLike } from '../../lib/thai-text.ts';
import { filterConditions, type ProductFilter } from './product.repo.ts';
import type { ListingSort } from './listing-query.ts';

/**
 * Product search on the trigram indexes (DESIGN.md section 2, pg_trgm). Thai has no spaces between
 * words, so matching is by substring (`LIKE '%…%'`, answered by the GIN trigram index on the
 * normalised `search_text`), ranked exact name, name prefix, name substring, then everything else.
 * When nothing contains the keyword, a word-similarity pass over names, brands and categories finds
 * products despite a small typo. See docs/decisions/030-search-on-trigrams.md.
 */
export interface IdPage {
  ids: number[];
  total: number;
}

function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

function orderFor(sort: ListingSort): SQL {
  switch (sort) {
    case 'price_asc':
      return sql`${products.priceSatang} asc, ${products.id} asc`;
    case 'price_desc':
      return sql`${products.priceSatang} desc, ${products.id} desc`;
    case 'name':
      return sql`${products.name} asc, ${products.id} asc`;
    default:
      return sql`${products.createdAt} desc, ${products.id} desc`;
  }
}

/** Terms of a normalised keyword: every term must appear (Thai shoppers sometimes add spaces). */
export function keywordTerms(key: string): string[] {
  return [...new Set(key.split(' ').filter((term) => term.length > 0))].slice(0, 8);
}

function containsAll(key: string): SQL {
  const terms = keywordTerms(key);
  return and(...terms.map((term) => sql`${products.searchText} like ${`%${escapeLike(term)}%`}`)) as SQL;
}

function rankOf(key: string): SQL {
  const like = escapeLike(key);
  return sql`case
    when lower(${products.name}) = ${key} or lower(${products.code}) = ${key} then 0
    when lower(${products.name}) like ${`${like}%`} then 1
    when lower(${products.name}) like ${`%${like}%`} then 2
    else 3 end`;
}

async function idsAndCount(db: DbOrTx, where: SQL | undefined, order: SQL, limit: number, offset: number): Promise<IdPage> {
  const [pageRows, countRows] = await Promise.all([
    db.execute(sql`select ${products.id} as id from ${products} where ${where} order by ${order} limit ${limit} offset ${offset}`),
    db.execute(sql`select count(*)::int as n from ${products} where ${where}`),
  ]);
  return {
    ids: rowsOf<{ id: number }>(pageRows).map((row) => Number(row.id)),
    total: Number(rowsOf<{ n: number }>(countRows)[0]?.n ?? 0),
  };
}

/**
 * One pass for keyword queries: the matches are read once (bitmap scan + recheck) and both ranked
 * and counted from it, instead of a second scan for the count.
 */
async function idsWithWindowCount(db: DbOrTx, where: SQL | undefined, order: SQL, limit: number, offset: number): Promise<IdPage> {
  const result = await db.execute(
    sql`select ${products.id} as id, count(*) over ()::int as n from ${products} where ${where} order by ${order} limit ${limit} offset ${offset}`,
  );
  const rows = rowsOf<{ id: number; n: number }>(result);
  if (rows.length === 0 && offset > 0) {
    // Past the last page: the window saw no rows, so count on its own.
    const counted = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${products} where ${where}`));
    return { ids: [], total: Number(counted[0]?.n ?? 0) };
  }
  return { ids: rows.map((row) => Number(row.id)), total: Number(rows[0]?.n ?? 0) };
}

/** Listing without a keyword. */
export function listIds(db: DbOrTx, filter: ProductFilter, sort: ListingSort, limit: number, offset: number): Promise<IdPage> {
  return idsAndCount(db, filterConditions(filter), orderFor(sort), limit, offset);
}

/** Products containing the keyword, best name matches first (or in the chosen sort). */
export function containsIds(db: DbOrTx, key: string, filter: ProductFilter, sort: ListingSort, limit: number, offset: number): Promise<IdPage> {
  const where = and(filterConditions(filter), containsAll(key));
  const order = sort === 'relevance' ? sql`${rankOf(key)}, ${orderFor('newest')}` : orderFor(sort);
  return idsWithWindowCount(db, where, order, limit, offset);
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
    return idsWithWindowCount(tx, where, order, limit, offset);
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
