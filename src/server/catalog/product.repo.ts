import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { brands, categories, productPriceTiers, products } from '../db/schema.ts';
import type { ProductSummary } from '../../lib/types.ts';

/** Columns of a product card; rows leave the repo as plain ProductSummary objects. */
export const summaryColumns = {
  id: products.id,
  code: products.code,
  name: products.name,
  priceSatang: products.priceSatang,
  wholesaleFromSatang: sql<number | null>`(select min(${productPriceTiers.priceSatang}) from ${productPriceTiers} where ${productPriceTiers.productId} = ${products.id})`,
  stock: products.stock,
  image: products.image,
  categoryCode: categories.code,
  categoryName: categories.name,
  brandCode: brands.code,
  brandName: brands.name,
  createdAt: products.createdAt,
};

type SummaryRow = Omit<ProductSummary, 'createdAt' | 'wholesaleFromSatang'> & {
  createdAt: Date;
  wholesaleFromSatang: number | string | null;
};

export function toSummary(row: SummaryRow): ProductSummary {
  return {
    ...row,
    wholesaleFromSatang: row.wholesaleFromSatang === null ? null : Number(row.wholesaleFromSatang),
    createdAt: row.createdAt.toISOString(),
  };
}

export function summaryQuery(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(summaryColumns)
    .from(products)
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .leftJoin(brands, eq(brands.id, products.brandId))
    .where(and(eq(products.active, true), where));
}

export async function newArrivals(db: DbOrTx, limit: number): Promise<ProductSummary[]> {
  const rows = await summaryQuery(db, undefined).orderBy(desc(products.createdAt), desc(products.id)).limit(limit);
  return rows.map(toSummary);
}

/**
 * Random recommended products. Uses TABLESAMPLE-free random offset on the recommended subset so it
 * stays cheap with 100,000 products.
 */
export async function randomRecommended(db: DbOrTx, limit: number): Promise<ProductSummary[]> {
  const rows = await summaryQuery(db, and(eq(products.recommended, true), sql`${products.stock} > 0`))
    .orderBy(sql`random()`)
    .limit(limit);
  return rows.map(toSummary);
}
