/**
 * Issue 29 item 6 (docs/decisions/180): a listing's brand filter lists the brands present in its
 * category or search, each with its count, and the price range there; choosing a listed brand never
 * gives an empty page. On PGlite and on PostgreSQL alike.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/server/db/client';
import { clearProductQueryCache, findProducts } from '../../src/server/catalog/catalog.service';
import { listingFacets } from '../../src/server/catalog/facets.service';
import { loadListing } from '../../src/server/catalog/listing.service';
import { emptyQuery, type ListingQuery } from '../../src/server/catalog/listing-query';

beforeAll(() => {
  clearProductQueryCache();
});

const noCache = { enabled: false, set: () => {}, invalidate: async () => {} };

async function facetsOf(query: Partial<ListingQuery>) {
  const result = await findProducts({ ...emptyQuery, ...query });
  return { result, facets: await listingFacets(result.filter, query.keyword ? { match: result.match, items: result.items } : null) };
}

/** Brand code → active products in the category, straight from the table. */
async function brandCounts(categoryCode: string): Promise<Map<string, number>> {
  const db = await database();
  const rows = await db.rows<{ code: string; n: number }>(
    sql`select b.code, count(*)::int as n from products p join categories c on c.id = p.category_id join brands b on b.id = p.brand_id where p.active and c.code = ${categoryCode} group by b.code`,
  );
  return new Map(rows.map((row) => [row.code, Number(row.n)]));
}

describe('facets of a category', () => {
  const categories = ['makeup', 'perfume', 'dolls', 'stationery', 'party-favours'];
  for (const code of categories) {
    it(`${code}: only its brands, each with its count, and its price range`, async () => {
      const { facets } = await facetsOf({ category: code });
      const expected = await brandCounts(code);
      expect(expected.size).toBeGreaterThan(0);
      expect(expected.size).toBeLessThan(12);
      expect(new Map(facets.brands.map((brand) => [brand.code, brand.count]))).toEqual(expected);
      expect(facets.capped).toBe(false);
      const db = await database();
      const [range] = await db.rows<{ lo: number; hi: number }>(
        sql`select min(price_satang)::int as lo, max(price_satang)::int as hi from products p join categories c on c.id = p.category_id where p.active and c.code = ${code}`,
      );
      expect([facets.minSatang, facets.maxSatang]).toEqual([Number(range?.lo), Number(range?.hi)]);
    });
  }

  it('choosing any listed brand gives exactly its count of products, never an empty page', async () => {
    for (const code of ['makeup', 'bags', 'home']) {
      const { facets } = await facetsOf({ category: code });
      for (const brand of facets.brands) {
        const chosen = await findProducts({ ...emptyQuery, category: code, brands: [brand.code] });
        expect(chosen.total, `${code} ${brand.code}`).toBe(brand.count);
        expect(chosen.items.length).toBeGreaterThan(0);
        // Chosen brands and prices do not narrow the list: another brand can still be added.
        const again = await facetsOf({ category: code, brands: [brand.code], minSatang: 0, maxSatang: 100 });
        expect(again.facets.brands).toEqual(facets.brands);
      }
    }
  });

  it('the whole catalog lists every brand that has products', async () => {
    const { facets } = await facetsOf({});
    const db = await database();
    const [row] = await db.rows<{ n: number }>(sql`select count(distinct brand_id)::int as n from products where active and brand_id is not null`);
    expect(facets.brands).toHaveLength(Number(row?.n));
  });
});

describe('facets of a search', () => {
  it('a search lists the brands of what it found, with counts that add up', async () => {
    const { result, facets } = await facetsOf({ keyword: 'ลิปสติก', sort: 'relevance' });
    expect(result.total).toBeGreaterThan(0);
    expect(facets.capped).toBe(false);
    const sum = facets.brands.reduce((total, brand) => total + (brand.count ?? 0), 0);
    const db = await database();
    const [row] = await db.rows<{ n: number }>(sql`select count(*)::int as n from products where active and brand_id is null and search_text like '%ลิปสติก%'`);
    expect(sum + Number(row?.n)).toBe(result.total);
    for (const brand of facets.brands) {
      const chosen = await findProducts({ ...emptyQuery, keyword: 'ลิปสติก', brands: [brand.code] });
      expect(chosen.total).toBe(brand.count);
    }
    expect(facets.brands.map((brand) => brand.code).sort()).toEqual(expect.arrayContaining(['moji']));
    expect(facets.brands.every((brand) => ['moji', 'glow-lab'].includes(brand.code))).toBe(true);
  });

  it('a forgiving search (a typo) lists the brands of the products it found', async () => {
    const typo = await facetsOf({ keyword: 'ลิปติก', sort: 'relevance' });
    const right = await facetsOf({ keyword: 'ลิปสติก', sort: 'relevance' });
    expect(typo.result.total).toBe(right.result.total);
    expect(typo.facets.brands).toEqual(right.facets.brands);
    expect(typo.facets.minSatang).toBe(right.facets.minSatang);
  });

  it('a category page with a brand of another category (an old link) lists that brand to untick', async () => {
    const data = await loadListing({ url: new URL('http://shop.test/product/category/makeup?brand=minty'), response: {}, cache: noCache }, 'category', { category: 'makeup' });
    expect(data?.result.total).toBe(0);
    expect(data?.facets.brands.map((brand) => brand.code)).not.toContain('minty');
    expect(data?.facets.brands.length).toBeGreaterThan(0);
    expect(data?.query.brands).toEqual(['minty']);
  });
});
