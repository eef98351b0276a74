import { and, asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { categories, products } from '../db/schema.ts';
import type { CategorySummary } from '../../lib/types.ts';

export async function listActiveCategories(db: DbOrTx): Promise<CategorySummary[]> {
  const rows = await db
    .select({
      id: categories.id,
      code: categories.code,
      name: categories.name,
      nameEn: categories.nameEn,
      image: categories.image,
      productCount: count(products.id),
    })
    .from(categories)
    .leftJoin(products, and(eq(products.categoryId, categories.id), eq(products.active, true)))
    .where(eq(categories.active, true))
    .groupBy(categories.id)
    .orderBy(asc(categories.sortOrder), asc(categories.id));
  return rows;
}
