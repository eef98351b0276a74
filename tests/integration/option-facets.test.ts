/**
 * Issue 30 (docs/decisions/217): a listing's facets list the options its products are sold in (สี by
 * shade family, ขนาด by value) with how many products have each, and `option=สี:ส้ม` narrows the listing
 * to the products with an active variant of it, alone or with brands and prices. On PGlite and on
 * PostgreSQL alike.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/server/db/client';
import { clearProductQueryCache, findProducts } from '../../src/server/catalog/catalog.service';
import { listingFacets } from '../../src/server/catalog/facets.service';
import { loadListing } from '../../src/server/catalog/listing.service';
import { emptyQuery, listingSearchParams, queryFromSearchParams, type ListingQuery } from '../../src/server/catalog/listing-query';
import { facetValue, SHADE_FAMILIES, shadeFamily, type OptionChoice } from '../../src/server/catalog/option-facets';

beforeAll(() => {
  clearProductQueryCache();
});

const noCache = { enabled: false, set: () => {}, invalidate: async () => {} };

async function facetsOf(query: Partial<ListingQuery>) {
  const result = await findProducts({ ...emptyQuery, ...query });
  return { result, facets: await listingFacets(result.filter, query.keyword ? { match: result.match, items: result.items } : null) };
}

interface VariantValues {
  productId: number;
  brand: string | null;
  price: number;
  values: Map<string, Set<string>>;
}

/** Each active product of a category with its active variants' values by option, straight from the tables. */
async function productsWithOptions(categoryCode: string): Promise<VariantValues[]> {
  const db = await database();
  const rows = await db.rows<{ id: number; brand: string | null; price: number; names: string[]; o1: string | null; o2: string | null; o3: string | null }>(
    sql`select p.id, b.code as brand, p.price_satang as price, p.option_names as names, v.option1 as o1, v.option2 as o2, v.option3 as o3
      from products p join categories c on c.id = p.category_id left join brands b on b.id = p.brand_id
      join product_variants v on v.product_id = p.id and v.active
      where p.active and c.code = ${categoryCode}`,
  );
  const byId = new Map<number, VariantValues>();
  for (const row of rows) {
    const entry = byId.get(Number(row.id)) ?? { productId: Number(row.id), brand: row.brand, price: Number(row.price), values: new Map<string, Set<string>>() };
    byId.set(entry.productId, entry);
    [row.o1, row.o2, row.o3].forEach((value, index) => {
      const name = row.names[index];
      if (!name || !value) return;
      entry.values.set(name, (entry.values.get(name) ?? new Set()).add(facetValue(name, value)));
    });
  }
  return [...byId.values()];
}

const idsOf = (items: readonly { id: number }[]) => items.map((item) => item.id).sort((a, b) => a - b);

describe('option facets', () => {
  it('shade families group shade names by their colour word, else by the name', () => {
    expect(shadeFamily('ชมพูนู้ด')).toBe('ชมพู');
    expect(shadeFamily('แดงอิฐ')).toBe('แดง');
    expect(shadeFamily('ส้มพีช')).toBe('ส้ม');
    expect(shadeFamily('น้ำเงินเข้ม')).toBe('น้ำเงิน');
    expect(shadeFamily('เบอร์รี่')).toBe('เบอร์รี่');
    expect(facetValue('ขนาด', 'แดง')).toBe('แดง');
  });

  it('the SQL function the option keys index is built on groups shades as shadeFamily does', async () => {
    const db = await database();
    const names = [...SHADE_FAMILIES.map((word) => `${word}อ่อน`), 'ชมพูนู้ด', 'ทองชมพู', 'น้ำเงินเข้ม', 'เงินเงา', 'เบอร์รี่', 'โรสโกลด์', 'M', ''];
    for (const name of names) {
      const [row] = await db.rows<{ family: string }>(sql`select shop_shade_family(${name}::text) as family`);
      expect(row?.family, name).toBe(shadeFamily(name));
    }
  });

  it('makeup lists สี by shade family, each with the number of its products that have it', async () => {
    const { facets } = await facetsOf({ category: 'makeup' });
    const expected = new Map<string, number>();
    for (const product of await productsWithOptions('makeup')) {
      for (const family of product.values.get('สี') ?? []) expected.set(family, (expected.get(family) ?? 0) + 1);
    }
    expect(expected.size).toBeGreaterThan(1);
    const colour = facets.options.find((option) => option.name === 'สี');
    expect(colour).toBeDefined();
    expect(new Map(colour!.values.map((entry) => [entry.value, entry.count]))).toEqual(expected);
    expect(colour!.values.map((entry) => entry.value)).toEqual(expect.arrayContaining(['ชมพู', 'แดง', 'ส้ม']));
    expect(facets.optionsCapped).toBe(false);
    // Makeup sells no sizes: no ขนาด fieldset.
    expect(facets.options.map((option) => option.name)).toEqual(['สี']);
  });

  it('an option only where the category uses it: home has สี and ขนาด, a category without options none', async () => {
    const home = await facetsOf({ category: 'home' });
    expect(home.facets.options.map((option) => option.name).sort()).toEqual(['ขนาด', 'สี']);
    const size = home.facets.options.find((option) => option.name === 'ขนาด');
    expect(size?.values.map((entry) => entry.value).sort()).toEqual(['ใหญ่', 'เล็ก'].sort());
    const db = await database();
    const [bare] = await db.rows<{ code: string }>(
      sql`select c.code from categories c where c.active and exists (select 1 from products p where p.category_id = c.id and p.active)
        and not exists (select 1 from products p where p.category_id = c.id and p.active and p.option_names <> '{}') order by c.code limit 1`,
    );
    expect(bare).toBeDefined();
    expect((await facetsOf({ category: bare!.code })).facets.options).toEqual([]);
  });

  it('choosing a shade family lists exactly its products, and its count', async () => {
    const all = await findProducts({ ...emptyQuery, category: 'makeup' });
    const { facets } = await facetsOf({ category: 'makeup' });
    const known = await productsWithOptions('makeup');
    for (const entry of facets.options.find((option) => option.name === 'สี')!.values) {
      const chosen = await findProducts({ ...emptyQuery, category: 'makeup', options: [{ name: 'สี', values: [entry.value] }] });
      expect(chosen.total, entry.value).toBe(entry.count);
      expect(chosen.total).toBeLessThan(all.total);
      const expected = known.filter((product) => product.values.get('สี')?.has(entry.value)).map((product) => product.productId);
      expect(idsOf(chosen.items)).toEqual(expected.sort((a, b) => a - b));
    }
  });

  it('several values of one option are either; two options are both; sorts and pages agree', async () => {
    const known = await productsWithOptions('home');
    const either = await findProducts({ ...emptyQuery, category: 'home', options: [{ name: 'สี', values: ['ขาว', 'ดำ'] }] });
    expect(idsOf(either.items)).toEqual(known.filter((p) => p.values.get('สี')?.has('ขาว') || p.values.get('สี')?.has('ดำ')).map((p) => p.productId).sort((a, b) => a - b));
    expect(either.total).toBeGreaterThan(0);
    const both: OptionChoice[] = [
      { name: 'สี', values: ['ขาว'] },
      { name: 'ขนาด', values: ['ใหญ่'] },
    ];
    const none = await findProducts({ ...emptyQuery, category: 'home', options: both });
    const expected = known.filter((p) => p.values.get('สี')?.has('ขาว') && p.values.get('ขนาด')?.has('ใหญ่'));
    expect(none.total).toBe(expected.length);
    for (const sort of ['price_asc', 'name'] as const) {
      const sorted = await findProducts({ ...emptyQuery, category: 'home', sort, options: [{ name: 'สี', values: ['ขาว', 'ดำ'] }] });
      expect(idsOf(sorted.items)).toEqual(idsOf(either.items));
    }
  });

  it('pages walked along the sort agree with the whole list sorted', async () => {
    const options: OptionChoice[] = [{ name: 'สี', values: ['ส้ม'] }];
    for (const sort of ['newest', 'price_desc', 'name'] as const) {
      const whole = await findProducts({ ...emptyQuery, category: 'makeup', sort, options });
      expect(whole.total).toBeGreaterThan(2);
      // Pages of two: the walk along the sort's index fills them (a page of 24 is not filled and is sorted instead).
      const first = await findProducts({ ...emptyQuery, category: 'makeup', sort, options, page: 1 }, 2);
      const second = await findProducts({ ...emptyQuery, category: 'makeup', sort, options, page: 2 }, 2);
      expect([...first.items, ...second.items].map((item) => item.id), sort).toEqual(whole.items.slice(0, 4).map((item) => item.id));
      expect(first.total).toBe(whole.total);
    }
  });

  it('with a brand and a price range, only products meeting all of them', async () => {
    const known = (await productsWithOptions('makeup')).filter((product) => product.values.get('สี')?.has('ส้ม'));
    expect(known.length).toBeGreaterThan(1);
    const brand = known.find((product) => product.brand !== null)!.brand!;
    const withBrand = await findProducts({ ...emptyQuery, category: 'makeup', brands: [brand], options: [{ name: 'สี', values: ['ส้ม'] }] });
    expect(idsOf(withBrand.items)).toEqual(known.filter((p) => p.brand === brand).map((p) => p.productId).sort((a, b) => a - b));
    const prices = known.map((product) => product.price).sort((a, b) => a - b);
    const max = prices[0]!;
    const cheap = await findProducts({ ...emptyQuery, category: 'makeup', maxSatang: max, options: [{ name: 'สี', values: ['ส้ม'] }] });
    expect(idsOf(cheap.items)).toEqual(known.filter((p) => p.price <= max).map((p) => p.productId).sort((a, b) => a - b));
    // Chosen options, brands and prices do not narrow the facets: another value can be added.
    const again = await facetsOf({ category: 'makeup', brands: [brand], maxSatang: max, options: [{ name: 'สี', values: ['ส้ม'] }] });
    expect(again.facets.options).toEqual((await facetsOf({ category: 'makeup' })).facets.options);
  });

  it('the whole catalog and a search list options too, and the filter narrows them', async () => {
    const catalog = await facetsOf({});
    expect(catalog.facets.options.map((option) => option.name)).toEqual(expect.arrayContaining(['สี', 'ขนาด']));
    const narrowed = await findProducts({ ...emptyQuery, options: [{ name: 'สี', values: ['ส้ม'] }] });
    expect(narrowed.total).toBe(catalog.facets.options.find((option) => option.name === 'สี')!.values.find((entry) => entry.value === 'ส้ม')!.count);
    const search = await facetsOf({ keyword: 'ลิป', sort: 'relevance' });
    const colour = search.facets.options.find((option) => option.name === 'สี');
    expect(colour?.values.length).toBeGreaterThan(1);
    const found = await findProducts({ ...emptyQuery, keyword: 'ลิป', sort: 'relevance', options: [{ name: 'สี', values: ['ส้ม'] }] });
    expect(found.total).toBe(colour!.values.find((entry) => entry.value === 'ส้ม')!.count);
  });

  it('a value or option the shop does not have gives no products, not an error; an old link to a shade name still finds it', async () => {
    expect((await findProducts({ ...emptyQuery, category: 'makeup', options: [{ name: 'สี', values: ['ไม่มีสีนี้'] }] })).total).toBe(0);
    expect((await findProducts({ ...emptyQuery, category: 'makeup', options: [{ name: 'วัสดุ', values: ['ไม้'] }] })).total).toBe(0);
    const byName = await findProducts({ ...emptyQuery, category: 'makeup', options: [{ name: 'สี', values: ['ส้มพีช'] }] });
    const byFamily = await findProducts({ ...emptyQuery, category: 'makeup', options: [{ name: 'สี', values: ['ส้ม'] }] });
    expect(idsOf(byName.items)).toEqual(idsOf(byFamily.items));
  });
});

describe('option filters in the URL', () => {
  const listing = (search: string) =>
    loadListing({ url: new URL(`http://shop.test/product/category/makeup?${search}`), response: {} as { status?: number }, cache: noCache }, 'category', { category: 'makeup' });

  it('option=สี:ส้ม is read, kept by page and sort links, and listed as chosen', async () => {
    const params = new URLSearchParams([['option', 'สี:ส้ม'], ['option', 'สี:แดง'], ['sort', 'price_asc']]);
    const query = queryFromSearchParams(params);
    expect(query.options).toEqual([{ name: 'สี', values: ['ส้ม', 'แดง'] }]);
    const next = listingSearchParams({ ...query, page: 2 });
    expect(next.getAll('option')).toEqual(['สี:ส้ม', 'สี:แดง']);
    expect(next.get('sort')).toBe('price_asc');
    expect(next.get('page')).toBe('2');
    const data = await listing(params.toString());
    expect(data?.error).toBeNull();
    expect(data?.result.total).toBeGreaterThan(0);
  });

  it('a malicious parameter gives a page, or a 400 with a Thai message: never a 500, never unbounded', async () => {
    const response = { status: undefined as number | undefined };
    const sqlish = await loadListing(
      { url: new URL(`http://shop.test/product/category/makeup?option=${encodeURIComponent("สี:' or 1=1; drop table products;--")}`), response, cache: noCache },
      'category',
      { category: 'makeup' },
    );
    expect(response.status).toBeUndefined();
    expect(sqlish?.error).toBeNull();
    expect(sqlish?.result.total).toBe(0);

    const cases = [
      `option=${encodeURIComponent(`สี:${'ก'.repeat(5000)}`)}`,
      Array.from({ length: 40 }, (_, index) => `option=${encodeURIComponent(`สี:ค่า${index}`)}`).join('&'),
      `option=${encodeURIComponent('ไม่มีชื่อ')}`,
      `option=${encodeURIComponent(':ส้ม')}`,
    ];
    for (const search of cases) {
      const refused = { status: undefined as number | undefined };
      const data = await loadListing({ url: new URL(`http://shop.test/product/category/makeup?${search}`), response: refused, cache: noCache }, 'category', { category: 'makeup' });
      expect(refused.status, search.slice(0, 40)).toBe(400);
      expect(data?.error).toMatch(/ตัวเลือกสินค้า/);
    }

    // The same value many times is one value.
    const repeated = await listing(Array.from({ length: 500 }, () => `option=${encodeURIComponent('สี:ส้ม')}`).join('&'));
    expect(repeated?.error).toBeNull();
    expect(repeated?.query.options).toEqual([{ name: 'สี', values: ['ส้ม'] }]);
  });
});
