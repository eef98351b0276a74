/**
 * The catalog past COUNT_BOUND products (docs/decisions/120-catalog-speed-at-scale.md): counts stop at
 * the bound, paging stops at the result window with a reason, and the tiered relevance search (which
 * stops reading once a page is full) gives exactly the order a full ranking of every match gives.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { database, observeQueries } from '../../src/server/db/client';
import { ensureDemoProducts } from '../../src/server/db/seed';
import { clearProductQueryCache, countProducts, findProducts } from '../../src/server/catalog/catalog.service';
import { summariesByIds, summariesOf, summaryQuery } from '../../src/server/catalog/product.repo';
import { COUNT_BOUND, emptyQuery, lastPage, RESULT_WINDOW, type ListingQuery } from '../../src/server/catalog/listing-query';
import { searchKey } from '../../src/lib/thai-text';
import { invalidateCatalog } from '../../src/server/catalog/catalog-cache';

const CATALOG = 2_600;

beforeAll(async () => {
  const db = await database();
  await ensureDemoProducts(db.db, CATALOG);
  clearProductQueryCache();
}, 240_000);

const find = (query: Partial<ListingQuery>) => findProducts({ ...emptyQuery, ...query });

/** The reference: every match ranked in one query, as search worked before the tiers. */
const referenceOrders = {
  price_asc: sql`price_satang asc, id asc`,
  price_desc: sql`price_satang desc, id desc`,
  name: sql`name asc, id asc`,
  newest: sql`created_at desc, id desc`,
};

async function fullRanking(keyword: string, sort: 'relevance' | keyof typeof referenceOrders): Promise<number[]> {
  const db = await database();
  const key = searchKey(keyword);
  const order =
    sort === 'relevance'
      ? sql`case when lower(name) = ${key} or lower(code) = ${key} then 0 when lower(name) like ${`${key}%`} then 1 when lower(name) like ${`%${key}%`} then 2 else 3 end, created_at desc, id desc`
      : referenceOrders[sort];
  const rows = await db.rows<{ id: number }>(sql`select id from products where active and search_text like ${`%${key}%`} order by ${order}`);
  return rows.map((row) => Number(row.id));
}

describe('catalog beyond the count bound', () => {
  it('stops counting at the bound and says so, exact below it', async () => {
    const all = await find({});
    expect(all.total).toBe(COUNT_BOUND);
    expect(all.totalCapped).toBe(true);
    expect(all.items).toHaveLength(24);
    const small = await find({ category: 'makeup', brands: ['glow-lab'] });
    const [counted] = await (await database()).rows<{ n: number }>(
      sql`select count(*)::int as n from products p join categories c on c.id = p.category_id join brands b on b.id = p.brand_id where p.active and c.code = 'makeup' and b.code = 'glow-lab'`,
    );
    const n = Number(counted?.n);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(COUNT_BOUND);
    expect(small.total).toBe(n);
    expect(small.totalCapped).toBe(false);
    expect(await countProducts({ ...emptyQuery })).toEqual({ count: COUNT_BOUND, capped: true });
  });

  it('pages up to the window, then answers with no rows and a reason instead of skipping rows', async () => {
    const last = lastPage(COUNT_BOUND, 24);
    expect(last).toBe(Math.ceil(RESULT_WINDOW / 24));
    const lastPageResult = await find({ sort: 'price_asc', page: last });
    expect(lastPageResult.items).toHaveLength(24);
    expect(lastPageResult.beyondWindow).toBe(false);
    const db = await database();
    const expected = await db.rows<{ id: number }>(sql`select id from products where active order by price_satang, id offset ${(last - 1) * 24} limit 24`);
    expect(lastPageResult.items.map((item) => item.id)).toEqual(expected.map((row) => Number(row.id)));

    const deep = await find({ sort: 'price_asc', page: 3000 });
    expect(deep.items).toEqual([]);
    expect(deep.beyondWindow).toBe(true);
    expect(deep.totalCapped).toBe(true);
    // A short list past its end is just empty, not "beyond the window".
    const short = await find({ category: 'makeup', brands: ['glow-lab'], page: 3000 });
    expect(short.items).toEqual([]);
    expect(short.beyondWindow).toBe(false);
  });

  it('ranks a word every product contains exactly as a full ranking would, on the first and later pages', async () => {
    const reference = await fullRanking('ของขวัญ', 'relevance');
    expect(reference.length).toBe(CATALOG);
    for (const page of [1, 2, 7, lastPage(COUNT_BOUND, 24)]) {
      clearProductQueryCache();
      const result = await find({ keyword: 'ของขวัญ', sort: 'relevance', page });
      expect(result.totalCapped).toBe(true);
      expect(result.items.map((item) => item.id), `page ${page}`).toEqual(reference.slice((page - 1) * 24, page * 24));
    }
  });

  it('keeps exact, prefix and substring name matches first for common words, and sorted searches exact', async () => {
    for (const keyword of ['ลิป', 'ตุ๊กตา', 'เซรั่ม']) {
      const reference = await fullRanking(keyword, 'relevance');
      clearProductQueryCache();
      const result = await find({ keyword, sort: 'relevance' });
      expect(result.items.map((item) => item.id), keyword).toEqual(reference.slice(0, 24));
      expect(result.total).toBe(Math.min(reference.length, COUNT_BOUND));
    }
    const byPrice = await fullRanking('ของขวัญ', 'price_asc');
    const sorted = await find({ keyword: 'ของขวัญ', sort: 'price_asc', page: 3 });
    expect(sorted.items.map((item) => item.id)).toEqual(byPrice.slice(48, 72));
  });

  it('gives every sorted search the page a full sort gives, whether the word is everywhere or clustered in the order', async () => {
    // ของขวัญ is in every product (the page is found walking the sort's index); ลิป sits together in
    // name order and เทียน is rarer (the walk gives up and the matches are sorted).
    for (const keyword of ['ของขวัญ', 'ลิป', 'เทียน']) {
      for (const sort of ['price_asc', 'price_desc', 'name', 'newest'] as const) {
        const reference = await fullRanking(keyword, sort);
        for (const page of [1, 2, 9]) {
          clearProductQueryCache();
          const result = await find({ keyword, sort, page });
          expect(result.items.map((item) => item.id), `${keyword} ${sort} page ${page}`).toEqual(reference.slice((page - 1) * 24, page * 24));
        }
      }
    }
  });

  it('gives every listing page (each sort, a category, a price range) the page a full sort gives, read fresh or from the id cache', async () => {
    const db = await database();
    const [category] = await db.rows<{ id: number; code: string }>(sql`select c.id, c.code from categories c join products p on p.category_id = c.id group by c.id, c.code order by count(*) desc limit 1`);
    const twoBrands = await db.rows<{ id: number; code: string }>(sql`select b.id, b.code from brands b join products p on p.brand_id = b.id group by b.id, b.code order by count(*) limit 2`);
    const filters = [
      { query: {}, where: sql`true` },
      { query: { category: category!.code }, where: sql`category_id = ${category!.id}` },
      { query: { minSatang: 20_000, maxSatang: 60_000 }, where: sql`price_satang between 20000 and 60000` },
      { query: { brands: twoBrands.map((brand) => brand.code) }, where: sql`brand_id in (${twoBrands[0]!.id}, ${twoBrands[1]!.id})` },
    ];
    for (const { query, where } of filters) {
      for (const sort of ['price_asc', 'price_desc', 'name', 'newest'] as const) {
        const reference = (await db.rows<{ id: number }>(sql`select id from products where active and ${where} order by ${referenceOrders[sort]}`)).map((row) => Number(row.id));
        for (const page of [1, 3]) {
          const expected = reference.slice((page - 1) * 24, page * 24);
          clearProductQueryCache();
          const fresh = await find({ ...query, sort, page });
          const cached = await find({ ...query, sort, page });
          const label = `${JSON.stringify(query)} ${sort} page ${page}`;
          expect(fresh.items.map((item) => item.id), label).toEqual(expected);
          expect(cached.items, label).toEqual(fresh.items);
          expect(fresh.total, label).toBe(Math.min(reference.length, COUNT_BOUND));
        }
      }
    }
  });

  it("reads a listing's ids once for every page of its filter and sort, the last page's overhang and the count included, and again after a catalog change", async () => {
    const db = await database();
    const reference = (await db.rows<{ id: number }>(sql`select id from products where active order by name asc, id asc`)).map((row) => Number(row.id));
    const last = lastPage(COUNT_BOUND, 24);
    const [brand] = await db.rows<{ code: string; id: number }>(sql`select b.code, b.id from brands b join products p on p.brand_id = b.id group by b.code, b.id order by count(*) desc limit 1`);
    const byBrand = (await db.rows<{ id: number }>(sql`select id from products where active and brand_id = ${brand!.id} order by name asc, id asc`)).map((row) => Number(row.id));
    const sent: string[] = [];
    // Listing id reads only: the mail worker's poll (every second) and other background work also send
    // queries with an order by while a loaded machine runs this test.
    const idReads = () => sent.filter((query) => /order by/i.test(query) && /\bfrom "products"/i.test(query) && !/json_agg/i.test(query));
    clearProductQueryCache();
    observeQueries((query) => sent.push(query));
    try {
      for (const page of [1, 2, 17, last, 3000]) {
        const result = await find({ sort: 'name', page });
        const expected = page === 3000 ? [] : reference.slice((page - 1) * 24, page * 24);
        expect(result.items.map((item) => item.id), `page ${page}`).toEqual(expected);
        expect({ total: result.total, capped: result.totalCapped, beyond: result.beyondWindow }).toEqual({ total: COUNT_BOUND, capped: true, beyond: page === 3000 });
      }
      // The last page reaches past the window by its overhang, so the window holds it.
      expect((last - 1) * 24 + 24).toBeGreaterThan(RESULT_WINDOW);
      expect(await countProducts({ ...emptyQuery, sort: 'name' })).toEqual({ count: COUNT_BOUND, capped: true });
      expect(idReads()).toHaveLength(1);
      // (A card read counts its product's variants, not products.)
      expect(sent.filter((query) => /count\(/i.test(query) && !/json_agg/i.test(query))).toEqual([]);
      // One brand is a window of its own; several brands are read a page at a time.
      for (const page of [1, 5]) {
        const result = await find({ brands: [brand!.code], sort: 'name', page });
        expect(result.items.map((item) => item.id), `brand page ${page}`).toEqual(byBrand.slice((page - 1) * 24, page * 24));
        expect(result.total).toBe(Math.min(byBrand.length, COUNT_BOUND));
      }
      expect(idReads()).toHaveLength(2);
      await invalidateCatalog();
      const again = await find({ sort: 'name', page: 2 });
      expect(again.items.map((item) => item.id)).toEqual(reference.slice(24, 48));
      expect(idReads()).toHaveLength(3);
    } finally {
      observeQueries(null);
    }
  });

  it('has an index giving every sort of a listing by category, by brand or of the whole catalog, so a page walks it and stops', async () => {
    const db = await database();
    const [shape] = await db.rows<{ category: number; brand: number }>(sql`select category_id as category, brand_id as brand from products where active and brand_id is not null limit 1`);
    const filters = [
      { name: 'all', where: sql`true`, condition: null },
      { name: 'category', where: sql`category_id = ${shape!.category}`, condition: /Index Cond: \(category_id = / },
      { name: 'brand', where: sql`brand_id = ${shape!.brand}`, condition: /Index Cond: \(brand_id = / },
    ];
    const missing: string[] = [];
    await db.db.transaction(async (tx) => {
      // Forbidden, a sort is still planned when no index gives the order, at a cost that cannot be missed.
      await tx.execute(sql`set local enable_sort = off`);
      for (const { name, where, condition } of filters) {
        for (const [sort, order] of Object.entries(referenceOrders)) {
          const result = await tx.execute(sql`explain select id from products where active and ${where} order by ${order} limit 24 offset 48`);
          const plan = ((Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[]).map((row) => row['QUERY PLAN']).join('\n');
          // The filter starts the index (not a walk of every product dropping the others' rows).
          if (/\bSort\b/.test(plan) || (condition && !condition.test(plan))) missing.push(`${name} ${sort}:\n${plan}`);
        }
      }
    });
    expect(missing).toEqual([]);
  });

  it("reads a listing of several brands as each brand's index walk merged in the sort's order, never a sort of every match", async () => {
    const db = await database();
    const brandRows = await db.rows<{ code: string }>(sql`select b.code from brands b join products p on p.brand_id = b.id group by b.code order by count(*) limit 3`);
    const sent: { query: string; params: unknown[] }[] = [];
    clearProductQueryCache();
    observeQueries((query, params) => sent.push({ query, params }));
    try {
      await find({ brands: brandRows.map((row) => row.code), sort: 'name', page: 4 });
    } finally {
      observeQueries(null);
    }
    const page = sent.find((statement) => /union all/i.test(statement.query));
    expect(page, sent.map((statement) => statement.query).join('\n')).toBeDefined();
    const client = (db.db as unknown as { $client: unknown }).$client as {
      query?: (text: string, params: unknown[]) => Promise<{ rows: Record<string, string>[] }>;
      unsafe?: (text: string, params: unknown[]) => Promise<Record<string, string>[]>;
    };
    const text = `explain ${page!.query}`;
    const rows = db.kind === 'pglite' ? (await client.query!(text, page!.params)).rows : await client.unsafe!(text, page!.params as never[]);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Merge Append/);
    expect(plan.match(/Index (Only )?Scan using products_brand_name_idx/g)).toHaveLength(3);
  });

  it('still finds a misspelt word (typo tolerance) in a large catalog', async () => {
    const result = await find({ keyword: 'ลิปสติด', sort: 'relevance' });
    expect(result.similar).toBe(true);
    expect(result.items.length).toBeGreaterThan(0);
    expect(result.items.some((item) => item.name.includes('ลิปสติก'))).toBe(true);
  });

  it('reads a page of cards as one JSON value exactly as the card columns read row by row, in the order asked', async () => {
    const db = await database();
    const pick = async (where: ReturnType<typeof sql>) =>
      Number((await db.rows<{ id: number }>(sql`select id from products where active and ${where} order by id desc limit 1`))[0]?.id);
    const noBrand = await pick(sql`brand_id is null`);
    const withTiers = await pick(sql`exists (select 1 from product_price_tiers t where t.product_id = products.id)`);
    const noTiers = await pick(sql`not exists (select 1 from product_price_tiers t where t.product_id = products.id)`);
    const [inactive] = await db.rows<{ id: number }>(sql`update products set active = false where id = (select min(id) from products) returning id`);
    try {
      const ids = [withTiers, noBrand, 999_999_999, noTiers, Number(inactive?.id), 3, 2, 1].filter((id) => Number.isInteger(id));
      expect(ids).toEqual(expect.arrayContaining([withTiers, noBrand, noTiers]));
      const rows = (await summaryQuery(db.db, sql`true`).orderBy(sql`1`)).filter((row) => ids.includes(row.id));
      const reference = new Map(summariesOf(rows).map((card) => [card.id, card]));
      const cards = await summariesByIds(db.db, ids);
      expect(cards).toEqual(ids.map((id) => reference.get(id)).filter((card) => card !== undefined));
      expect(cards.map((card) => card.id)).not.toContain(Number(inactive?.id));
      expect(cards.find((card) => card.id === withTiers)?.wholesaleFromSatang).toEqual(expect.any(Number));
      expect(cards.find((card) => card.id === noTiers)?.wholesaleFromSatang).toBeNull();
      expect(cards[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await db.db.execute(sql`update products set active = true where id = ${Number(inactive?.id)}`);
    }
  });
  it('names the cards after the category and brand as they are now: a change announced, or a category the kept names have not seen', async () => {
    const db = await database();
    const [product] = await db.rows<{ id: number; category_id: number; brand_id: number }>(
      sql`select id, category_id, brand_id from products where active and brand_id is not null order by id desc limit 1`,
    );
    if (!product) throw new Error('no product with a brand');
    const [category] = await db.rows<{ name: string }>(sql`select name from categories where id = ${product.category_id}`);
    const [brand] = await db.rows<{ name: string }>(sql`select name from brands where id = ${product.brand_id}`);
    const before = (await summariesByIds(db.db, [product.id]))[0];
    expect(before?.categoryName).toBe(category?.name);
    expect(before?.brandName).toBe(brand?.name);
    const [created] = await db.rows<{ id: number }>(
      sql`insert into categories (code, name, name_en, sort_order, active) values ('cards-test-new', 'ประเภทใหม่ทดสอบ', 'New', 999, true) returning id`,
    );
    try {
      await db.db.execute(sql`update categories set name = 'ชื่อประเภทใหม่' where id = ${product.category_id}`);
      await db.db.execute(sql`update brands set name = 'ชื่อแบรนด์ใหม่' where id = ${product.brand_id}`);
      await invalidateCatalog();
      const renamed = (await summariesByIds(db.db, [product.id]))[0];
      expect(renamed).toMatchObject({ categoryName: 'ชื่อประเภทใหม่', brandName: 'ชื่อแบรนด์ใหม่' });
      // Moved into a category made after the names were read, with no change announced.
      await db.db.execute(sql`update products set category_id = ${Number(created?.id)} where id = ${product.id}`);
      const moved = (await summariesByIds(db.db, [product.id]))[0];
      expect(moved).toMatchObject({ categoryCode: 'cards-test-new', categoryName: 'ประเภทใหม่ทดสอบ' });
    } finally {
      await db.db.execute(sql`update products set category_id = ${product.category_id} where id = ${product.id}`);
      await db.db.execute(sql`update categories set name = ${category?.name ?? ''} where id = ${product.category_id}`);
      await db.db.execute(sql`update brands set name = ${brand?.name ?? ''} where id = ${product.brand_id}`);
      await db.db.execute(sql`delete from categories where id = ${Number(created?.id)}`);
      await invalidateCatalog();
    }
  });
});
