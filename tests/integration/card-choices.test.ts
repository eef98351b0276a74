/**
 * `product_card_choices` (drizzle/0023, docs/decisions/232): what a card shows of a product's variants,
 * kept beside the product by triggers on product_variants. Whatever writes the variants (one
 * row or many in one statement, an insert, an update, a delete, a variant moved to another product), the
 * column equals what the card query worked out from the variants before: `product_variant_choices(id)`.
 * On PGlite and on PostgreSQL (the suite runs twice in CI).
 */
import { describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { database, getDb } from '../../src/server/db/client';
import { products, productVariants } from '../../src/server/db/schema';
import { summariesByIds } from '../../src/server/catalog/product.repo';
import { productWithStock, productWithVariants } from '../fixtures/orders';

/** Products whose kept choices differ from their variants' as computed now. */
async function productsOutOfStep(ids?: readonly number[]): Promise<{ id: number; kept: string | null; now: string | null }[]> {
  const db = await database();
  const only = ids ? sql`and p.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql``;
  return db.rows(sql`
    select p.id, c.choices::text as kept, product_variant_choices(p.id)::text as now
    from products p left join product_card_choices c on c.product_id = p.id
    where (c.choices::text is distinct from product_variant_choices(p.id)::text) ${only}`);
}

async function keptChoices(productId: number) {
  const [card] = await summariesByIds(await getDb(), [productId]);
  return card?.variantChoices;
}

describe('the variant choices kept beside each product', () => {
  it('hold for every product of the seeded shop, shades and all', async () => {
    expect(await productsOutOfStep()).toEqual([]);
    const db = await database();
    const [kept] = await db.rows<{ n: number }>(sql`select count(*)::int as n from product_card_choices`);
    expect(kept?.n).toBeGreaterThan(0);
  });

  it('follow variants added in one statement, edited one by one or together, and taken off sale', async () => {
    const { product, variants } = await productWithVariants([3, 0, 5]);
    expect(await keptChoices(product.id)).toEqual({ count: 3, highestSatang: product.priceSatang + 2000, swatches: [] });
    const db = await getDb();

    await db.update(productVariants).set({ swatch: '#e8a07a' }).where(eq(productVariants.id, variants[0]!.id));
    await db.update(productVariants).set({ swatch: '#c0392b', option1: 'แดงเชอร์รี่' }).where(eq(productVariants.id, variants[2]!.id));
    expect((await keptChoices(product.id))?.swatches).toEqual([
      { color: '#e8a07a', name: variants[0]!.option1 },
      { color: '#c0392b', name: 'แดงเชอร์รี่' },
    ]);

    // The picker's order.
    await db.update(productVariants).set({ sortOrder: 9 }).where(eq(productVariants.id, variants[0]!.id));
    expect((await keptChoices(product.id))?.swatches.map((swatch) => swatch.color)).toEqual(['#c0392b', '#e8a07a']);

    // Every variant's price in one statement.
    await db.update(productVariants).set({ priceSatang: sql`${productVariants.priceSatang} + 500` }).where(eq(productVariants.productId, product.id));
    expect((await keptChoices(product.id))?.highestSatang).toBe(product.priceSatang + 2500);

    // A stock change (every order makes one) leaves them as they were.
    const before = await keptChoices(product.id);
    await db.update(productVariants).set({ stock: 40 }).where(eq(productVariants.id, variants[1]!.id));
    expect(await keptChoices(product.id)).toEqual(before);

    await db.update(productVariants).set({ active: false }).where(inArray(productVariants.id, [variants[1]!.id, variants[2]!.id]));
    expect(await keptChoices(product.id)).toBeUndefined();
    await db.update(productVariants).set({ active: true }).where(eq(productVariants.id, variants[2]!.id));
    expect(await keptChoices(product.id)).toMatchObject({ count: 2 });
    expect(await productsOutOfStep([product.id])).toEqual([]);
  });

  it('follow a variant deleted, and a variant moved from one product to another', async () => {
    const { product, variants } = await productWithVariants([1, 2, 3]);
    const single = await productWithStock(4);
    expect(await keptChoices(single.id)).toBeUndefined();
    const db = await getDb();

    await db.delete(productVariants).where(eq(productVariants.id, variants[0]!.id));
    expect(await keptChoices(product.id)).toMatchObject({ count: 2 });

    await db.update(productVariants).set({ productId: single.id }).where(eq(productVariants.id, variants[1]!.id));
    expect(await keptChoices(product.id)).toBeUndefined();
    expect(await keptChoices(single.id)).toMatchObject({ count: 2, highestSatang: Math.max(single.priceSatang, variants[1]!.priceSatang) });
    expect(await productsOutOfStep([product.id, single.id])).toEqual([]);

    // A product's own price written on a one-variant product (the products trigger carries it to the
    // variant at depth 2) keeps it without choices.
    await db.update(products).set({ priceSatang: 12_300 }).where(eq(products.id, product.id));
    expect(await keptChoices(product.id)).toBeUndefined();
    expect(await productsOutOfStep([product.id, single.id])).toEqual([]);

    // A product deleted takes its row with it.
    await db.delete(productVariants).where(eq(productVariants.productId, single.id));
    await db.delete(products).where(eq(products.id, single.id));
    const left = await (await database()).rows(sql`select product_id from product_card_choices where product_id = ${single.id}`);
    expect(left).toEqual([]);
  });
});
