import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { memberWishlist, members, products } from '../db/schema.ts';

/** Queries of the member wishlist (docs/decisions/209). Every one is scoped by member. */

export interface WishlistRow {
  code: string;
  name: string;
  unit: string;
  priceSatang: number;
  stock: number;
  image: string | null;
  active: boolean;
  addedAt: Date;
}

export async function listForMember(db: DbOrTx, memberId: string): Promise<WishlistRow[]> {
  return db
    .select({
      code: products.code,
      name: products.name,
      unit: products.unit,
      priceSatang: products.priceSatang,
      stock: products.stock,
      image: products.image,
      active: products.active,
      addedAt: memberWishlist.createdAt,
    })
    .from(memberWishlist)
    .innerJoin(products, eq(products.id, memberWishlist.productId))
    .where(eq(memberWishlist.memberId, memberId))
    .orderBy(desc(memberWishlist.createdAt), desc(products.id));
}

/** The product codes only, newest first: what the hearts of a page need. */
export async function codesForMember(db: DbOrTx, memberId: string): Promise<string[]> {
  const rows = await db
    .select({ code: products.code })
    .from(memberWishlist)
    .innerJoin(products, eq(products.id, memberWishlist.productId))
    .where(eq(memberWishlist.memberId, memberId))
    .orderBy(desc(memberWishlist.createdAt), desc(products.id));
  return rows.map((row) => row.code);
}

export async function countForMember(db: DbOrTx, memberId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(memberWishlist).where(eq(memberWishlist.memberId, memberId));
  return Number(row?.n ?? 0);
}

export async function countForProduct(db: DbOrTx, productId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(memberWishlist).where(eq(memberWishlist.productId, productId));
  return Number(row?.n ?? 0);
}

/** Takes the member's row lock, so two adds of one member at the cap cannot both pass the count. */
export async function lockMember(db: DbOrTx, memberId: string): Promise<boolean> {
  const rows = await db.select({ id: members.id }).from(members).where(eq(members.id, memberId)).for('update');
  return rows.length > 0;
}

export async function findProduct(db: DbOrTx, code: string): Promise<{ id: number; active: boolean } | null> {
  const [row] = await db.select({ id: products.id, active: products.active }).from(products).where(eq(products.code, code)).limit(1);
  return row ?? null;
}

export async function has(db: DbOrTx, memberId: string, productId: number): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(memberWishlist)
    .where(and(eq(memberWishlist.memberId, memberId), eq(memberWishlist.productId, productId)))
    .limit(1);
  return rows.length > 0;
}

export async function insert(db: DbOrTx, memberId: string, productId: number): Promise<void> {
  await db.insert(memberWishlist).values({ memberId, productId }).onConflictDoNothing();
}

export async function remove(db: DbOrTx, memberId: string, productId: number): Promise<void> {
  await db.delete(memberWishlist).where(and(eq(memberWishlist.memberId, memberId), eq(memberWishlist.productId, productId)));
}

export async function removeAllOfMember(db: DbOrTx, memberId: string): Promise<void> {
  await db.delete(memberWishlist).where(eq(memberWishlist.memberId, memberId));
}
