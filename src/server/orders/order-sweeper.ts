import { database } from '../db/client.ts';
import { env } from '../env.ts';
import { onShutdown } from '../lifecycle.ts';
import { errorFields, log } from '../log.ts';
import { expireUnpaidOrders } from './order-status.service.ts';
import { deliverLongShippedOrders } from './order-auto-deliver.ts';

/**
 * The periodic expiry of unpaid orders and, since issue 29, the automatic "received" of orders shipped
 * long ago (ORDER_SWEEP_SECONDS), one per process.
 */
const sweeperKey = Symbol.for('yimlamai.orderSweeper');

/**
 * Starts the periodic expiry in this process (idempotent). The server starts it once at start-up
 * (and the middleware under `astro dev`); reading an order or a price does not. unref() lets the
 * process exit; the shutdown hook stops it before the database closes. ORDER_SWEEP_SECONDS=0 leaves
 * it off (the operator CLI, which has `expire-unpaid` instead).
 */
export function startOrderSweeper(): void {
  const holder = globalThis as unknown as Record<symbol, NodeJS.Timeout | undefined>;
  if (holder[sweeperKey]) return;
  const seconds = env().ORDER_SWEEP_SECONDS;
  if (seconds === 0) return;
  const timer = setInterval(() => {
    void database()
      .then(() => expireUnpaidOrders())
      .then((expired) => {
        if (expired.length > 0) log.info('unpaid orders expired', { count: expired.length });
        return deliverLongShippedOrders();
      })
      .then((result) => {
        if (result.delivered.length > 0) log.info('shipped orders marked delivered', { count: result.delivered.length });
      })
      .catch((error: unknown) => log.error('order expiry sweep failed', errorFields(error)));
  }, seconds * 1000);
  timer.unref();
  holder[sweeperKey] = timer;
  onShutdown('order-expiry-sweep', () => {
    clearInterval(timer);
    holder[sweeperKey] = undefined;
  });
}
