import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/server/http/errors';
import {
  decodeReservedEscapes,
  keywordFromSentPath,
  keywordWithinLimit,
  listingSearchParams,
  queryFromCommaSegment,
  queryFromSearchParams,
} from '../../src/server/catalog/listing-query';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) {
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/[\u0E00-\u0E7F]/);
      return error.code;
    }
    throw error;
  }
  return undefined;
}

describe('listing query from a page URL', () => {
  it('reads filters, several brands, baht prices, sort and page', () => {
    const query = queryFromSearchParams(new URLSearchParams('category=makeup&brand=moji&brand=glow-lab&min=99.50&max=500&sort=price_asc&page=3'));
    expect(query).toEqual({ keyword: '', category: 'makeup', brands: ['moji', 'glow-lab'], minSatang: 9950, maxSatang: 50000, options: [], sort: 'price_asc', page: 3 });
  });

  it('reads chosen option values (option=name:value), grouped by option, and writes them back for page links', () => {
    const params = new URLSearchParams();
    for (const value of ['สี:ชมพู', 'ขนาด:50 มล.', 'สี:แดง', 'สี:ชมพู', '', 'กลิ่น:a:b']) params.append('option', value);
    const query = queryFromSearchParams(params);
    expect(query.options).toEqual([
      { name: 'สี', values: ['ชมพู', 'แดง'] },
      { name: 'ขนาด', values: ['50 มล.'] },
      { name: 'กลิ่น', values: ['a:b'] },
    ]);
    expect(listingSearchParams({ ...query, page: 2 }).getAll('option')).toEqual(['สี:ชมพู', 'สี:แดง', 'ขนาด:50 มล.', 'กลิ่น:a:b']);
    expect(queryFromSearchParams(listingSearchParams(query)).options).toEqual(query.options);
  });

  it('refuses an option without a name or value, too long, or too many values', () => {
    expect(code(() => queryFromSearchParams(new URLSearchParams('option=ชมพู')))).toBe('invalid_option');
    expect(code(() => queryFromSearchParams(new URLSearchParams('option=:ชมพู')))).toBe('invalid_option');
    expect(code(() => queryFromSearchParams(new URLSearchParams('option=สี:')))).toBe('invalid_option');
    expect(code(() => queryFromSearchParams(new URLSearchParams(`option=สี:${'ก'.repeat(61)}`)))).toBe('invalid_option');
    expect(code(() => queryFromSearchParams(new URLSearchParams(`option=${'ก'.repeat(31)}:แดง`)))).toBe('invalid_option');
    const many = new URLSearchParams(Array.from({ length: 21 }, (_, index) => ['option', `สี:ค่า${index}`]));
    expect(code(() => queryFromSearchParams(many))).toBe('invalid_option');
    const twenty = new URLSearchParams(Array.from({ length: 20 }, (_, index) => ['option', `สี:ค่า${index}`]));
    expect(queryFromSearchParams(twenty).options[0]?.values).toHaveLength(20);
  });

  it('defaults: newest first, relevance when there is a keyword, page 1', () => {
    expect(queryFromSearchParams(new URLSearchParams('')).sort).toBe('newest');
    expect(queryFromSearchParams(new URLSearchParams('q=ลิป')).sort).toBe('relevance');
    expect(queryFromSearchParams(new URLSearchParams('min=&max=&page=')).page).toBe(1);
  });

  it('refuses malformed values with 400 and a permanent code', () => {
    expect(code(() => queryFromSearchParams(new URLSearchParams('page=-1')))).toBe('invalid_page');
    expect(code(() => queryFromSearchParams(new URLSearchParams('page=abc')))).toBe('invalid_page');
    expect(code(() => queryFromSearchParams(new URLSearchParams('page=99999')))).toBe('invalid_page');
    expect(code(() => queryFromSearchParams(new URLSearchParams('min=abc')))).toBe('invalid_price');
    expect(code(() => queryFromSearchParams(new URLSearchParams('max=1e5')))).toBe('invalid_price');
    expect(code(() => queryFromSearchParams(new URLSearchParams('min=10&max=5')))).toBe('invalid_price_range');
    expect(code(() => queryFromSearchParams(new URLSearchParams('sort=random')))).toBe('invalid_sort');
    expect(code(() => queryFromSearchParams(new URLSearchParams('brand=a b')))).toBe('invalid_brand');
    expect(code(() => queryFromSearchParams(new URLSearchParams(`q=${'ก'.repeat(101)}`)))).toBe('keyword_too_long');
  });

  it('normalises the keyword (NFC, zero-width characters, spaces)', () => {
    expect(queryFromSearchParams(new URLSearchParams('q=  ลิป\u200Bสติก   แดง ')).keyword).toBe('ลิปสติก แดง');
  });
});

describe('comma-separated API parameters', () => {
  it('treats empty, 0 and all as no filter', () => {
    for (const segment of ['1,0,0,all', '1,,,', 'all,all,all,0', '']) {
      const query = queryFromCommaSegment(segment, ['page', 'min', 'max', 'brand']);
      expect(query.page, segment).toBe(1);
      expect(query.minSatang, segment).toBeNull();
      expect(query.brands, segment).toEqual([]);
    }
  });

  it('splits before decoding, so an encoded comma stays in the keyword', () => {
    const query = queryFromCommaSegment(`2,${encodeURIComponent('ลิป,แดง')},100,0,moji|glow-lab`, ['page', 'keyword', 'min', 'max', 'brand']);
    expect(query).toMatchObject({ page: 2, keyword: 'ลิป,แดง', minSatang: 10000, maxSatang: null, brands: ['moji', 'glow-lab'] });
  });

  it('refuses extra parts and malformed values', () => {
    expect(code(() => queryFromCommaSegment('1,0,0,all,x', ['page', 'min', 'max', 'brand']))).toBe('invalid_parameters');
    expect(code(() => queryFromCommaSegment('-1,0,0,all', ['page', 'min', 'max', 'brand']))).toBe('invalid_page');
    expect(code(() => queryFromCommaSegment('1,9,1,all', ['page', 'min', 'max', 'brand']))).toBe('invalid_price_range');
  });
});

describe('listing URLs', () => {
  it('keep only what differs from the defaults, so filters survive paging', () => {
    const query = queryFromSearchParams(new URLSearchParams('category=gifts&brand=moji&min=10&sort=name&page=2'));
    expect(listingSearchParams(query, { includeCategory: true, page: 3 }).toString()).toBe('category=gifts&brand=moji&min=10&sort=name&page=3');
    expect(listingSearchParams(query, { page: 1 }).toString()).toBe('brand=moji&min=10&sort=name');
  });

  it('decodes the reserved escapes Astro leaves in path parameters', () => {
    expect(decodeReservedEscapes('<script>alert(1)<%2Fscript>')).toBe('<script>alert(1)</script>');
    expect(decodeReservedEscapes('A%26B%2C%23')).toBe('A&B,#');
  });
});

describe('search keywords from the address', () => {
  it('reads the keyword as the browser sent it, decoded once', () => {
    expect(keywordFromSentPath('http://shop.test/search/%E0%B8%A5%E0%B8%94%2050%25')).toBe('ลด 50%');
    expect(keywordFromSentPath('http://shop.test/search/50%2541')).toBe('50%41');
    expect(keywordFromSentPath('http://shop.test/search/a%2Fb%3F%23')).toBe('a/b?#');
    expect(keywordFromSentPath('http://shop.test/product/x')).toBeNull();
    expect(keywordFromSentPath('http://shop.test/search/%FF')).toBeNull();
  });

  it('cuts a long keyword to the search limit without splitting a character', () => {
    expect(keywordWithinLimit('ก'.repeat(200))).toBe('ก'.repeat(100));
    expect(keywordWithinLimit(`${'ก'.repeat(99)}🎁`)).toBe('ก'.repeat(99));
    expect(keywordWithinLimit('  ลด 50%  ')).toBe('ลด 50%');
  });
});
