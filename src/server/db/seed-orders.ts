/**
 * `npm run db:seed -- --orders N` (scripts/seed.ts): N demo orders written in bulk for scale tests and
 * the measured move to PostgreSQL (docs/operations.md), by a thousand demo buyers over the past year:
 * one to three lines of catalog products each, the statuses a shop has after a year (most delivered,
 * some waiting, cancelled or expired), each status change as an event, numbered from the shop's own
 * sequence. Not the checkout's path (no stock taken, no mails, no receipts): rows as the shop keeps them.
 */
import { count, sql } from 'drizzle-orm';
import type { OrderStatus, PaymentMethod } from '../../lib/orders.ts';
import { includedVat } from '../../lib/money.ts';
import { hashPassword } from '../auth/password.ts';
import type { Db } from './database.ts';
import * as schema from './schema.ts';

const BUYERS = 1000;
const BATCH = 1000;
const DAY_MS = 86_400_000;

/** What a year of orders looks like, in parts of a hundred. */
const STATUS_MIX: [OrderStatus, number][] = [
  ['delivered', 62],
  ['shipped', 8],
  ['paid', 6],
  ['payment_review', 4],
  ['pending_payment', 5],
  ['cancelled', 7],
  ['expired', 8],
];

/** The path an order of each status took, from placing it. */
const PATHS: Record<OrderStatus, OrderStatus[]> = {
  pending_payment: ['pending_payment'],
  payment_review: ['pending_payment', 'payment_review'],
  paid: ['pending_payment', 'payment_review', 'paid'],
  shipped: ['pending_payment', 'payment_review', 'paid', 'shipped'],
  delivered: ['pending_payment', 'payment_review', 'paid', 'shipped', 'delivered'],
  cancelled: ['pending_payment', 'cancelled'],
  expired: ['pending_payment', 'expired'],
};

/** A small fixed generator, so two runs write the same shop. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

async function demoBuyers(db: Db): Promise<{ id: string; firstName: string; lastName: string; phone: string }[]> {
  const passwordHash = await hashPassword('demo-buyer-password');
  const wanted = Array.from({ length: BUYERS }, (_, i) => ({
    firstName: 'ลูกค้า',
    lastName: `ทดสอบ ${i + 1}`,
    email: `demo-buyer-${String(i + 1).padStart(4, '0')}@example.com`,
    phone: `097${String(i + 1).padStart(7, '0')}`,
    passwordHash,
  }));
  await db.insert(schema.members).values(wanted).onConflictDoNothing();
  const rows = await db
    .select({ id: schema.members.id, firstName: schema.members.firstName, lastName: schema.members.lastName, phone: schema.members.phone, email: schema.members.email })
    .from(schema.members)
    .where(sql`${schema.members.email} like 'demo-buyer-%@example.com'`);
  return rows;
}

/** Adds `wanted` demo orders; returns how many orders the shop holds afterwards. */
export async function addDemoOrders(db: Db, wanted: number, onProgress?: (done: number) => void): Promise<number> {
  const buyers = await demoBuyers(db);
  const products = await db
    .select({ id: schema.products.id, code: schema.products.code, name: schema.products.name, image: schema.products.image, price: schema.products.priceSatang })
    .from(schema.products)
    .orderBy(schema.products.id)
    .limit(5000);
  if (products.length === 0) throw new Error('no products: seed the catalog first');
  const next = random(wanted);
  const pick = <T,>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const statusFor = () => {
    let roll = next() * 100;
    for (const [status, share] of STATUS_MIX) {
      roll -= share;
      if (roll < 0) return status;
    }
    return 'delivered' as const;
  };
  const result = await db.execute(sql`select nextval('order_number_seq')::int as first`);
  const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { first: number }[];
  const firstSequence = Number(row?.first ?? 1);
  const now = Date.now();
  for (let from = 0; from < wanted; from += BATCH) {
    const size = Math.min(BATCH, wanted - from);
    const orders: (typeof schema.orders.$inferInsert)[] = [];
    const lines: Omit<typeof schema.orderLines.$inferInsert, 'orderId'>[][] = [];
    const paths: { status: OrderStatus; at: Date }[][] = [];
    for (let i = 0; i < size; i++) {
      const n = from + i;
      const buyer = pick(buyers);
      const status = statusFor();
      const payment: PaymentMethod = next() < 0.6 ? 'promptpay' : 'bank_transfer';
      const placed = new Date(now - Math.floor(next() * 365 * DAY_MS) - DAY_MS);
      const orderLines = Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
        const product = pick(products);
        const amount = 1 + Math.floor(next() * 3);
        return { productId: product.id, productCode: product.code, productName: product.name, productImage: product.image, unitPriceSatang: product.price, amount, lineTotalSatang: product.price * amount };
      });
      const subtotal = orderLines.reduce((sum, line) => sum + line.lineTotalSatang, 0);
      const shipping = subtotal >= 100_000 ? 0 : 5_000;
      const steps = PATHS[status].map((step, k) => ({ status: step, at: new Date(placed.getTime() + k * (DAY_MS / 2)) }));
      const at = (step: OrderStatus) => steps.find((entry) => entry.status === step)?.at ?? null;
      const sequence = firstSequence + n;
      const day = new Date(placed.getTime() + 7 * 3_600_000).toISOString().slice(2, 10).replace(/-/g, '');
      orders.push({
        orderNo: `YL${day}${String(sequence).padStart(5, '0')}`,
        memberId: buyer.id,
        status,
        paymentMethod: payment,
        deliveryCode: 'kerry',
        deliveryName: 'Kerry Express',
        shippingFeeSatang: shipping,
        subtotalSatang: subtotal,
        totalSatang: subtotal + shipping,
        vatSatang: includedVat(subtotal + shipping),
        address: {
          recipientName: `${buyer.firstName} ${buyer.lastName}`,
          phone: buyer.phone,
          line1: `${1 + (n % 300)} ถนนสุขุมวิท`,
          subdistrict: 'คลองเตย',
          district: 'คลองเตย',
          province: 'กรุงเทพมหานคร',
          postcode: '10110',
        },
        idempotencyKey: `demo-order-${sequence}`,
        expiresAt: status === 'pending_payment' || status === 'expired' ? new Date(placed.getTime() + DAY_MS) : null,
        paidAt: at('paid'),
        shippedAt: at('shipped'),
        deliveredAt: at('delivered'),
        cancelledAt: at('cancelled'),
        carrier: at('shipped') ? 'Kerry Express' : null,
        trackingNo: at('shipped') ? `SHP${String(5_000_000_000 + sequence)}` : null,
        createdAt: placed,
        updatedAt: steps.at(-1)!.at,
      });
      lines.push(orderLines);
      paths.push(steps);
    }
    await db.transaction(async (tx) => {
      const inserted = await tx.insert(schema.orders).values(orders).returning({ id: schema.orders.id });
      await tx.insert(schema.orderLines).values(inserted.flatMap((row, i) => lines[i]!.map((line) => ({ ...line, orderId: row.id }))));
      await tx.insert(schema.orderEvents).values(
        inserted.flatMap((row, i) =>
          paths[i]!.map((step, k) => ({
            orderId: row.id,
            fromStatus: k === 0 ? null : paths[i]![k - 1]!.status,
            toStatus: step.status,
            actorType: k === 0 ? ('member' as const) : step.status === 'expired' ? ('system' as const) : ('staff' as const),
            note: k === 0 ? 'สั่งซื้อสินค้า' : '',
            createdAt: step.at,
          })),
        ),
      );
    });
    onProgress?.(from + size);
  }
  // The shop's next order takes the number after the last one written here.
  await db.execute(sql`select setval('order_number_seq', ${firstSequence + wanted - 1})`);
  await db.execute(sql`vacuum analyze orders`);
  const [total] = await db.select({ n: count() }).from(schema.orders);
  return total?.n ?? 0;
}
