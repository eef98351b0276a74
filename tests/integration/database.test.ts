import { count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '../../src/server/db/client';
import { categories, company, productImages, productPriceTiers, products, promotions } from '../../src/server/db/schema';
import { demoProduct, demoEpoch } from '../../src/server/db/demo-catalog';
import { SEED_PRODUCTS } from '../fixtures/database';

describe('database and demo catalog', () => {
  it('runs the migrations with pg_trgm loaded', async () => {
    const db = await database();
    const rows = await db.rows<{ extname: string }>(sql`select extname from pg_extension where extname = 'pg_trgm'`);
    expect(rows).toHaveLength(1);
    const [similar] = await db.rows<{ score: number }>(sql`select similarity('ลิปสติก', 'ลิปสติ') as score`);
    expect(Number(similar?.score)).toBeGreaterThan(0.3);
  });

  it('loads a believable Thai shop', async () => {
    const { db } = await database();
    const [categoryCount] = await db.select({ n: count() }).from(categories);
    const [productCount] = await db.select({ n: count() }).from(products);
    const [soldOut] = await db.select({ n: count() }).from(products).where(eq(products.stock, 0));
    const [tiered] = await db.select({ n: sql<number>`count(distinct ${productPriceTiers.productId})` }).from(productPriceTiers);
    const [imageCount] = await db.select({ n: count() }).from(productImages);
    expect(categoryCount?.n).toBeGreaterThanOrEqual(12);
    expect(productCount?.n).toBe(SEED_PRODUCTS);
    expect(soldOut?.n).toBeGreaterThan(0);
    expect(Number(tiered?.n)).toBeGreaterThan(SEED_PRODUCTS * 0.25);
    expect(imageCount?.n).toBeGreaterThanOrEqual(SEED_PRODUCTS);
    const [shop] = await db.select().from(company);
    expect(shop?.name).toMatch(/ร้าน/);
    expect(shop?.phone).toMatch(/^0\d/);
    const names = await db.select({ code: categories.code }).from(categories);
    expect(names.map((row) => row.code)).toEqual(expect.arrayContaining(['gifts', 'skincare', 'makeup', 'perfume', 'stationery', 'jewellery', 'bags', 'party-favours']));
    const promotionRows = await db.select({ code: promotions.code }).from(promotions);
    expect(promotionRows.length).toBeGreaterThanOrEqual(3);
  });

  it('gives no two products one name, and draws each demo shade in its colour (issue 30)', async () => {
    const db = await database();
    const shared = await db.rows<{ name: string; n: number }>(sql`select name, count(*)::int as n from products group by name having count(*) > 1`);
    expect(shared).toEqual([]);
    const [lipstick] = await db.rows<{ image: string; swatch: string; variant_image: string }>(
      sql`select p.image, v.swatch, v.image as variant_image from products p join product_variants v on v.product_id = p.id and v.code = p.code where p.name = 'ลิปสติกเนื้อแมตต์'`,
    );
    // The product shows its own shade (peach): the picture is drawn from the swatch's colour.
    expect(lipstick?.swatch).toBe('#f4a683');
    expect(lipstick?.image).toBe('/images/demo/lipstick-shade-f4a683.svg');
    expect(lipstick?.variant_image).toBe(lipstick?.image);
    // A shade is drawn as its item: a cushion as a cushion, only lip products as lipsticks.
    const shaded = await db.rows<{ name: string; image: string }>(sql`select p.name, p.image from products p join categories c on c.id = p.category_id where c.code = 'makeup' and p.image like '/images/demo/%-shade-%'`);
    expect(shaded.length).toBeGreaterThanOrEqual(5);
    for (const row of shaded) {
      const drawing = /\/images\/demo\/([a-z]+)-shade-/.exec(row.image)?.[1];
      expect(drawing === 'lipstick', `${row.name}: ${row.image}`).toBe(row.name.startsWith('ลิป'));
    }
    expect(shaded.some((row) => row.name.startsWith('คุชชั่น') && row.image.startsWith('/images/demo/cushion-shade-'))).toBe(true);
    // Its description names the product every shade shares, not the one shade it was before.
    const withVariants = await db.rows<{ name: string; description: string }>(sql`select name, description from products where cardinality(option_names) > 0`);
    expect(withVariants.length).toBeGreaterThanOrEqual(15);
    for (const row of withVariants) expect(row.description).toMatch(new RegExp(`^${row.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (จากแบรนด์|คัดสรร)`));
  });

  it('generates the same product for the same index', () => {
    expect(demoProduct(41, demoEpoch)).toEqual(demoProduct(41, demoEpoch));
    expect(demoProduct(41, demoEpoch).code).toBe('P00042');
  });

  it('stores the normalised search text used by trigram search', async () => {
    const { db } = await database();
    const [row] = await db.select({ searchText: products.searchText, name: products.name }).from(products).limit(1);
    expect(row?.searchText).toContain(row?.name.toLocaleLowerCase('th-TH'));
  });
});
