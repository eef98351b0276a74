import { eq, lt, sql } from 'drizzle-orm';
import { getDb } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { tooManyRequests } from '../http/errors.ts';
import { env } from '../env.ts';

/**
 * Fixed-window counters in the database, so every instance of the shop sees the same counts.
 * Keys are `<what>:<who>` (for example `login-fail:acct:<email>`).
 */
export interface Limit {
  /** Name prefix of the key. */
  name: string;
  max: number;
  windowMs: number;
}

export const LIMITS = {
  /** One address guessing one account's password (docs/decisions/144). */
  loginFailPerAccountAndIp: { name: 'login-fail:acct-ip', max: 5, windowMs: 15 * 60_000 },
  /** One account guessed from many addresses: past this, only addresses it signed in from go on. */
  loginFailPerAccount: { name: 'login-fail:acct', max: 30, windowMs: 15 * 60_000 },
  loginFailPerIp: { name: 'login-fail:ip', max: 50, windowMs: 15 * 60_000 },
  availabilityPerIp: { name: 'check:ip', max: 60, windowMs: 60_000 },
  /** REGISTER_PER_IP_PER_HOUR, read when counted, so the operator's setting applies. */
  get registerPerIp(): Limit {
    return { name: 'register:ip', max: env().REGISTER_PER_IP_PER_HOUR, windowMs: 60 * 60_000 };
  },
  resetPerIp: { name: 'reset:ip', max: 20, windowMs: 60 * 60_000 },
  resetPerEmail: { name: 'reset:email', max: 5, windowMs: 60 * 60_000 },
  passwordChangeFail: { name: 'password-fail:member', max: 10, windowMs: 15 * 60_000 },
  /** Trips to LINE started from one address (each is a row until it comes back or expires; docs/decisions/211). */
  lineStartPerIp: { name: 'line-start:ip', max: 60, windowMs: 15 * 60_000 },
  /** A visitor's back-in-stock requests: each sends a confirmation mail (docs/decisions/220). */
  backInStockPerIp: { name: 'back-in-stock:ip', max: 20, windowMs: 60 * 60_000 },
  backInStockPerEmail: { name: 'back-in-stock:email', max: 5, windowMs: 60 * 60_000 },
  /** Review attempts of one member: each may decode three photos (docs/decisions/224). */
  reviewWritePerMember: { name: 'review-write:member', max: 30, windowMs: 60 * 60_000 },
} satisfies Record<string, Limit>;

/** Longer than the longest window above. */
const SWEEP_AFTER_MS = 24 * 60 * 60_000;

export const RATE_LIMIT_MESSAGE = 'ทำรายการบ่อยเกินไป กรุณารอสักครู่แล้วลองใหม่อีกครั้ง';

function keyOf(limit: Limit, who: string): string {
  return `${limit.name}:${who}`.slice(0, 400);
}

/** Adds one to the counter (starting a new window when the old one is over) and returns the new count. */
export async function hit(limit: Limit, who: string): Promise<number> {
  const db = await getDb();
  const now = new Date().toISOString();
  const windowStart = new Date(Date.now() - limit.windowMs).toISOString();
  const expired = sql`${rateLimits.windowStartedAt} <= ${windowStart}::timestamptz`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key: keyOf(limit, who), count: 1, windowStartedAt: sql`${now}::timestamptz` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${now}::timestamptz else ${rateLimits.windowStartedAt} end`,
      },
    })
    .returning({ count: rateLimits.count });
  // Old windows are swept now and then by whoever is counting, so the table stays small on every instance.
  if (Math.random() < 0.01) await db.delete(rateLimits).where(lt(rateLimits.windowStartedAt, new Date(Date.now() - SWEEP_AFTER_MS)));
  return row?.count ?? 1;
}

/** The count in the current window and the seconds until it ends, without adding to it. */
export async function window(limit: Limit, who: string): Promise<{ count: number; secondsLeft: number }> {
  const db = await getDb();
  const [row] = await db
    .select({ count: rateLimits.count, windowStartedAt: rateLimits.windowStartedAt })
    .from(rateLimits)
    .where(eq(rateLimits.key, keyOf(limit, who)));
  const left = row ? row.windowStartedAt.getTime() + limit.windowMs - Date.now() : 0;
  if (!row || left <= 0) return { count: 0, secondsLeft: 0 };
  return { count: row.count, secondsLeft: Math.ceil(left / 1000) };
}

export async function count(limit: Limit, who: string): Promise<number> {
  return (await window(limit, who)).count;
}

export async function clear(limit: Limit, who: string): Promise<void> {
  const db = await getDb();
  await db.delete(rateLimits).where(eq(rateLimits.key, keyOf(limit, who)));
}

/** Counts this request and refuses it with a Thai 429 once the window's allowance is used up. */
export async function consume(limit: Limit, who: string): Promise<void> {
  if ((await hit(limit, who)) > limit.max) throw tooManyRequests(RATE_LIMIT_MESSAGE, (await window(limit, who)).secondsLeft);
}

/** Refuses with 429 (and Retry-After) when the allowance is already used up (counters of failures only). */
export async function ensureBelow(limit: Limit, who: string): Promise<void> {
  const current = await window(limit, who);
  if (current.count >= limit.max) throw tooManyRequests(RATE_LIMIT_MESSAGE, current.secondsLeft);
}
