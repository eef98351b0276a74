/**
 * A card's "wholesale from" price lives on the product row, kept by triggers on the tiers
 * (drizzle/0005, docs/decisions/160): whatever writes the tiers, and however, the column is their lowest
 * price, or null without tiers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { database } from '../../src/server/db/client';
import { ensureDemoProducts } from '../../src/server/db/seed';
import { findProductByCode } from '../../src/server/catalog/catalog.service';

beforeAll(async () => {
  await ensureDemoProducts((await database()).db, 400);
}, 120_000);

async function drifted(): Promise<number> {
  const db = await database();
  const [row] = await db.rows<{ n: number }>(
    sql`select count(*)::int as n from products p
        where p.wholesale_from_satang is distinct from (select min(t.price_satang) from product_price_tiers t where t.product_id = p.id)`,
  );
  return Number(row?.n);
}

async function lowest(id: number): Promise<number | null> {
  const db = await database();
  const [row] = await db.rows<{ value: number | null }>(sql`select wholesale_from_satang as value from products where id = ${id}`);
  return row?.value ?? null;
}

describe('wholesale_from_satang', () => {
  it('is the lowest tier price of every seeded product, and null for those without tiers', async () => {
    const db = await database();
    expect(await drifted()).toBe(0);
    const [counts] = await db.rows<{ with_tiers: number; without: number }>(
      sql`select count(*) filter (where wholesale_from_satang is not null)::int as with_tiers, count(*) filter (where wholesale_from_satang is null)::int as without from products`,
    );
    expect(Number(counts?.with_tiers)).toBeGreaterThan(0);
    expect(Number(counts?.without)).toBeGreaterThan(0);
  });

  it('follows tiers added, repriced, removed one by one, replaced in a transaction and removed all at once', async () => {
    const db = await database();
    const [product] = await db.rows<{ id: number; code: string }>(
      sql`select id, code from products p where not exists (select 1 from product_price_tiers t where t.product_id = p.id) order by id limit 1`,
    );
    const id = Number(product?.id);
    expect(await lowest(id)).toBeNull();

    await db.db.execute(sql`insert into product_price_tiers (product_id, min_quantity, price_satang) values (${id}, 10, 9000), (${id}, 50, 8000)`);
    expect(await lowest(id)).toBe(8000);
    // The product page reads its card from the same column.
    expect((await findProductByCode(String(product?.code)))?.wholesaleFromSatang).toBe(8000);

    await db.db.execute(sql`update product_price_tiers set price_satang = 7500 where product_id = ${id} and min_quantity = 10`);
    expect(await lowest(id)).toBe(7500);
    await db.db.execute(sql`delete from product_price_tiers where product_id = ${id} and min_quantity = 10`);
    expect(await lowest(id)).toBe(8000);

    // The back office and the CSV import replace a product's tiers: a delete and an insert in one transaction.
    await db.db.transaction(async (tx) => {
      await tx.execute(sql`delete from product_price_tiers where product_id = ${id}`);
      await tx.execute(sql`insert into product_price_tiers (product_id, min_quantity, price_satang) values (${id}, 12, 6600), (${id}, 120, 6100)`);
    });
    expect(await lowest(id)).toBe(6100);

    // A transaction rolled back leaves the price as it was.
    await expect(
      db.db.transaction(async (tx) => {
        await tx.execute(sql`update product_price_tiers set price_satang = 100 where product_id = ${id}`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await lowest(id)).toBe(6100);

    await db.db.execute(sql`delete from product_price_tiers where product_id = ${id}`);
    expect(await lowest(id)).toBeNull();
    expect(await drifted()).toBe(0);
  });

  it('follows tiers written for many products in one statement, and a truncate of the tiers', async () => {
    const db = await database();
    const picked = await db.rows<{ id: number }>(
      sql`select id from products p where not exists (select 1 from product_price_tiers t where t.product_id = p.id) order by id desc limit 3`,
    );
    const ids = picked.map((row) => Number(row.id));
    expect(ids).toHaveLength(3);
    const idArray = sql.raw(`array[${ids.map((value) => Math.trunc(value)).join(', ')}]::int[]`);
    await db.db.execute(
      sql`insert into product_price_tiers (product_id, min_quantity, price_satang) select id, q, 10000 - q * 10 from unnest(${idArray}) as id, unnest(array[10, 100]) as q`,
    );
    expect(await Promise.all(ids.map(lowest))).toEqual([9000, 9000, 9000]);
    // Moving tiers from one product to another updates both.
    await db.db.execute(sql`update product_price_tiers set product_id = ${ids[1]}, min_quantity = min_quantity + 1 where product_id = ${ids[0]}`);
    expect(await lowest(Number(ids[0]))).toBeNull();
    expect(await drifted()).toBe(0);

    await expect(
      db.db.transaction(async (tx) => {
        await tx.execute(sql`truncate product_price_tiers`);
        const result = await tx.execute(sql`select count(*)::int as n from products where wholesale_from_satang is not null`);
        // postgres-js answers with the rows, PGlite with a result holding them.
        const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[];
        expect(Number(row?.n)).toBe(0);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await drifted()).toBe(0);
    await db.db.execute(sql`delete from product_price_tiers where product_id = any(${idArray})`);
  });
});
