import { and, asc, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { memberCartLines, members } from '../db/schema.ts';

/** Queries of a member's saved cart (docs/decisions/218). Every one is scoped by member. */

export interface SavedLineRow {
  code: string;
  quantity: number;
  updatedAt: Date;
}

const lineColumns = { code: memberCartLines.variantCode, quantity: memberCartLines.quantity, updatedAt: memberCartLines.updatedAt };

/** Every row, removals (quantity 0) included: what the last-write-wins rule compares against. */
export async function allRowsOf(db: DbOrTx, memberId: string): Promise<SavedLineRow[]> {
  return db.select(lineColumns).from(memberCartLines).where(eq(memberCartLines.memberId, memberId));
}

/** The lines in the cart (quantity above 0), oldest change first, so a cart reads in the order it grew. */
export async function liveLinesOf(db: DbOrTx, memberId: string): Promise<SavedLineRow[]> {
  return db
    .select(lineColumns)
    .from(memberCartLines)
    .where(and(eq(memberCartLines.memberId, memberId), gt(memberCartLines.quantity, 0)))
    .orderBy(asc(memberCartLines.updatedAt), asc(memberCartLines.variantCode));
}

export async function liveCountOf(db: DbOrTx, memberId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(memberCartLines)
    .where(and(eq(memberCartLines.memberId, memberId), gt(memberCartLines.quantity, 0)));
  return Number(row?.n ?? 0);
}

/** Takes the member's row lock: two devices saving at once apply one after the other. */
export async function lockMember(db: DbOrTx, memberId: string): Promise<boolean> {
  const rows = await db.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('update');
  return rows.length > 0;
}

export async function writeLine(db: DbOrTx, memberId: string, code: string, quantity: number, at: Date): Promise<void> {
  await db
    .insert(memberCartLines)
    .values({ memberId, variantCode: code, quantity, updatedAt: at })
    .onConflictDoUpdate({
      target: [memberCartLines.memberId, memberCartLines.variantCode],
      set: { quantity: sql`excluded.quantity`, updatedAt: sql`excluded.updated_at` },
    });
}

/** Forgets removals older than `before`: by then every device has long sent what it held. */
export async function pruneRemovals(db: DbOrTx, memberId: string, before: Date): Promise<void> {
  await db
    .delete(memberCartLines)
    .where(and(eq(memberCartLines.memberId, memberId), eq(memberCartLines.quantity, 0), lt(memberCartLines.updatedAt, before)));
}

export async function removeAllOfMember(db: DbOrTx, memberId: string): Promise<void> {
  await db.delete(memberCartLines).where(eq(memberCartLines.memberId, memberId));
}
