import { and, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { perDatabase } from '../db/per-database.ts';
import { brands, categories, productCardChoices, products } from '../db/schema.ts';
import type { ProductSummary, VariantChoices } from '../../lib/types.ts';
import { cardNames } from './card-names.ts';
import { optionConditions, type OptionChoice } from './option-facets.ts';

/**
 * What a card shows of the product's variants, kept beside the product by triggers (drizzle/0023,
 * docs/decisions/232): one key lookup, null for a product sold in one variant.
 */
const cardChoices = sql<VariantChoices | string | null>`(select ${productCardChoices.choices} from ${productCardChoices} where ${productCardChoices.productId} = ${products.id})`;

/**
 * A product's own columns as a card shows them, without its variant choices: the product page reads
 * the full variants instead, so its query leaves the choices' lookup out.
 */
export const productColumns = {
  id: products.id,
  code: products.code,
  name: products.name,
  priceSatang: products.priceSatang,
  wholesaleFromSatang: products.wholesaleFromSatang,
  stock: products.stock,
  image: products.image,
  categoryCode: categories.code,
  categoryName: categories.name,
  brandCode: brands.code,
  brandName: brands.name,
  createdAt: products.createdAt,
  reviewCount: products.reviewCount,
  reviewRatingSum: products.reviewRatingSum,
};

/** Columns of a product card; rows leave the repo as plain ProductSummary objects. */
export const summaryColumns = { ...productColumns, variantChoices: cardChoices };

type SummaryRow = Omit<ProductSummary, 'createdAt' | 'variantChoices'> & { createdAt: Date; variantChoices?: VariantChoices | string | null };

/** Both drivers parse json; a string is read the same way should one not. */
function parsedJson<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** Rows of `summaryQuery` as cards (their variant choices come with the row: docs/decisions/232). */
export function summariesOf(rows: SummaryRow[]): ProductSummary[] {
  return rows.map(toSummary);
}

export function toSummary(row: SummaryRow): ProductSummary {
  const { variantChoices, ...rest } = row;
  const choices = variantChoices ? parsedJson(variantChoices) : null;
  return { ...rest, createdAt: row.createdAt.toISOString(), ...(choices ? { variantChoices: choices } : {}) };
}

export function summaryQuery(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(summaryColumns)
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .leftJoin(brands, eq(brands.id, products.brandId))
    .where(and(eq(products.active, true), where));
}

export async function newArrivals(db: DbOrTx, limit: number): Promise<ProductSummary[]> {
  const rows = await summaryQuery(db, undefined).orderBy(desc(products.createdAt), desc(products.id)).limit(limit);
  return summariesOf(rows);
}

/**
 * Random recommended products. Uses TABLESAMPLE-free random offset on the recommended subset so it
 * stays cheap with 100,000 products.
 */
export async function randomRecommended(db: DbOrTx, limit: number): Promise<ProductSummary[]> {
  const rows = await summaryQuery(db, and(eq(products.recommended, true), sql`${products.stock} > 0`))
    .orderBy(sql`random()`)
    .limit(limit);
  return summariesOf(rows);
}

/** Product filters shared by listings, search and counts. */
export interface ProductFilter {
  categoryId?: number | null;
  brandIds?: number[] | null;
  minSatang?: number | null;
  maxSatang?: number | null;
  /** A promotion's scope: products in these categories or these products. */
  scope?: { categoryIds: number[]; productIds: number[] } | null;
  /** Chosen option values: an active variant of the product has one of each option's (docs/decisions/217). */
  options?: OptionChoice[] | null;
}

export function filterConditions(filter: ProductFilter): SQL | undefined {
  const parts: SQL[] = [eq(products.active, true)];
  if (filter.categoryId) parts.push(eq(products.categoryId, filter.categoryId));
  if (filter.brandIds && filter.brandIds.length > 0) parts.push(inArray(products.brandId, filter.brandIds));
  if (filter.minSatang !== null && filter.minSatang !== undefined) parts.push(gte(products.priceSatang, filter.minSatang));
  if (filter.maxSatang !== null && filter.maxSatang !== undefined) parts.push(lte(products.priceSatang, filter.maxSatang));
  if (filter.scope) {
    const inScope = [
      filter.scope.categoryIds.length > 0 ? inArray(products.categoryId, filter.scope.categoryIds) : undefined,
      filter.scope.productIds.length > 0 ? inArray(products.id, filter.scope.productIds) : undefined,
    ].filter((part): part is SQL => part !== undefined);
    if (inScope.length > 0) parts.push(or(...inScope) as SQL);
  }
  if (filter.options && filter.options.length > 0) parts.push(...optionConditions(filter.options, { candidates: true }));
  return and(...parts);
}

/**
 * Every listing and search page reads its cards by id: the query is built once per database (a
 * prepared query with the ids as one array parameter) rather than from its builder on every page
 * (docs/decisions/150).
 *
 * A card as one JSON object with ProductSummary's keys (createdAt as `toISOString()` writes it), but
 * with the category's and brand's ids where the card shows their codes and names: those come from
 * `cardNames`, kept in memory, so the read touches product rows only (docs/decisions/160).
 * A page of cards comes back as one aggregated value, not 24 rows of twelve columns: on the embedded
 * database each column of each row is a separate read and copy in its protocol parser, which was a
 * tenth of a listing page's time (docs/decisions/153).
 */
const cardObject = sql`json_build_object(
  'id', ${products.id}, 'code', ${products.code}, 'name', ${products.name}, 'priceSatang', ${products.priceSatang},
  'wholesaleFromSatang', ${products.wholesaleFromSatang}, 'stock', ${products.stock}, 'image', ${products.image},
  'categoryId', ${products.categoryId}, 'brandId', ${products.brandId},
  'reviewCount', ${products.reviewCount}, 'reviewRatingSum', ${products.reviewRatingSum},
  'createdAt', to_char(${products.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'variantChoices', ${cardChoices})`;

type CardRow = Omit<ProductSummary, 'categoryCode' | 'categoryName' | 'brandCode' | 'brandName'> & { categoryId: number; brandId: number | null };

const cardsByIdsQuery = perDatabase((db: DbOrTx) =>
  db
    // As text: parsed once on this thread, rather than parsed on the embedded database's thread and then
    // copied across as an object graph (docs/decisions/232).
    .select({ cards: sql<CardRow[] | string>`coalesce(json_agg(${cardObject}), '[]'::json)::text` })
    .from(products)
    .where(and(eq(products.active, true), sql`${products.id} = any(${sql.placeholder('ids')}::int[])`))
    .prepare('product_cards_by_ids'),
);

/** Card rows for the given ids, in the order of the ids. */
export async function summariesByIds(db: DbOrTx, ids: readonly number[]): Promise<ProductSummary[]> {
  if (ids.length === 0) return [];
  const [row] = await cardsByIdsQuery(db).execute({ ids: [...ids] });
  const rows = row ? parsedJson(row.cards) : [];
  const names = await cardNames(
    rows.map((card) => card.categoryId),
    rows.flatMap((card) => (card.brandId === null ? [] : [card.brandId])),
  );
  const byId = new Map<number, ProductSummary>();
  for (const card of rows) {
    const category = names.categories.get(card.categoryId);
    // A category deleted since the row was read: the join this replaces left such a product out too.
    if (!category) continue;
    const brand = card.brandId === null ? undefined : names.brands.get(card.brandId);
    byId.set(card.id, {
      id: card.id,
      code: card.code,
      name: card.name,
      priceSatang: card.priceSatang,
      wholesaleFromSatang: card.wholesaleFromSatang,
      stock: card.stock,
      image: card.image,
      categoryCode: category.code,
      categoryName: category.name,
      brandCode: brand?.code ?? null,
      brandName: brand?.name ?? null,
      createdAt: card.createdAt,
      reviewCount: card.reviewCount ?? 0,
      reviewRatingSum: card.reviewRatingSum ?? 0,
      ...(card.variantChoices ? { variantChoices: card.variantChoices } : {}),
    });
  }
  return ids.map((id) => byId.get(id)).filter((card): card is ProductSummary => card !== undefined);
}
