import { afterEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { invalidateCatalog } from '../../src/server/catalog/catalog-cache';
import { findProducts } from '../../src/server/catalog/catalog.service';
import { keptCardsStore } from '../../src/server/catalog/kept-cards';
import { summariesByIds } from '../../src/server/catalog/product.repo';
import { getDb, observeQueries } from '../../src/server/db/client';
import { products } from '../../src/server/db/schema';
import { emptyQuery } from '../../src/server/catalog/listing-query';
import { createMember, placeTestOrder, productWithStock } from '../fixtures/orders';

/** How many times the cards of a page were read from the database while `run` ran. */
async function cardReads(run: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  observeQueries((query) => {
    if (query.includes('json_agg')) reads++;
  });
  try {
    await run();
  } finally {
    observeQueries(null);
  }
  return reads;
}

async function someIds(count: number): Promise<number[]> {
  const db = await getDb();
  const rows = await db.select({ id: products.id }).from(products).where(eq(products.active, true)).orderBy(products.id).limit(count);
  return rows.map((row) => row.id);
}

afterEach(() => {
  vi.useRealTimers();
});

/** Cards are kept by id (docs/decisions/163); what a shopper sees must still follow every change. */
describe('kept product cards', () => {
  it('reads the cards of a listing page once, and the same cards again on another page that shows them', async () => {
    await invalidateCatalog();
    const query = { ...emptyQuery, sort: 'price_asc' as const };
    let first: Awaited<ReturnType<typeof findProducts>> | undefined;
    expect(await cardReads(async () => void (first = await findProducts(query)))).toBe(1);
    let again: Awaited<ReturnType<typeof findProducts>> | undefined;
    expect(await cardReads(async () => void (again = await findProducts(query)))).toBe(0);
    expect(again!.items).toEqual(first!.items);
    expect(first!.items.length).toBeGreaterThan(0);
    // The same products in a smaller page of the same listing: nothing to read.
    expect(await cardReads(() => findProducts(query, 6))).toBe(0);
  });

  it('shows a price and stock changed by the shop, and a product sold out by an order, at once', async () => {
    const db = await getDb();
    const member = await createMember();
    const product = await productWithStock(2);
    const byCode = { ...emptyQuery, keyword: product.code };
    expect((await findProducts(byCode)).items[0]).toMatchObject({ code: product.code, stock: 2 });

    await db.update(products).set({ priceSatang: 77_700, stock: 9 }).where(eq(products.id, product.id));
    await invalidateCatalog({ productCodes: [product.code] });
    expect((await findProducts(byCode)).items[0]).toMatchObject({ code: product.code, priceSatang: 77_700, stock: 9 });

    await placeTestOrder(member, [{ product_code: product.code, amount: 9 }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await findProducts(byCode)).items[0]).toMatchObject({ code: product.code, stock: 0 });
  });

  it('does not keep cards read while a change was announced', async () => {
    const db = await getDb();
    const ids = await someIds(3);
    const store = keptCardsStore({ max: 100, keepMs: 60_000 });
    let reads = 0;
    const overtaken = async (missing: number[]) => {
      reads++;
      const cards = await summariesByIds(db, missing);
      // A change announced while this read was on its way: its answer may be the older one.
      if (reads === 1) await invalidateCatalog();
      return cards;
    };
    expect((await store.cards(ids, overtaken)).map((card) => card.id)).toEqual(ids);
    expect(store.size()).toBe(0);
    await store.cards(ids, overtaken);
    expect(reads).toBe(2);
    expect(store.size()).toBe(3);
  });

  it('reads a card again after its minute, keeps at most `max`, and leaves out ids the database no longer shows', async () => {
    const db = await getDb();
    const ids = await someIds(5);
    const store = keptCardsStore({ max: 3, keepMs: 60_000 });
    const asked: number[][] = [];
    const read = (missing: number[]) => {
      asked.push(missing);
      return summariesByIds(db, missing);
    };
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T10:00:00Z'));
    await store.cards(ids.slice(0, 3), read);
    expect(store.size()).toBe(3);
    // Two more: the two read first go.
    await store.cards(ids.slice(3), read);
    expect(store.size()).toBe(3);
    asked.length = 0;
    expect((await store.cards(ids, read)).map((card) => card.id)).toEqual(ids);
    expect(asked).toEqual([ids.slice(0, 2)]);

    vi.setSystemTime(new Date('2026-11-24T10:01:01Z'));
    asked.length = 0;
    await store.cards([ids[4]!], read);
    expect(asked).toEqual([[ids[4]!]]);

    // A product hidden between its id page and its card read is left out, and not kept.
    const [hidden] = await db.update(products).set({ active: false }).where(eq(products.id, ids[1]!)).returning({ code: products.code });
    try {
      vi.setSystemTime(new Date('2026-11-24T10:03:00Z'));
      expect((await store.cards(ids.slice(0, 3), read)).map((card) => card.id)).toEqual([ids[0], ids[2]]);
    } finally {
      await db.update(products).set({ active: true }).where(eq(products.id, ids[1]!));
      await invalidateCatalog({ productCodes: [hidden!.code] });
    }
  });

  it('shares frozen cards: a page cannot change what the next page shows', async () => {
    await invalidateCatalog();
    const query = { ...emptyQuery, sort: 'name' as const };
    const { items } = await findProducts(query);
    expect(Object.isFrozen(items[0])).toBe(true);
    expect(() => {
      (items[0] as { priceSatang: number }).priceSatang = 1;
    }).toThrow(TypeError);
    const [row] = await (await getDb()).select({ price: products.priceSatang }).from(products).where(eq(products.id, items[0]!.id));
    expect((await findProducts(query)).items[0]!.priceSatang).toBe(row!.price);
  });
});
