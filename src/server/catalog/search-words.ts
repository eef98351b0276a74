import { eq } from 'drizzle-orm';
import { distance } from 'fastest-levenshtein';
import { getDb } from '../db/client.ts';
import { brands, categories, searchSynonyms } from '../db/schema.ts';
import { hasThai, searchKey, withoutTones } from '../../lib/thai-text.ts';
import { keptValue } from '../cache/kept-value.ts';
import { onCatalogChange } from './catalog-cache.ts';
import { keywordTerms } from './search.repo.ts';
import type { SearchMatch, TermMatch } from './search-match.ts';

/**
 * The words search knows besides the products' own text (docs/decisions/179): the synonym pairs staff
 * keep at /admin/search, and the names of the categories and brands. A keyword is expanded to a few
 * spellings from them, never matched against every product name in memory: the spellings go to the
 * trigram indexes.
 */
interface Lexicon {
  /** Each word's synonyms, both ways. */
  synonyms: Map<string, string[]>;
  /** Words a typo may be one edit away from: synonyms, category and brand names and their words. */
  words: string[];
  categories: { id: number; toneless: string }[];
  brands: { id: number; toneless: string }[];
}

/** A term shorter than this is not corrected: one edit of a three-letter word is another word. */
const MIN_CORRECTED_LENGTH = 4;
/** Spellings per term: each is one more index scan in the term's BitmapOr. */
const MAX_SPELLINGS = 8;
const KEEP_MS = 60_000;

const keptLexicon = keptValue(loadLexicon, KEEP_MS);
// A synonym change announces the `search` tag, a category or brand change the catalog: both run this.
onCatalogChange(() => keptLexicon.drop());

async function loadLexicon(): Promise<Lexicon> {
  const db = await getDb();
  const [pairs, categoryRows, brandRows] = await Promise.all([
    db.select({ term: searchSynonyms.term, synonym: searchSynonyms.synonym }).from(searchSynonyms),
    db.select({ id: categories.id, name: categories.name, nameEn: categories.nameEn, description: categories.description }).from(categories).where(eq(categories.active, true)),
    db.select({ id: brands.id, name: brands.name, nameTh: brands.nameTh }).from(brands).where(eq(brands.active, true)),
  ]);
  const synonyms = new Map<string, string[]>();
  const link = (from: string, to: string) => {
    const list = synonyms.get(from) ?? [];
    if (!list.includes(to)) list.push(to);
    synonyms.set(from, list);
  };
  for (const pair of pairs) {
    link(pair.term, pair.synonym);
    link(pair.synonym, pair.term);
  }
  const words = new Set<string>(synonyms.keys());
  const addWords = (text: string) => {
    const key = searchKey(text);
    if (key) words.add(key);
    for (const word of key.split(' ')) if ([...word].length >= MIN_CORRECTED_LENGTH) words.add(word);
  };
  for (const row of categoryRows) [row.name, row.nameEn, row.description].forEach(addWords);
  for (const row of brandRows) [row.name, row.nameTh].forEach(addWords);
  return {
    synonyms,
    words: [...words],
    categories: categoryRows.map((row) => ({ id: row.id, toneless: withoutTones(searchKey(`${row.name} ${row.nameEn}`)) })),
    brands: brandRows.map((row) => ({ id: row.id, toneless: withoutTones(searchKey(`${row.name} ${row.nameTh}`)) })),
  };
}

/** Drops the kept words (tests that change synonyms without the bus, and the admin after a change). */
export function dropSearchWords(): void {
  keptLexicon.drop();
}

/**
 * Spellings without the redundant ones: a spelling that contains another finds nothing more than it
 * (`ลิปสติกเนื้อแมตต์` beside `ลิปสติก`), and each costs an index scan.
 */
function spellings(words: Iterable<string>): string[] {
  const unique = [...new Set([...words].filter((word) => word.length > 0))];
  return unique.filter((word) => !unique.some((other) => other !== word && word.includes(other))).slice(0, MAX_SPELLINGS);
}

function withSynonyms(lexicon: Lexicon, words: readonly string[]): string[] {
  return words.flatMap((word) => [word, ...(lexicon.synonyms.get(word) ?? [])]);
}

/** Known words one edit away from the term (or from it without tone marks): `ลิปติก` → `ลิปสติก`. */
export function corrections(words: readonly string[], term: string): string[] {
  const length = [...term].length;
  if (length < MIN_CORRECTED_LENGTH) return [];
  const bare = withoutTones(term);
  return words.filter((word) => {
    if (word === term || Math.abs([...word].length - length) > 1) return false;
    return distance(word, term) <= 1 || distance(withoutTones(word), bare) <= 1;
  });
}

/** The keyword's terms; a keyword that is itself a synonym (`teddy bear`) is one term. */
function termsOf(lexicon: Lexicon, key: string): string[] {
  const terms = keywordTerms(key);
  return terms.length > 1 && lexicon.synonyms.has(key) ? [key] : terms;
}

function phrasesOf(key: string, terms: TermMatch[]): string[] {
  return terms.length === 1 ? (terms[0] as TermMatch).texts : [key];
}

/** The first pass: the keyword and its synonyms, as typed (marks in stored order). */
export async function exactMatch(key: string): Promise<SearchMatch> {
  const lexicon = await keptLexicon.get();
  const terms = termsOf(lexicon, key).map((term): TermMatch => ({ texts: spellings(withSynonyms(lexicon, [term])), toneless: null, categoryIds: [], brandIds: [] }));
  return { key, terms, phrases: phrasesOf(key, terms), tonelessPhrase: null, forgiving: false, corrections: [] };
}

/**
 * The forgiving pass, for when the first finds little: each term also matches without tone marks (names,
 * categories, brands) and as the known words one edit away, with their synonyms. Null when it adds
 * nothing to the first pass (a Latin keyword no known word is near).
 */
export async function forgivingMatch(key: string): Promise<SearchMatch | null> {
  const lexicon = await keptLexicon.get();
  let adds = false;
  const corrected = new Set<string>();
  const terms = termsOf(lexicon, key).map((term): TermMatch => {
    const near = corrections(lexicon.words, term);
    near.forEach((word) => corrected.add(word));
    const thai = hasThai(term);
    const bare = withoutTones(term);
    const categoryIds = thai ? lexicon.categories.filter((row) => row.toneless.includes(bare)).map((row) => row.id) : [];
    const brandIds = thai ? lexicon.brands.filter((row) => row.toneless.includes(bare)).map((row) => row.id) : [];
    if (near.length > 0 || thai) adds = true;
    return { texts: spellings(withSynonyms(lexicon, [term, ...near])), toneless: thai ? bare : null, categoryIds, brandIds };
  });
  if (!adds) return null;
  const phrases = terms.length === 1 ? (terms[0] as TermMatch).texts : [key];
  return { key, terms, phrases, tonelessPhrase: hasThai(key) ? withoutTones(key) : null, forgiving: true, corrections: [...corrected].slice(0, 3) };
}
