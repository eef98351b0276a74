import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { orderEvents, orders } from '../../src/server/db/schema';
import { addDemoOrders } from '../../src/server/db/seed-orders';
import { createMember, placeTestOrder, productWithStock } from '../fixtures/orders';

/**
 * `npm run db:seed -- --orders N` (the measured move at 50,000 orders, docs/operations.md): orders the
 * shop reads as its own, and the checkout's next order number follows them.
 */
describe('demo orders in bulk', () => {
  it('writes orders with lines, a status path of events and sums that add up, numbered from the shop’s sequence', async () => {
    const db = await getDb();
    const before = (await db.select({ n: sql<number>`count(*)::int` }).from(orders))[0]!.n;
    expect(await addDemoOrders(db, 300)).toBe(before + 300);

    const written = await db.select().from(orders).where(sql`${orders.idempotencyKey} like 'demo-order-%'`);
    expect(written).toHaveLength(300);
    expect(new Set(written.map((order) => order.status)).size).toBeGreaterThanOrEqual(5);
    for (const order of written.slice(0, 40)) {
      expect(order.totalSatang).toBe(order.subtotalSatang + order.shippingFeeSatang);
      const events = await db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(orderEvents.createdAt);
      expect(events[0]).toMatchObject({ fromStatus: null, toStatus: 'pending_payment', actorType: 'member' });
      expect(events.at(-1)!.toStatus).toBe(order.status);
      const lines = await db.execute(sql`select sum(line_total_satang)::int as sum from order_lines where order_id = ${order.id}`);
      const [row] = (Array.isArray(lines) ? lines : (lines as { rows: unknown[] }).rows) as { sum: number }[];
      expect(row!.sum).toBe(order.subtotalSatang);
    }

    // A shopper's order after them takes the next number: no number is given twice.
    const highest = Math.max(...written.map((order) => Number(order.orderNo.slice(-5))));
    const product = await productWithStock(5);
    const placed = await placeTestOrder(await createMember(), [{ product_code: product.code, amount: 1 }]);
    expect(Number(placed.order.orderNo.slice(-5))).toBe(highest + 1);
  });
});
