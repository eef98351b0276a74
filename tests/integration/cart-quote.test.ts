import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { productPriceTiers, products } from '../../src/server/db/schema';
import { priceCart, quoteCart } from '../../src/server/cart/cart.service';
import { cartQuoteRequestSchema } from '../../src/lib/cart-quote-schema';
import { POST } from '../../src/pages/api/cart/quote';

/** The first active product with two tiers and enough stock to reach both. */
async function tieredProduct() {
  const db = await getDb();
  const rows = await db
    .select({ id: products.id, code: products.code, price: products.priceSatang, stock: products.stock })
    .from(products)
    .where(and(eq(products.active, true), gt(products.stock, 500), sql`(select count(*) from ${productPriceTiers} t where t.product_id = ${products.id}) = 2`))
    .orderBy(asc(products.id))
    .limit(1);
  const product = rows[0];
  if (!product) throw new Error('demo catalog has no tiered product');
  const tiers = await db
    .select({ min: productPriceTiers.minQuantity, price: productPriceTiers.priceSatang })
    .from(productPriceTiers)
    .where(eq(productPriceTiers.productId, product.id))
    .orderBy(asc(productPriceTiers.minQuantity));
  return { ...product, tiers };
}

async function plainProduct(where = sql`true`) {
  const db = await getDb();
  const [row] = await db
    .select({ id: products.id, code: products.code, price: products.priceSatang, stock: products.stock, name: products.name, image: products.image })
    .from(products)
    .where(and(eq(products.active, true), sql`not exists (select 1 from ${productPriceTiers} t where t.product_id = ${products.id})`, where))
    .orderBy(asc(products.id))
    .limit(1);
  if (!row) throw new Error('no plain product');
  return row;
}

async function callEndpoint(body: unknown) {
  const request = new Request('http://shop.test/api/cart/quote', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const response = await POST({ request } as never);
  return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, unknown> };
}

describe('cart quote', () => {
  it('prices each amount by the tier it reaches', async () => {
    const product = await tieredProduct();
    const [first, second] = product.tiers;
    if (!first || !second) throw new Error('expected two tiers');
    const cases: [number, number][] = [
      [1, product.price],
      [first.min - 1, product.price],
      [first.min, first.price],
      [second.min - 1, first.price],
      [second.min, second.price],
      [second.min + 7, second.price],
    ];
    for (const [amount, unit] of cases) {
      const quote = await quoteCart({ items: [{ product_code: product.code, amount }] });
      const line = quote.lines[0];
      expect(line, `amount ${amount}`).toMatchObject({
        amount,
        unit_price_satang: unit,
        unit_price: unit / 100,
        line_total_satang: unit * amount,
        retail_price_satang: product.price,
        unavailable: false,
        insufficient_stock: false,
        price_changed: false,
      });
      expect(quote.subtotal_satang).toBe(unit * amount);
    }
  });

  it('tells how many more pieces reach the next tier', async () => {
    const product = await tieredProduct();
    const [first] = product.tiers;
    if (!first) throw new Error('expected a tier');
    const quote = await quoteCart({ items: [{ product_code: product.code, amount: first.min - 3 }] });
    expect(quote.lines[0]?.next_tier).toEqual({ missing: 3, min_quantity: first.min, price: first.price / 100, price_satang: first.price });
    expect(quote.lines[0]?.tiers.map((tier) => tier.min_quantity)).toEqual(product.tiers.map((tier) => tier.min));
  });

  it('answers current names, images and stock, and sums the subtotal', async () => {
    const a = await plainProduct();
    const b = await plainProduct(sql`${products.id} > ${a.id} and ${products.stock} >= 3`);
    const quote = await quoteCart({ items: [{ product_code: a.code, amount: 1 }, { product_code: b.code, amount: 3 }] });
    expect(quote.lines.map((line) => [line.product_code, line.product_name, line.product_image, line.stock])).toEqual([
      [a.code, a.name, a.image, a.stock],
      [b.code, b.name, b.image, b.stock],
    ]);
    expect(quote.subtotal_satang).toBe(a.price + b.price * 3);
    expect(quote.subtotal).toBe((a.price + b.price * 3) / 100);
  });

  it('ignores a tampered client price and flags it as changed', async () => {
    const product = await plainProduct();
    const honest = await quoteCart({ items: [{ product_code: product.code, amount: 2, product_price: product.price / 100 }] });
    const tampered = await quoteCart({ items: [{ product_code: product.code, amount: 2, product_price: 1 }] });
    expect(honest.lines[0]?.price_changed).toBe(false);
    expect(tampered.lines[0]).toMatchObject({ price_changed: true, last_seen_price: 1, unit_price_satang: product.price });
    expect(tampered.subtotal_satang).toBe(honest.subtotal_satang);
    expect(tampered.subtotal_satang).toBe(product.price * 2);
  });

  it('follows a price change on the server', async () => {
    const db = await getDb();
    const product = await plainProduct(sql`${products.code} <> ''`);
    const oldBaht = product.price / 100;
    await db.update(products).set({ priceSatang: product.price + 1000 }).where(eq(products.id, product.id));
    try {
      const quote = await quoteCart({ items: [{ product_code: product.code, amount: 1, product_price: oldBaht }] });
      expect(quote.lines[0]).toMatchObject({ price_changed: true, unit_price_satang: product.price + 1000, last_seen_price: oldBaht });
    } finally {
      await db.update(products).set({ priceSatang: product.price }).where(eq(products.id, product.id));
    }
  });

  it('flags lines short of stock, and sold-out products', async () => {
    const db = await getDb();
    const product = await plainProduct(sql`${products.stock} between 5 and 200`);
    const [soldOut] = await db.select({ code: products.code }).from(products).where(and(eq(products.active, true), eq(products.stock, 0))).limit(1);
    if (!soldOut) throw new Error('demo catalog has no sold-out product');
    const quote = await quoteCart({
      items: [
        { product_code: product.code, amount: product.stock },
        { product_code: soldOut.code, amount: 1 },
      ],
    });
    expect(quote.lines[0]?.insufficient_stock).toBe(false);
    expect(quote.lines[1]).toMatchObject({ insufficient_stock: true, stock: 0, unavailable: false });
    expect(quote.lines[1]?.unit_price_satang).toBeGreaterThan(0);
    // The sold-out line is priced for the shopper to see, but adds nothing to the subtotal.
    expect(quote.subtotal_satang).toBe(quote.lines[0]?.line_total_satang);
    expect(quote.orderable).toBe(false);
    const over = await quoteCart({ items: [{ product_code: product.code, amount: product.stock + 1 }] });
    expect(over.lines[0]).toMatchObject({ insufficient_stock: true, stock: product.stock });
  });

  it('flags unknown and withdrawn products as unavailable and leaves them out of the subtotal', async () => {
    const db = await getDb();
    const product = await plainProduct();
    const [withdrawn] = await db.select({ id: products.id, code: products.code }).from(products).where(gt(products.id, product.id)).limit(1);
    if (!withdrawn) throw new Error('no second product');
    await db.update(products).set({ active: false }).where(eq(products.id, withdrawn.id));
    try {
      const quote = await quoteCart({
        items: [
          { product_code: product.code, amount: 1 },
          { product_code: 'NO-SUCH-PRODUCT', amount: 2, product_price: 10 },
          { product_code: withdrawn.code, amount: 1 },
        ],
      });
      expect(quote.lines[1]).toMatchObject({ product_code: 'NO-SUCH-PRODUCT', unavailable: true, product_name: null, line_total: 0 });
      expect(quote.lines[2]).toMatchObject({ product_code: withdrawn.code, unavailable: true, product_name: null });
      expect(quote.subtotal_satang).toBe(product.price);
      expect(quote.orderable).toBe(false);
    } finally {
      await db.update(products).set({ active: true }).where(eq(products.id, withdrawn.id));
    }
  });

  it('merges duplicate codes into one line', async () => {
    const product = await plainProduct();
    const quote = await quoteCart({ items: [{ product_code: product.code, amount: 2 }, { product_code: product.code, amount: 3 }] });
    expect(quote.lines).toHaveLength(1);
    expect(quote.lines[0]?.amount).toBe(5);
  });

  it('gives the checkout product ids, and locks rows inside a transaction', async () => {
    const db = await getDb();
    const product = await plainProduct();
    const priced = await db.transaction((tx) => priceCart({ items: [{ product_code: product.code, amount: 1 }] }, { db: tx, lock: true }));
    expect(priced.lines[0]?.productId).toBe(product.id);
    const quote = await quoteCart({ items: [{ product_code: product.code, amount: 1 }] });
    expect(quote.lines[0]).not.toHaveProperty('productId');
  });

  it('an empty cart is an empty, not orderable quote', async () => {
    expect(await quoteCart({ items: [] })).toEqual({ lines: [], subtotal: 0, subtotal_satang: 0, orderable: false });
  });
});

describe('POST /api/cart/quote', () => {
  it('answers the data envelope, never cached', async () => {
    const product = await plainProduct();
    const { status, headers, json } = await callEndpoint({ items: [{ product_code: product.code, amount: 2, product_price: 0.01 }] });
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('private, no-store');
    const data = json.data as { subtotal_satang: number; lines: { price_changed: boolean }[] };
    expect(data.subtotal_satang).toBe(product.price * 2);
    expect(data.lines[0]?.price_changed).toBe(true);
  });

  it.each([
    ['not JSON', '{"items": ['],
    ['no items', {}],
    ['items not an array', { items: 'P00001' }],
    ['zero amount', { items: [{ product_code: 'P00001', amount: 0 }] }],
    ['fractional amount', { items: [{ product_code: 'P00001', amount: 1.5 }] }],
    ['negative amount', { items: [{ product_code: 'P00001', amount: -2 }] }],
    ['huge amount', { items: [{ product_code: 'P00001', amount: 1_000_000 }] }],
    ['amount as text', { items: [{ product_code: 'P00001', amount: '2' }] }],
    ['bad code', { items: [{ product_code: "P1'; drop table products;--", amount: 1 }] }],
    ['too many lines', { items: Array.from({ length: 101 }, (_, i) => ({ product_code: `P${i}`, amount: 1 })) }],
    ['negative price', { items: [{ product_code: 'P00001', amount: 1, product_price: -5 }] }],
  ])('refuses %s with a Thai 400', async (_name, body) => {
    const { status, json } = await callEndpoint(body);
    expect(status).toBe(400);
    expect(typeof json.code).toBe('string');
    expect(String(json.message)).toMatch(/[\u0E00-\u0E7F]/);
  });

  it('the shared schema accepts what the cart page sends', () => {
    expect(cartQuoteRequestSchema.safeParse({ items: [{ product_code: 'P00001', amount: 3, product_price: 45.5 }] }).success).toBe(true);
  });
});
