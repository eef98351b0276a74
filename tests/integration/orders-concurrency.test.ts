import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { orderLines, orders, stockMovements } from '../../src/server/db/schema';
import { placeOrder } from '../../src/server/orders/order.service';
import { AppError } from '../../src/server/http/errors';
import { createMember, newKey, productWithStock, productWithVariants, stockOf, variantStockOf } from '../fixtures/orders';

describe('concurrent checkouts', () => {
  it('sells a stock of 10 to exactly 10 of 50 concurrent checkouts', async () => {
    const product = await productWithStock(10);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => createMember()));
    const results = await Promise.allSettled(
      buyers.map((member) =>
        placeOrder(member, {
          idempotencyKey: newKey(),
          lines: [{ product_code: product.code, amount: 1 }],
          addressId: member.addressId,
          deliveryCode: 'ems',
          paymentMethod: 'promptpay',
        }),
      ),
    );
    const placed = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(placed).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const failure of refused) {
      expect(failure.reason).toBeInstanceOf(AppError);
      expect((failure.reason as AppError).code).toBe('out_of_stock');
    }
    expect(await stockOf(product.code)).toBe(0);
    const db = await getDb();
    const numbers = placed.map((result) => (result as PromiseFulfilledResult<Awaited<ReturnType<typeof placeOrder>>>).value.order.orderNo);
    expect(new Set(numbers).size).toBe(10);
    const rows = await db
      .select({ id: orders.id })
      .from(orders)
      .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
      .where(eq(orderLines.productCode, product.code));
    expect(rows).toHaveLength(10);
  });

  it('makes one order from the same idempotency key sent 20 times at once', async () => {
    const member = await createMember();
    const product = await productWithStock(100);
    const key = newKey();
    const request = {
      idempotencyKey: key,
      lines: [{ product_code: product.code, amount: 3 }],
      addressId: member.addressId,
      deliveryCode: 'kerry',
      paymentMethod: 'promptpay' as const,
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => placeOrder(member, request)));
    expect(new Set(results.map((result) => result.order.orderNo)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const db = await getDb();
    const rows = await db.select().from(orders).where(eq(orders.memberId, member.id));
    expect(rows).toHaveLength(1);
    expect(await stockOf(product.code)).toBe(97);
  });

  it('sells each shade from its own stock under 50 concurrent checkouts of one product (docs/decisions/205)', async () => {
    // Three shades with 6, 4 and 0 left; a third of the buyers want shade 1, a third shade 2, a third both.
    const { product, variants } = await productWithVariants([6, 4, 0]);
    const [one, two, three] = variants as [(typeof variants)[number], (typeof variants)[number], (typeof variants)[number]];
    expect(await stockOf(product.code)).toBe(10);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => createMember()));
    const wants = (index: number) =>
      index % 3 === 0
        ? [{ product_code: one.code, amount: 1 }]
        : index % 3 === 1
          ? [{ product_code: two.code, amount: 1 }]
          : [{ product_code: one.code, amount: 1 }, { product_code: two.code, amount: 1 }];
    const results = await Promise.allSettled(
      buyers.map((member, index) =>
        placeOrder(member, { idempotencyKey: newKey(), lines: wants(index), addressId: member.addressId, deliveryCode: 'ems', paymentMethod: 'promptpay' }),
      ),
    );
    for (const failure of results.filter((result): result is PromiseRejectedResult => result.status === 'rejected')) {
      expect((failure.reason as AppError).code).toBe('out_of_stock');
    }
    const db = await getDb();
    const sold = await db
      .select({ code: orderLines.productCode, amount: orderLines.amount, variantId: orderLines.variantId, name: orderLines.productName })
      .from(orderLines)
      .where(eq(orderLines.productId, product.id));
    const soldOf = (code: string) => sold.filter((line) => line.code === code).reduce((sum, line) => sum + line.amount, 0);
    // Every unit of shades 1 and 2 is sold, none twice; nothing of the sold-out shade 3.
    expect(soldOf(one.code)).toBe(6);
    expect(soldOf(two.code)).toBe(4);
    expect(soldOf(three.code)).toBe(0);
    expect(await variantStockOf(one.code)).toBe(0);
    expect(await variantStockOf(two.code)).toBe(0);
    expect(await stockOf(product.code)).toBe(0);
    expect(sold.every((line) => line.variantId !== null && line.name.includes(' — สีเฉดที่'))).toBe(true);
    const moved = await db.select({ variantId: stockMovements.variantId, delta: stockMovements.delta }).from(stockMovements).where(eq(stockMovements.productId, product.id));
    expect(moved.filter((row) => row.variantId === one.id).reduce((sum, row) => sum + row.delta, 0)).toBe(-6);
    expect(moved.filter((row) => row.variantId === two.id).reduce((sum, row) => sum + row.delta, 0)).toBe(-4);
  });
});
