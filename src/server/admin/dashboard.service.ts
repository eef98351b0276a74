import { getDb } from '../db/client.ts';
import * as adminRepo from '../orders/admin-orders.repo.ts';
import { bangkokDate, bangkokDayStart } from '../../lib/admin-orders.ts';
import { LOW_STOCK } from '../../lib/product-rules.ts';
import { countByStatus as reviewCounts } from '../reviews/review-moderation.repo.ts';

/**
 * What the owner looks at first (docs/design.md section 10; issue 32, screen 5): a to-do list like
 * Shopee's สิ่งที่ต้องทำ. Orders waiting by kind, unpaid orders whose time to pay ends today, products
 * sold out and running low (the same line as the product list's stock filter, so "ดูทั้งหมด" lists the
 * counted products), sales, best sellers.
 */
export const LOW_STOCK_AT = LOW_STOCK;
/** Rows shown per list; each list's count and "ดูทั้งหมด" cover the rest. */
export const DASHBOARD_ROWS = 5;

export interface StockRow {
  code: string;
  name: string;
  stock: number;
}

export interface Dashboard {
  /** The Bangkok calendar dates of today and of 6 and 29 days ago, for the sales links. */
  dates: { today: string; weekStart: string; monthStart: string };
  sales: { today: number; week: number; month: number; ordersToday: number; ordersWeek: number; ordersMonth: number };
  /** The last 30 Bangkok days, oldest first, zero-filled. */
  days: { day: string; totalSatang: number; orders: number }[];
  waiting: { toPay: number; review: number; toShip: number; shipping: number };
  /** Unpaid orders whose time to pay ends between now and midnight in Bangkok. */
  expiringToday: { rows: { orderNo: string; totalSatang: number; expiresAt: string; recipient: string }[]; total: number };
  soldOut: { rows: StockRow[]; total: number };
  runningLow: { rows: StockRow[]; total: number };
  bestSellers: { code: string; name: string; amount: number; totalSatang: number }[];
  /** issue 31 part 3: reviews waiting for the shop's approval ("รีวิวรอตรวจ"). */
  pendingReviews: number;
}

export async function dashboard(now = new Date()): Promise<Dashboard> {
  const db = await getDb();
  const today = bangkokDate(now);
  const start = bangkokDayStart(today);
  const tomorrow = new Date(start.getTime() + 86_400_000);
  const monthStart = new Date(start.getTime() - 29 * 86_400_000);
  const [byDay, counts, soldOut, runningLow, best, expiring, reviews] = await Promise.all([
    adminRepo.salesByDay(db, monthStart),
    adminRepo.countByStatus(db),
    adminRepo.lowStock(db, 'out', LOW_STOCK, DASHBOARD_ROWS),
    adminRepo.lowStock(db, 'low', LOW_STOCK, DASHBOARD_ROWS),
    adminRepo.bestSellers(db, monthStart, 10),
    adminRepo.unpaidExpiring(db, now, tomorrow, DASHBOARD_ROWS),
    reviewCounts(db),
  ]);
  const found = new Map(byDay.map((entry) => [entry.day, entry]));
  const days = Array.from({ length: 30 }, (_, index) => {
    const day = bangkokDate(new Date(monthStart.getTime() + index * 86_400_000 + 12 * 3_600_000));
    return found.get(day) ?? { day, totalSatang: 0, orders: 0 };
  });
  const sum = (from: number, key: 'totalSatang' | 'orders') => days.slice(from).reduce((total, entry) => total + entry[key], 0);
  return {
    dates: { today, weekStart: days[23]!.day, monthStart: days[0]!.day },
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
    expiringToday: expiring,
    soldOut,
    runningLow,
    bestSellers: best,
    pendingReviews: reviews.pending,
  };
}
