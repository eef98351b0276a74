import { and, inArray, or, sql, type SQL } from 'drizzle-orm';
import { products } from '../db/schema.ts';
import { escapeLike } from '../../lib/thai-text.ts';

/**
 * What a keyword matches, as the search queries read it (docs/decisions/030 and 179). Every term must
 * match; a term matches when the search text contains one of its spellings (the term, its synonyms, the
 * words one edit away), or, in the forgiving pass, when the name without tone marks contains the term
 * without its tone marks, or the product is in a category or of a brand whose name does. Each of these
 * is answered by an index (the search-text and toneless-name trigram indexes, the category and brand
 * indexes), so a term is a BitmapOr of a few index scans, never a scan of the table.
 */
export interface TermMatch {
  texts: string[];
  toneless: string | null;
  categoryIds: number[];
  brandIds: number[];
}

export interface SearchMatch {
  /** The keyword as typed (normalised): what the similar-names pass and the page's words use. */
  key: string;
  terms: TermMatch[];
  /** Whole-keyword spellings the name tiers rank by: the keyword, its synonyms and corrections. */
  phrases: string[];
  /** The keyword without tone marks, when the forgiving pass ranks names by it too. */
  tonelessPhrase: string | null;
  /** The forgiving pass (tone-free, one edit): the page says the results are near ones. */
  forgiving: boolean;
  /** Known words one edit away from a term (`ลิปติก` → `ลิปสติก`): offered as the word meant. */
  corrections: string[];
}

/** What the id caches key on: the same match is the same query. */
export function matchCacheKey(match: SearchMatch): string {
  return JSON.stringify([match.terms, match.phrases, match.tonelessPhrase]);
}

/** The name as the toneless index holds it (drizzle/0011). */
export const tonelessName = sql`replace(translate(lower(${products.name}), '\u0E48\u0E49\u0E4A\u0E4B', ''), '\u0E4D\u0E32', '\u0E33')`;

function termCondition(term: TermMatch, byWalk: boolean): SQL {
  const parts: SQL[] = term.texts.map((text) =>
    byWalk ? sql`strpos(${products.searchText}, ${text}) > 0` : sql`${products.searchText} like ${`%${escapeLike(text)}%`}`,
  );
  if (term.toneless) parts.push(byWalk ? sql`strpos(${tonelessName}, ${term.toneless}) > 0` : sql`${tonelessName} like ${`%${escapeLike(term.toneless)}%`}`);
  if (term.categoryIds.length > 0) parts.push(inArray(products.categoryId, term.categoryIds));
  if (term.brandIds.length > 0) parts.push(inArray(products.brandId, term.brandIds));
  return parts.length === 1 ? (parts[0] as SQL) : sql`(${or(...parts)})`;
}

/** Every term matches, in the form the trigram indexes answer. */
export function matchWhere(match: SearchMatch): SQL {
  return and(...match.terms.map((term) => termCondition(term, false))) as SQL;
}

/** The same condition in a form no trigram index answers: checked on rows another index walks. */
export function matchWalk(match: SearchMatch): SQL {
  return and(...match.terms.map((term) => termCondition(term, true))) as SQL;
}

function anyOf(parts: SQL[]): SQL {
  return parts.length === 1 ? (parts[0] as SQL) : sql`(${or(...parts)})`;
}

interface NameTiers {
  exact: SQL;
  prefix: SQL;
  inName: SQL;
}

function nameTiers(match: SearchMatch): NameTiers {
  const exact = anyOf(match.phrases.map((phrase) => sql`(lower(${products.name}) = ${phrase} or lower(${products.code}) = ${phrase})`));
  const prefix = anyOf(match.phrases.map((phrase) => sql`lower(${products.name}) like ${`${escapeLike(phrase)}%`}`));
  const inName = anyOf([
    ...match.phrases.map((phrase) => sql`lower(${products.name}) like ${`%${escapeLike(phrase)}%`}`),
    ...(match.tonelessPhrase ? [sql`${tonelessName} like ${`%${escapeLike(match.tonelessPhrase)}%`}`] : []),
  ]);
  return { exact, prefix, inName };
}

/** Exact name (or code), name prefix, in the name, anything else: 0 to 3. */
export function rankOf(match: SearchMatch): SQL {
  const { exact, prefix, inName } = nameTiers(match);
  return sql`case when ${exact} then 0 when ${prefix} then 1 when ${inName} then 2 else 3 end`;
}

/**
 * The relevance tiers as disjoint conditions, so each can be read on its own, newest first. The name
 * tiers have their own indexes (lower(name), lower(code), the name trigrams, the toneless name trigrams).
 */
export function relevanceTiers(match: SearchMatch): SQL[] {
  const { exact, prefix, inName } = nameTiers(match);
  return [exact, sql`${prefix} and not ${exact}`, sql`${inName} and not ${prefix} and not ${exact}`, sql`not ${inName} and not ${exact}`];
}
