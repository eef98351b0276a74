import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { changeOrderStatus } from '../../src/server/orders/order.service';
import { cachePublicPage, invalidateCatalog, type RouteCacheHandle } from '../../src/server/catalog/catalog-cache';
import { findProductByCode, findProducts, relatedProducts } from '../../src/server/catalog/catalog.service';
import { getDb } from '../../src/server/db/client';
import { products } from '../../src/server/db/schema';
import { emptyQuery } from '../../src/server/catalog/listing-query';
import { createMember, productWithStock, placeTestOrder } from '../fixtures/orders';

/** Stock changes made by orders reach the catalog caches (route cache tags and the search id cache). */
describe('catalog cache invalidation from orders', () => {
  it('placing and cancelling an order purge the pages that show its products', async () => {
    const purged: unknown[] = [];
    const handle: RouteCacheHandle = { enabled: true, set: () => {}, invalidate: async (options) => void purged.push(options) };
    cachePublicPage(handle, ['listing']);
    const member = await createMember();
    const product = await productWithStock(3);
    const before = await findProducts({ ...emptyQuery, keyword: product.code });
    expect(before.items[0]?.stock).toBe(3);

    const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 3 }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const tag = `product:${product.code.toLowerCase()}`;
    expect(purged).toContainEqual({ tags: [tag, 'listing', 'home', 'promotions'] });
    expect((await findProducts({ ...emptyQuery, keyword: product.code })).items[0]?.stock).toBe(0);

    purged.length = 0;
    await changeOrderStatus({ type: 'member', id: member.id }, order.orderNo, { action: 'cancel' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(purged).toContainEqual({ tags: [tag, 'listing', 'home', 'promotions'] });
  });
});

/** The related block is read once per category and kept; it must still follow every announced change. */
describe('related products', () => {
  /** The block as the rule says, read straight from the table: same category, in stock, not itself. */
  async function expectedRelated(categoryId: number, productId: number, limit = 6): Promise<string[]> {
    const db = await getDb();
    const rows = await db
      .select({ code: products.code })
      .from(products)
      .where(sql`${products.active} and ${products.categoryId} = ${categoryId} and ${products.id} <> ${productId} and ${products.stock} > 0`)
      .orderBy(sql`${products.recommended} desc, ${products.createdAt} desc, ${products.id} desc`)
      .limit(limit);
    return rows.map((row) => row.code);
  }

  it('shows every product its category less itself: the first candidate and one further down alike', async () => {
    const db = await getDb();
    const [someone] = await db.select({ categoryId: products.categoryId }).from(products).where(sql`${products.stock} > 0`).limit(1);
    const candidates = await db
      .select({ code: products.code })
      .from(products)
      .where(sql`${products.active} and ${products.categoryId} = ${someone!.categoryId} and ${products.stock} > 0`)
      .orderBy(sql`${products.recommended} desc, ${products.createdAt} desc, ${products.id} desc`)
      .limit(9);
    expect(candidates.length).toBeGreaterThan(7);
    for (const { code } of [candidates[0]!, candidates[3]!, candidates[8]!]) {
      const product = (await findProductByCode(code))!;
      const related = await relatedProducts(product, 6);
      expect(related.map((item) => item.code)).toEqual(await expectedRelated(product.category.id, product.id));
      expect(related.map((item) => item.code)).not.toContain(code);
      expect(related.every((item) => item.categoryCode === product.category.code && item.stock > 0)).toBe(true);
    }
  });

  it('drops a product sold out by an order, and shows a price changed and announced by the shop', async () => {
    const db = await getDb();
    const member = await createMember();
    const product = await productWithStock(5);
    const [top] = await db
      .select({ id: products.id, code: products.code })
      .from(products)
      // One variant: its stock and price are written on the product (docs/decisions/205).
      .where(sql`${products.active} and ${products.categoryId} = ${product.categoryId} and ${products.id} <> ${product.id} and ${products.stock} > 0 and (select count(*) from product_variants v where v.product_id = ${products.id}) = 1`)
      .orderBy(sql`${products.recommended} desc, ${products.createdAt} desc, ${products.id} desc`)
      .limit(1);
    // Made the category's first candidate: a newer product of several variants would otherwise lead it.
    await db
      .update(products)
      .set({ stock: 1, priceSatang: 12_300, recommended: true, createdAt: sql`now() + interval '1 day'` })
      .where(eq(products.id, top!.id));
    await invalidateCatalog({ productCodes: [top!.code] });
    const detail = (await findProductByCode(product.code))!;
    const before = await relatedProducts(detail, 6);
    expect(before[0]).toMatchObject({ code: top!.code, stock: 1, priceSatang: 12_300 });

    await db.update(products).set({ priceSatang: 45_600 }).where(eq(products.id, top!.id));
    await invalidateCatalog({ productCodes: [top!.code] });
    expect((await relatedProducts(detail, 6))[0]).toMatchObject({ code: top!.code, priceSatang: 45_600 });

    await placeTestOrder(member, [{ product_code: top!.code, amount: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const after = await relatedProducts(detail, 6);
    expect(after.map((item) => item.code)).not.toContain(top!.code);
    expect(after.map((item) => item.code)).toEqual(await expectedRelated(detail.category.id, detail.id));
  });
});
