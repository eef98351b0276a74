import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { orderLines, orders } from '../../src/server/db/schema';
import { placeOrder } from '../../src/server/orders/order.service';
import { AppError } from '../../src/server/http/errors';
import { createMember, newKey, productWithStock, stockOf } from '../fixtures/orders';

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
});
