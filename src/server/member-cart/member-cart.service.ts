import { getDb, type DbOrTx } from '../db/client.ts';
import { AppError, notFound } from '../http/errors.ts';
import { priceCart } from '../cart/cart.service.ts';
import { variantsForSale } from '../catalog/variant.repo.ts';
import { MAX_CART_LINES, MAX_LINE_AMOUNT } from '../../lib/cart-limits.ts';
import {
  CART_TOMBSTONE_DAYS,
  MEMBER_CART_FULL_MESSAGE,
  droppedNote,
  mergeNote,
  type MemberCart,
  type MemberCartChange,
  type MemberCartDropped,
  type MemberCartLine,
  type MemberCartMerge,
} from '../../lib/member-cart.ts';
import * as repo from './member-cart.repo.ts';

/**
 * A member's saved cart (docs/decisions/218). The browser keeps the working cart; this copy lets it
 * follow the member. Rules:
 * - a change carries the time the shopper made it; per line, the latest change wins (a time later than
 *   the server's clock counts as now, so one device's fast clock cannot pin a line forever);
 * - a removal is a quantity 0 row kept CART_TOMBSTONE_DAYS days, so an older add sent late loses to it;
 * - at login the device's cart and the saved one merge: same variant, the larger amount;
 * - unknown or withdrawn variants are not saved: they come back in `dropped` with a Thai note.
 * Shopper actions on their own cart: no audit rows, no mails (like the wishlist, decision 209).
 */

const DAY_MS = 86_400_000;
const memberNotFound = () => notFound('member_not_found', 'ไม่พบข้อมูลสมาชิก');

/** The lines as the cart shows them: priced now, with the withdrawn ones set apart. */
async function answer(db: DbOrTx, memberId: string, alsoDropped: MemberCartDropped[] = []): Promise<MemberCart> {
  const rows = await repo.liveLinesOf(db, memberId);
  const dropped = [...alsoDropped];
  const lines: MemberCartLine[] = [];
  if (rows.length > 0) {
    const priced = await priceCart({ items: rows.map((row) => ({ product_code: row.code, amount: row.quantity })) }, { db });
    const byCode = new Map(priced.lines.map((line) => [line.product_code, line]));
    for (const row of rows) {
      const line = byCode.get(row.code);
      if (!line || line.unavailable || line.product_name === null) {
        if (!dropped.some((entry) => entry.code === row.code)) dropped.push({ code: row.code, reason: 'unavailable' });
        continue;
      }
      lines.push({
        code: row.code,
        quantity: row.quantity,
        updated_at: row.updatedAt.toISOString(),
        name: line.product_name,
        image: line.product_image,
        stock: line.stock,
        unit_price: line.unit_price,
        retail_price: line.retail_price,
        tiers: line.tiers.map((tier) => ({ min_quantity: tier.min_quantity, price: tier.price })),
      });
    }
  }
  return { lines, dropped, note: droppedNote(dropped) };
}

/** The saved cart (GET /api/user/cart). */
export async function savedCart(memberId: string): Promise<MemberCart> {
  return answer(await getDb(), memberId);
}

/** Which of the codes are variants on sale, and which exist at all (on sale or not). */
async function variantsOf(db: DbOrTx, codes: readonly string[]): Promise<{ onSale: Set<string>; known: Set<string> }> {
  const rows = await variantsForSale(db, [...new Set(codes)]);
  return { onSale: new Set(rows.filter((row) => row.active).map((row) => row.code)), known: new Set(rows.map((row) => row.code)) };
}

/**
 * Applies changes made on a device (PATCH /api/user/cart): per line, the latest change wins; an older
 * one is ignored. A cart that would hold more than MAX_CART_LINES lines is refused whole (409).
 */
export async function applyCartChanges(memberId: string, changes: readonly MemberCartChange[], now = new Date()): Promise<MemberCart & { applied: number; ignored: number }> {
  // Two changes of one line in one request: the later counts.
  const latest = new Map<string, { quantity: number; at: Date }>();
  for (const change of changes) {
    const at = new Date(Math.min(Date.parse(change.updated_at), now.getTime()));
    const seen = latest.get(change.code);
    if (!seen || at.getTime() >= seen.at.getTime()) latest.set(change.code, { quantity: change.quantity, at });
  }
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (!(await repo.lockMember(tx, memberId))) throw memberNotFound();
    const stored = new Map((await repo.allRowsOf(tx, memberId)).map((row) => [row.code, row]));
    const { onSale, known } = await variantsOf(tx, [...latest.keys()]);
    const dropped: MemberCartDropped[] = [];
    let applied = 0;
    let ignored = 0;
    for (const [code, { quantity, at }] of latest) {
      const row = stored.get(code);
      if (row && row.updatedAt.getTime() > at.getTime()) {
        ignored += 1;
        continue;
      }
      if (quantity > 0 && !onSale.has(code)) {
        dropped.push({ code, reason: 'unavailable' });
        continue;
      }
      // A removal of what was never saved nor sold needs no tombstone.
      if (quantity === 0 && !row && !known.has(code)) continue;
      await repo.writeLine(tx, memberId, code, Math.min(quantity, MAX_LINE_AMOUNT), at);
      applied += 1;
    }
    if ((await repo.liveCountOf(tx, memberId)) > MAX_CART_LINES) throw new AppError(409, 'member_cart_full', MEMBER_CART_FULL_MESSAGE);
    await repo.pruneRemovals(tx, memberId, new Date(now.getTime() - CART_TOMBSTONE_DAYS * DAY_MS));
    return { ...(await answer(tx, memberId, dropped)), applied, ignored };
  });
}

/**
 * The device's cart meets the saved one at login (POST /api/user/cart/merge): same variant, the larger
 * amount, written now. Lines that do not fit under MAX_CART_LINES are dropped with a note, so a login
 * never fails over the cart. Answers the merged cart and what moved which way.
 */
export async function mergeIntoSavedCart(memberId: string, items: readonly { code: string; quantity: number }[], now = new Date()): Promise<MemberCartMerge> {
  const device = new Map<string, number>();
  for (const item of items) device.set(item.code, Math.min(MAX_LINE_AMOUNT, Math.max(device.get(item.code) ?? 0, item.quantity)));
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (!(await repo.lockMember(tx, memberId))) throw memberNotFound();
    const stored = new Map((await repo.allRowsOf(tx, memberId)).map((row) => [row.code, row]));
    const { onSale } = await variantsOf(tx, [...device.keys()]);
    const dropped: MemberCartDropped[] = [];
    let live = [...stored.values()].filter((row) => row.quantity > 0).length;
    let fromDevice = 0;
    for (const [code, quantity] of device) {
      if (quantity < 1) continue;
      if (!onSale.has(code)) {
        dropped.push({ code, reason: 'unavailable' });
        continue;
      }
      const saved = stored.get(code)?.quantity ?? 0;
      if (quantity <= saved) continue;
      if (saved === 0 && live >= MAX_CART_LINES) {
        dropped.push({ code, reason: 'full' });
        continue;
      }
      if (saved === 0) live += 1;
      await repo.writeLine(tx, memberId, code, quantity, now);
      fromDevice += 1;
    }
    const merged = await answer(tx, memberId, dropped);
    const fromAccount = merged.lines.filter((line) => line.quantity > (device.get(line.code) ?? 0)).length;
    return { ...merged, from_account: fromAccount, from_device: fromDevice, merge_note: mergeNote(fromAccount, fromDevice) };
  });
}

/** A member's saved cart for the back office (read-only): every line, withdrawn ones flagged. */
export interface StaffCartLine {
  code: string;
  name: string | null;
  quantity: number;
  updatedAt: Date;
  available: boolean;
}

export async function savedCartForStaff(memberId: string): Promise<StaffCartLine[]> {
  const db = await getDb();
  const rows = await repo.liveLinesOf(db, memberId);
  if (rows.length === 0) return [];
  const variants = new Map((await variantsForSale(db, rows.map((row) => row.code))).map((row) => [row.code, row]));
  return rows.map((row) => {
    const variant = variants.get(row.code);
    return { code: row.code, name: variant?.name ?? null, quantity: row.quantity, updatedAt: row.updatedAt, available: variant?.active ?? false };
  });
}
