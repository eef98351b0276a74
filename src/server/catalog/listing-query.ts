import { normalizeText } from '../../lib/thai-text.ts';
import { bahtToSatang } from '../../lib/money.ts';
import { badRequest } from '../http/errors.ts';
import type { OptionChoice } from './option-facets.ts';

/**
 * What a listing asks for (filters, sort, page), parsed from a page's query string or from the
 * comma-separated API paths of docs/design.md section 6. Malformed values are a 400 with a Thai message,
 * never a 500 and never silently ignored.
 */
export const PAGE_SIZE = 24;
export const MAX_PAGE = 10_000;
export const MAX_KEYWORD_LENGTH = 100;
export const MAX_BRANDS = 20;
/** Option values chosen at once (all options together), and the longest option name and value. */
export const MAX_OPTION_VALUES = 20;
export const MAX_OPTION_NAME_LENGTH = 30;
export const MAX_OPTION_VALUE_LENGTH = 60;
/**
 * Counting stops here: "มากกว่า 1,000 รายการ" is all a shopper needs, and counting 100,000 matches
 * costs a scan of every one of them. See docs/decisions/120-catalog-speed-at-scale.md.
 */
export const COUNT_BOUND = 1000;
/**
 * How far into a listing or search one may page (rows skipped). Deeper pages are answered with a
 * message and no product query, so no URL (a crawler's page 3,000) can make the database skip rows.
 */
export const RESULT_WINDOW = 1000;

/** The last page a listing links to: the results, or the window, whichever ends first. */
export function lastPage(total: number, pageSize: number): number {
  return Math.max(1, Math.min(Math.ceil(total / pageSize), Math.ceil(RESULT_WINDOW / pageSize)));
}

export const LISTING_SORTS = ['newest', 'price_asc', 'price_desc', 'name'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number] | 'relevance';

export interface ListingQuery {
  keyword: string;
  category: string | null;
  brands: string[];
  minSatang: number | null;
  maxSatang: number | null;
  /** Chosen option values (`option=สี:ชมพู`), by option name in the order first given (docs/decisions/217). */
  options: OptionChoice[];
  sort: ListingSort;
  page: number;
}

export const emptyQuery: ListingQuery = {
  keyword: '',
  category: null,
  brands: [],
  minSatang: null,
  maxSatang: null,
  options: [],
  sort: 'newest',
  page: 1,
};

const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** `''`, `0` and `all` mean "no filter" in the comma paths. */
function isBlank(raw: string | null | undefined): boolean {
  if (raw === null || raw === undefined) return true;
  const value = raw.trim().toLowerCase();
  return value === '' || value === '0' || value === 'all';
}

export function parsePage(raw: string | null | undefined): number {
  if (isBlank(raw)) return 1;
  const value = (raw as string).trim();
  if (!/^\d{1,6}$/.test(value)) throw badRequest('invalid_page', 'เลขหน้าต้องเป็นจำนวนเต็มบวก');
  const page = Number(value);
  if (page > MAX_PAGE) throw badRequest('invalid_page', 'เลขหน้ามากเกินไป');
  return page;
}

/** Baht, up to two decimals, as satang; blank is no limit. */
export function parsePrice(raw: string | null | undefined, field: 'min' | 'max'): number | null {
  if (isBlank(raw)) return null;
  const value = (raw as string).trim();
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(value)) {
    throw badRequest('invalid_price', field === 'min' ? 'ราคาต่ำสุดต้องเป็นตัวเลขที่ไม่ติดลบ' : 'ราคาสูงสุดต้องเป็นตัวเลขที่ไม่ติดลบ', {
      [field]: 'ต้องเป็นตัวเลข',
    });
  }
  return bahtToSatang(Number(value));
}

export function parseCode(raw: string | null | undefined, kind: 'category' | 'brand'): string | null {
  if (isBlank(raw)) return null;
  const value = (raw as string).trim();
  if (!CODE.test(value)) {
    throw badRequest(kind === 'brand' ? 'invalid_brand' : 'invalid_category', kind === 'brand' ? 'รหัสแบรนด์ไม่ถูกต้อง' : 'รหัสประเภทสินค้าไม่ถูกต้อง');
  }
  return value.toLowerCase();
}

/** Several brands: repeated `brand=` values, or `a|b` inside one value (the comma paths). */
export function parseBrands(values: readonly string[]): string[] {
  const codes = new Set<string>();
  for (const value of values) {
    for (const part of value.split('|')) {
      const code = parseCode(part, 'brand');
      if (code) codes.add(code);
    }
  }
  if (codes.size > MAX_BRANDS) throw badRequest('invalid_brand', `เลือกแบรนด์ได้ไม่เกิน ${MAX_BRANDS} แบรนด์`);
  return [...codes];
}

/**
 * Chosen option values: repeated `option=name:value` (`option=สี:ชมพู&option=สี:แดง&option=ขนาด:M`),
 * split at the first colon. Blank values are skipped; a value without a name, or one too long, or more
 * than MAX_OPTION_VALUES of them, is a 400. An option or value the shop does not have is not an error:
 * it simply matches no product.
 */
export function parseOptions(values: readonly string[]): OptionChoice[] {
  const byName = new Map<string, Set<string>>();
  let count = 0;
  for (const raw of values) {
    if (raw.trim() === '') continue;
    const colon = raw.indexOf(':');
    const name = colon > 0 ? normalizeText(raw.slice(0, colon)) : '';
    const value = colon > 0 ? normalizeText(raw.slice(colon + 1)) : '';
    if (name === '' || value === '' || name.length > MAX_OPTION_NAME_LENGTH || value.length > MAX_OPTION_VALUE_LENGTH) {
      throw badRequest('invalid_option', 'ตัวเลือกสินค้าที่กรองไม่ถูกต้อง');
    }
    const chosen = byName.get(name) ?? new Set<string>();
    if (!chosen.has(value)) count += 1;
    if (count > MAX_OPTION_VALUES) throw badRequest('invalid_option', `เลือกตัวเลือกสินค้าได้ไม่เกิน ${MAX_OPTION_VALUES} รายการ`);
    byName.set(name, chosen.add(value));
  }
  return [...byName].map(([name, chosen]) => ({ name, values: [...chosen] }));
}

/**
 * A keyword typed into the search box, cut to the length a search allows (the box's `maxlength` does
 * the same as the shopper types or pastes), never through the middle of a character.
 */
export function keywordWithinLimit(raw: string): string {
  let keyword = '';
  for (const character of normalizeText(raw)) {
    if (keyword.length + character.length > MAX_KEYWORD_LENGTH) break;
    keyword += character;
  }
  return keyword;
}

export function parseKeyword(raw: string | null | undefined): string {
  if (raw === null || raw === undefined) return '';
  const keyword = normalizeText(raw);
  if (keyword.length > MAX_KEYWORD_LENGTH) {
    throw badRequest('keyword_too_long', `คำค้นหายาวเกิน ${MAX_KEYWORD_LENGTH} ตัวอักษร`);
  }
  return keyword;
}

export function parseSort(raw: string | null | undefined, fallback: ListingSort): ListingSort {
  if (raw === null || raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim();
  if (value === 'relevance' || (LISTING_SORTS as readonly string[]).includes(value)) return value as ListingSort;
  throw badRequest('invalid_sort', 'รูปแบบการเรียงลำดับไม่ถูกต้อง');
}

function checkRange(query: ListingQuery): ListingQuery {
  if (query.minSatang !== null && query.maxSatang !== null && query.minSatang > query.maxSatang) {
    throw badRequest('invalid_price_range', 'ราคาต่ำสุดต้องไม่มากกว่าราคาสูงสุด', { min: 'มากกว่าราคาสูงสุด' });
  }
  return query;
}

/** A page's query string (`?q=&category=&brand=&brand=&min=&max=&option=สี:ชมพู&sort=&page=`). */
export function queryFromSearchParams(
  params: URLSearchParams,
  overrides: { keyword?: string; category?: string | null; page?: string | undefined } = {},
): ListingQuery {
  const keyword = parseKeyword(overrides.keyword ?? params.get('q'));
  return checkRange({
    keyword,
    category: overrides.category !== undefined ? parseCode(overrides.category, 'category') : parseCode(params.get('category'), 'category'),
    brands: parseBrands(params.getAll('brand')),
    minSatang: parsePrice(params.get('min'), 'min'),
    maxSatang: parsePrice(params.get('max'), 'max'),
    options: parseOptions(params.getAll('option')),
    sort: parseSort(params.get('sort'), keyword ? 'relevance' : 'newest'),
    page: parsePage(overrides.page ?? params.get('page')),
  });
}

export type CommaField = 'page' | 'category' | 'keyword' | 'min' | 'max' | 'brand';

/**
 * `{page},{min},{max},{brand}` and friends. The segment is split on raw commas before decoding, so an
 * encoded comma (%2C) inside a keyword stays part of the keyword.
 */
export function queryFromCommaSegment(rawSegment: string, fields: readonly CommaField[], search?: URLSearchParams): ListingQuery {
  const parts = rawSegment.split(',');
  if (parts.length > fields.length) throw badRequest('invalid_parameters', 'พารามิเตอร์ไม่ถูกต้อง');
  const values: Partial<Record<CommaField, string>> = {};
  fields.forEach((field, index) => {
    const part = parts[index];
    if (part === undefined) return;
    try {
      values[field] = decodeURIComponent(part);
    } catch {
      // The server may already have decoded `%25` to a bare `%`: take the text as it is.
      values[field] = part;
    }
  });
  const keyword = isBlank(values.keyword) ? '' : parseKeyword(values.keyword);
  return checkRange({
    keyword,
    category: parseCode(values.category, 'category'),
    brands: values.brand === undefined ? [] : parseBrands([values.brand]),
    minSatang: parsePrice(values.min, 'min'),
    maxSatang: parsePrice(values.max, 'max'),
    options: [],
    sort: parseSort(search?.get('sort'), keyword ? 'relevance' : 'newest'),
    page: parsePage(values.page),
  });
}

/**
 * The query string that reproduces a listing (for paging links and sort forms): only what differs
 * from the defaults, so URLs stay short and the cache sees one key per listing.
 */
export function listingSearchParams(query: ListingQuery, options: { includeKeyword?: boolean; includeCategory?: boolean; page?: number } = {}): URLSearchParams {
  const params = new URLSearchParams();
  if (options.includeKeyword && query.keyword) params.set('q', query.keyword);
  if (options.includeCategory && query.category) params.set('category', query.category);
  for (const brand of query.brands) params.append('brand', brand);
  if (query.minSatang !== null) params.set('min', String(query.minSatang / 100));
  if (query.maxSatang !== null) params.set('max', String(query.maxSatang / 100));
  for (const option of query.options) for (const value of option.values) params.append('option', `${option.name}:${value}`);
  const defaultSort = query.keyword ? 'relevance' : 'newest';
  if (query.sort !== defaultSort) params.set('sort', query.sort);
  const page = options.page ?? query.page;
  if (page > 1) params.set('page', String(page));
  return params;
}

/**
 * The keyword of `/search/{keyword}` as the browser sent it, decoded once. Astro decodes a path again and
 * again until nothing changes, so from its parameter a typed `%` (sent as `%25`) comes back bare or
 * eats what follows (`50%41` became `50A`); the address the request arrived with has the exact words.
 * Null when the path is not a search path or does not decode (then the caller keeps Astro's reading).
 */
export function keywordFromSentPath(sentUrl: string): string | null {
  const pathname = new URL(sentUrl).pathname;
  const prefix = '/search/';
  if (!pathname.startsWith(prefix)) return null;
  try {
    return decodeURIComponent(pathname.slice(prefix.length).replace(/\/$/, ''));
  } catch {
    return null;
  }
}

/**
 * Astro decodes path parameters with decodeURI, which leaves the escapes of reserved characters
 * (`/ ? # & = + , ; : @ $`) alone; a keyword such as `</script>` or `A&B` needs them decoded too.
 */
export function decodeReservedEscapes(value: string): string {
  return value.replace(/%(3B|2F|3F|3A|40|26|3D|2B|24|2C|23)/gi, (escape) => decodeURIComponent(escape));
}
