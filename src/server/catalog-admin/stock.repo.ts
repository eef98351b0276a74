import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { products, productVariants, stockMovements, type StockMovementKind } from '../db/schema.ts';

export interface StockMovementInput {
  productId: number;
  /** The variant whose stock moved: `stock_after` is then its figure (docs/decisions/205). */
  variantId?: number | null;
  delta: number;
  kind: StockMovementKind;
  reason?: string;
  orderNo?: string | null;
  actorEmail?: string;
}

/**
 * Writes stock history rows. Call it in the transaction that changed `products.stock`, after the change:
 * `stock_after` is read from the (locked) product row, so it is the figure that change left.
 */
export async function recordStockMovements(tx: DbOrTx, rows: readonly StockMovementInput[]): Promise<void> {
  for (const row of rows) {
    if (row.delta === 0) continue;
    await tx.insert(stockMovements).values({
      productId: row.productId,
      variantId: row.variantId ?? null,
      delta: row.delta,
      stockAfter: row.variantId
        ? sql`(select ${productVariants.stock} from ${productVariants} where ${productVariants.id} = ${row.variantId})`
        : sql`(select ${products.stock} from ${products} where ${products.id} = ${row.productId})`,
      kind: row.kind,
      reason: (row.reason ?? '').slice(0, 500),
      orderNo: row.orderNo ?? null,
      actorEmail: (row.actorEmail ?? '').slice(0, 200),
    });
  }
}

export interface StockMovementRow {
  id: number;
  /** The variant's code (null for a movement before variants or of a deleted variant). */
  variantCode: string | null;
  delta: number;
  stockAfter: number;
  kind: StockMovementKind;
  reason: string;
  orderNo: string | null;
  actorEmail: string;
  at: Date;
}

/** Newest first (ids follow commit order closely enough and, unlike `at`, never tie), keyset-paged by id. */
export async function stockHistory(db: DbOrTx, productId: number, limit: number, beforeId?: number): Promise<StockMovementRow[]> {
  return db
    .select({
      id: stockMovements.id,
      variantCode: productVariants.code,
      delta: stockMovements.delta,
      stockAfter: stockMovements.stockAfter,
      kind: stockMovements.kind,
      reason: stockMovements.reason,
      orderNo: stockMovements.orderNo,
      actorEmail: stockMovements.actorEmail,
      at: stockMovements.at,
    })
    .from(stockMovements)
    .leftJoin(productVariants, eq(productVariants.id, stockMovements.variantId))
    .where(and(eq(stockMovements.productId, productId), beforeId ? lt(stockMovements.id, beforeId) : undefined))
    .orderBy(desc(stockMovements.id))
    .limit(limit);
}
