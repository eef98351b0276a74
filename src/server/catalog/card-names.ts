import { brands, categories } from '../db/schema.ts';
import { getDb } from '../db/client.ts';
import { keptValue } from '../cache/kept-value.ts';
import { onCatalogChange } from './catalog-cache.ts';

/** A category's or brand's code and name, as a product card shows them. */
export interface CardName {
  code: string;
  name: string;
}

export interface CardNames {
  categories: ReadonlyMap<number, CardName>;
  brands: ReadonlyMap<number, CardName>;
}

/** How long the names are kept when no change is announced (the same as the brand and category lists). */
const KEEP_MS = 60_000;

/**
 * Every category's and brand's code and name by id, active or not, for the cards of listing and search
 * pages: a page of cards reads only product rows, and the two joins that named them were a fifth of
 * that read on the embedded database (docs/decisions/160). Both tables are a few dozen rows. Renaming,
 * adding or hiding one announces a catalog change, which drops these on every instance.
 */
const kept = keptValue(async (): Promise<CardNames> => {
  const db = await getDb();
  const [categoryRows, brandRows] = await Promise.all([
    db.select({ id: categories.id, code: categories.code, name: categories.name }).from(categories),
    db.select({ id: brands.id, code: brands.code, name: brands.name }).from(brands),
  ]);
  return {
    categories: new Map(categoryRows.map(({ id, code, name }) => [id, { code, name }])),
    brands: new Map(brandRows.map(({ id, code, name }) => [id, { code, name }])),
  };
}, KEEP_MS);

onCatalogChange(() => kept.drop());

/**
 * The names for these category and brand ids. An id the kept names do not know (one added on another
 * instance a moment before its announcement arrived) reads them again, once.
 */
export async function cardNames(categoryIds: Iterable<number>, brandIds: Iterable<number>): Promise<CardNames> {
  const names = await kept.get();
  const known = (ids: Iterable<number>, map: ReadonlyMap<number, CardName>) => {
    for (const id of ids) if (!map.has(id)) return false;
    return true;
  };
  if (known(categoryIds, names.categories) && known(brandIds, names.brands)) return names;
  kept.drop();
  return kept.get();
}
