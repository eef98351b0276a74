import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { backInStockRequests, products, productVariants } from '../db/schema.ts';

/** Queries of back-in-stock requests (docs/decisions/220). */

export interface RequestVariant {
  id: number;
  code: string;
  stock: number;
  productCode: string;
  productName: string;
  optionNames: string[];
  values: (string | null)[];
}

const variantColumns = {
  id: productVariants.id,
  code: productVariants.code,
  stock: productVariants.stock,
  productCode: products.code,
  productName: products.name,
  optionNames: products.optionNames,
  option1: productVariants.option1,
  option2: productVariants.option2,
  option3: productVariants.option3,
};

interface VariantRow extends Omit<RequestVariant, 'values'> {
  option1: string | null;
  option2: string | null;
  option3: string | null;
}

function toVariant(row: VariantRow): RequestVariant {
  return {
    id: row.id,
    code: row.code,
    stock: row.stock,
    productCode: row.productCode,
    productName: row.productName,
    optionNames: row.optionNames,
    values: [row.option1, row.option2, row.option3],
  };
}

/**
 * A variant on sale, by its code (any case), its row share-locked: a restock waits for this request to
 * commit, so its trigger sees the request (or this request sees the stock it wrote).
 */
export async function lockVariantOnSale(tx: DbOrTx, code: string): Promise<RequestVariant | null> {
  const [row] = await tx
    .select(variantColumns)
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(sql`lower(${productVariants.code}) = lower(${code})`, eq(productVariants.active, true), eq(products.active, true)))
    .limit(1)
    .for('share', { of: productVariants });
  return row ? toVariant(row) : null;
}

/** A variant by its exact code, sold or not (mails and pages name what was asked for). */
export async function findVariant(db: DbOrTx, code: string): Promise<RequestVariant | null> {
  const [row] = await db
    .select(variantColumns)
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.code, code))
    .limit(1);
  return row ? toVariant(row) : null;
}

/** A variant by its id; `lock` share-locks it, like lockVariantOnSale. */
export async function findVariantById(db: DbOrTx, id: number, lock = false): Promise<RequestVariant | null> {
  const query = db.select(variantColumns).from(productVariants).innerJoin(products, eq(products.id, productVariants.productId)).where(eq(productVariants.id, id)).limit(1);
  const [row] = lock ? await query.for('share', { of: productVariants }) : await query;
  return row ? toVariant(row) : null;
}

export type RequestRow = typeof backInStockRequests.$inferSelect;

export async function findOfMember(db: DbOrTx, variantId: number, memberId: string): Promise<RequestRow | null> {
  const [row] = await db
    .select()
    .from(backInStockRequests)
    .where(and(eq(backInStockRequests.variantId, variantId), eq(backInStockRequests.memberId, memberId)))
    .limit(1);
  return row ?? null;
}

export async function findOfEmail(db: DbOrTx, variantId: number, email: string): Promise<RequestRow | null> {
  const [row] = await db
    .select()
    .from(backInStockRequests)
    .where(and(eq(backInStockRequests.variantId, variantId), eq(backInStockRequests.email, email)))
    .limit(1);
  return row ?? null;
}

export async function findByToken(db: DbOrTx, token: string): Promise<RequestRow | null> {
  const [row] = await db.select().from(backInStockRequests).where(eq(backInStockRequests.token, token)).limit(1);
  return row ?? null;
}

export async function insert(db: DbOrTx, values: typeof backInStockRequests.$inferInsert): Promise<void> {
  await db.insert(backInStockRequests).values(values);
}

/** A fulfilled or unconfirmed request asked again: waiting anew, under a new token. */
export async function renew(db: DbOrTx, id: number, values: { token: string; confirmedAt: Date | null }): Promise<void> {
  await db.update(backInStockRequests).set({ ...values, notifiedAt: null, createdAt: sql`now()` }).where(eq(backInStockRequests.id, id));
}

/** Confirms a visitor's request; null when the token names none. */
export async function confirm(db: DbOrTx, token: string): Promise<RequestRow | null> {
  const [row] = await db
    .update(backInStockRequests)
    .set({ confirmedAt: sql`coalesce(${backInStockRequests.confirmedAt}, now())` })
    .where(eq(backInStockRequests.token, token))
    .returning();
  return row ?? null;
}

/** Confirmed while the variant is in stock already: nothing to wait for, so it is done. */
export async function markNotified(db: DbOrTx, id: number): Promise<void> {
  await db.update(backInStockRequests).set({ notifiedAt: sql`now()` }).where(eq(backInStockRequests.id, id));
}

export async function removeById(db: DbOrTx, id: number): Promise<void> {
  await db.delete(backInStockRequests).where(eq(backInStockRequests.id, id));
}

export async function removeOfMember(db: DbOrTx, variantId: number, memberId: string): Promise<void> {
  await db.delete(backInStockRequests).where(and(eq(backInStockRequests.variantId, variantId), eq(backInStockRequests.memberId, memberId)));
}

/** Closing an account: the member's requests, and any a visitor made with the same address. */
export async function removeAllOf(db: DbOrTx, memberId: string, email: string): Promise<void> {
  await db.delete(backInStockRequests).where(or(eq(backInStockRequests.memberId, memberId), eq(backInStockRequests.email, email.toLowerCase())));
}

/** The member's requests, newest first (their data download). */
export async function listOfMember(db: DbOrTx, memberId: string): Promise<{ code: string; confirmedAt: Date | null; notifiedAt: Date | null; createdAt: Date }[]> {
  return db
    .select({ code: productVariants.code, confirmedAt: backInStockRequests.confirmedAt, notifiedAt: backInStockRequests.notifiedAt, createdAt: backInStockRequests.createdAt })
    .from(backInStockRequests)
    .innerJoin(productVariants, eq(productVariants.id, backInStockRequests.variantId))
    .where(eq(backInStockRequests.memberId, memberId))
    .orderBy(desc(backInStockRequests.createdAt));
}

const waiting = and(isNotNull(backInStockRequests.confirmedAt), isNull(backInStockRequests.notifiedAt));

/** Confirmed requests not yet mailed, per variant of the given ones. */
export async function waitingPerVariant(db: DbOrTx, variantIds: readonly number[]): Promise<Map<number, number>> {
  if (variantIds.length === 0) return new Map();
  const rows = await db
    .select({ variantId: backInStockRequests.variantId, n: count() })
    .from(backInStockRequests)
    .where(and(inArray(backInStockRequests.variantId, [...variantIds]), waiting))
    .groupBy(backInStockRequests.variantId);
  return new Map(rows.map((row) => [row.variantId, Number(row.n)]));
}

export interface WaitingVariant extends RequestVariant {
  waiting: number;
}

/** The variants the most customers wait for (the dashboard's demand signal). */
export async function mostWaited(db: DbOrTx, limit: number): Promise<WaitingVariant[]> {
  const n = count();
  const rows = await db
    .select({ ...variantColumns, waiting: n })
    .from(backInStockRequests)
    .innerJoin(productVariants, eq(productVariants.id, backInStockRequests.variantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(waiting)
    .groupBy(productVariants.id, products.id)
    .orderBy(desc(n), asc(productVariants.code))
    .limit(limit);
  return rows.map((row) => ({ ...toVariant(row), waiting: Number(row.waiting) }));
}
