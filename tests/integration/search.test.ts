import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { database } from '../../src/server/db/client';
import { clearProductQueryCache, findProducts, suggestions } from '../../src/server/catalog/catalog.service';
import { invalidateCatalog } from '../../src/server/catalog/catalog-cache';
import { emptyQuery, type ListingQuery } from '../../src/server/catalog/listing-query';

const search = (keyword: string, extra: Partial<ListingQuery> = {}) =>
  findProducts({ ...emptyQuery, sort: 'relevance', keyword, ...extra });

describe('product search (Thai without spaces, trigram typo tolerance)', () => {
  it('finds a Thai keyword inside names without spaces, name prefix matches first', async () => {
    const result = await search('ลิป');
    expect(result.total).toBeGreaterThan(0);
    expect(result.similar).toBe(false);
    // Every match contains the keyword somewhere; the first ones start with it.
    const names = result.items.map((item) => item.name);
    expect(names[0]?.startsWith('ลิป')).toBe(true);
    const firstNonPrefix = names.findIndex((name) => !name.startsWith('ลิป'));
    if (firstNonPrefix >= 0) expect(names.slice(firstNonPrefix).some((name) => name.startsWith('ลิป'))).toBe(false);
  });

  it('matches inside a word (ติก in ลิปสติก) and in category names', async () => {
    const inside = await search('สติก');
    expect(inside.items.some((item) => item.name.includes('ลิปสติก'))).toBe(true);
    const category = await search('เครื่องประดับแฟชั่น');
    expect(category.total).toBeGreaterThan(0);
    expect(category.items.every((item) => item.categoryCode === 'accessories' || item.name.includes('เครื่องประดับ'))).toBe(true);
  });

  it('matches brand names in Latin letters, case-insensitively, and Thai brand names', async () => {
    const latin = await search('GLOW lab');
    expect(latin.total).toBeGreaterThan(0);
    expect(latin.items.every((item) => item.brandCode === 'glow-lab')).toBe(true);
    const thaiBrand = await search('โกลว์ แล็บ');
    expect(thaiBrand.items.every((item) => item.brandCode === 'glow-lab')).toBe(true);
  });

  it('puts an exact name match first', async () => {
    const [row] = await (await database()).rows<{ name: string }>(sql`select name from products where code = 'P00014'`);
    const name = row?.name as string;
    const result = await search(name);
    expect(result.items[0]?.name).toBe(name);
  });

  it('finds products despite a small typo, and says the matches are similar ones', async () => {
    const typo = await search('ลิปสติด');
    expect(typo.similar).toBe(true);
    expect(typo.items[0]?.name).toContain('ลิปสติก');
    const missing = await search('เซรั่มวิตมินซี');
    expect(missing.items[0]?.name).toContain('เซรั่มวิตามินซี');
    const latinTypo = await search('glw lab');
    expect(latinTypo.items.length).toBeGreaterThan(0);
    expect(latinTypo.items.every((item) => item.brandCode === 'glow-lab')).toBe(true);
  });

  it('normalises the keyword: zero-width characters and decomposed vowels (NFC)', async () => {
    const plain = await search('ลิปสติก');
    const zeroWidth = await search('ลิป\u200Bสติก\u200D');
    expect(zeroWidth.total).toBe(plain.total);
    // A decomposed accent (e + U+0300) is composed before matching the stored NFC text.
    const composed = await search('Lumière');
    const decomposed = await search('Lumière'.normalize('NFD'));
    expect('Lumière'.normalize('NFD')).not.toBe('Lumière');
    expect(composed.total).toBeGreaterThan(0);
    expect(composed.similar).toBe(false);
    expect(decomposed.total).toBe(composed.total);
    expect(decomposed.similar).toBe(false);
  });

  it('treats LIKE wildcards in the keyword literally', async () => {
    const result = await search('%_%');
    expect(result.items.every((item) => item.name.includes('%_%'))).toBe(true);
  });

  it('requires every space-separated term', async () => {
    const both = await search('ลิปสติก แมตต์');
    expect(both.total).toBeGreaterThan(0);
    expect(both.items.every((item) => item.name.includes('ลิปสติก') && item.name.includes('แมตต์'))).toBe(true);
  });

  it('combines the keyword with brand and price filters and other sorts', async () => {
    const result = await search('ลิป', { brands: ['moji'], minSatang: 10_000, maxSatang: 50_000, sort: 'price_asc' });
    const prices = result.items.map((item) => item.priceSatang);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(result.items.every((item) => item.brandCode === 'moji' && item.priceSatang >= 10_000 && item.priceSatang <= 50_000)).toBe(true);
  });

  it('finds by product code', async () => {
    const result = await search('p00042');
    expect(result.items[0]?.code).toBe('P00042');
  });

  it('forgets cached results when the catalog changes', async () => {
    const before = await search('ลิปสติก');
    const { db } = await database();
    const code = before.items[0]?.code as string;
    await db.execute(sql`update products set active = false where code = ${code}`);
    expect((await search('ลิปสติก')).total).toBe(before.total); // still the cached page
    await invalidateCatalog({ productCodes: [code] });
    expect((await search('ลิปสติก')).total).toBe(before.total - 1);
    await db.execute(sql`update products set active = true where code = ${code}`);
    clearProductQueryCache();
  });

  it('suggests categories, brands and products as you type', async () => {
    const list = await suggestions('ลิป');
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((item) => item.kind !== 'product' || item.label.includes('ลิป'))).toBe(true);
  });
});
