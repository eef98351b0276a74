import { getDb } from '../db/client.ts';
import * as adminRepo from '../orders/admin-orders.repo.ts';
import { bangkokDate, bangkokDayStart } from '../../lib/admin-orders.ts';

/** What the owner looks at first (docs/design.md section 10): sales, work waiting, stock running out, best sellers. */
export const LOW_STOCK_AT = 5;

export interface Dashboard {
  sales: { today: number; week: number; month: number; ordersToday: number; ordersWeek: number; ordersMonth: number };
  /** The last 30 Bangkok days, oldest first, zero-filled. */
  days: { day: string; totalSatang: number; orders: number }[];
  waiting: { toPay: number; review: number; toShip: number; shipping: number };
  lowStock: { code: string; name: string; stock: number }[];
  bestSellers: { code: string; name: string; amount: number; totalSatang: number }[];
}

export async function dashboard(now = new Date()): Promise<Dashboard> {
  const db = await getDb();
  const today = bangkokDate(now);
  const start = bangkokDayStart(today);
  const monthStart = new Date(start.getTime() - 29 * 86_400_000);
  const [byDay, counts, low, best] = await Promise.all([
    adminRepo.salesByDay(db, monthStart),
    adminRepo.countByStatus(db),
    adminRepo.lowStock(db, LOW_STOCK_AT, 10),
    adminRepo.bestSellers(db, monthStart, 10),
  ]);
  const found = new Map(byDay.map((entry) => [entry.day, entry]));
  const days = Array.from({ length: 30 }, (_, index) => {
    const day = bangkokDate(new Date(monthStart.getTime() + index * 86_400_000 + 12 * 3_600_000));
    return found.get(day) ?? { day, totalSatang: 0, orders: 0 };
  });
  const sum = (from: number, key: 'totalSatang' | 'orders') => days.slice(from).reduce((total, entry) => total + entry[key], 0);
  return {
    sales: {
      today: sum(29, 'totalSatang'),
      week: sum(23, 'totalSatang'),
      month: sum(0, 'totalSatang'),
      ordersToday: sum(29, 'orders'),
      ordersWeek: sum(23, 'orders'),
      ordersMonth: sum(0, 'orders'),
    },
    days,
    waiting: {
      toPay: counts.get('pending_payment') ?? 0,
      review: counts.get('payment_review') ?? 0,
      toShip: counts.get('paid') ?? 0,
      shipping: counts.get('shipped') ?? 0,
    },
    lowStock: low,
    bestSellers: best,
  };
}
