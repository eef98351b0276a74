import { and, asc, count, desc, eq, inArray, isNull, lte, gt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { brands, categories, productImages, productPriceTiers, products, productVariants } from '../db/schema.ts';
import { escapeLike, searchKey } from '../../lib/thai-text.ts';
import { keywordTerms } from '../catalog/search.repo.ts';
import { LOW_STOCK, type StockState, type TierInput } from '../../lib/product-rules.ts';

export type AdminSort = 'updated' | 'name' | 'code' | 'price_asc' | 'price_desc' | 'stock_asc' | 'stock_desc';
export const ADMIN_SORTS: readonly AdminSort[] = ['updated', 'name', 'code', 'price_asc', 'price_desc', 'stock_asc', 'stock_desc'];

export interface AdminProductFilter {
  q: string;
  categoryId: number | null;
  brandId: number | null;
  stock: StockState | null;
  active: boolean | null;
  sort: AdminSort;
  page: number;
  pageSize: number;
}

export interface AdminProductRow {
  id: number;
  code: string;
  name: string;
  image: string | null;
  priceSatang: number;
  stock: number;
  active: boolean;
  recommended: boolean;
  categoryName: string;
  brandName: string | null;
  updatedAt: Date;
}

function conditions(filter: AdminProductFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  const key = searchKey(filter.q);
  // The shop's own search: every term a substring of the normalised search text (trigram index).
  for (const term of keywordTerms(key)) parts.push(sql`${products.searchText} like ${`%${escapeLike(term)}%`}`);
  if (filter.categoryId) parts.push(eq(products.categoryId, filter.categoryId));
  if (filter.brandId) parts.push(eq(products.brandId, filter.brandId));
  if (filter.stock === 'out') parts.push(lte(products.stock, 0));
  if (filter.stock === 'low') parts.push(and(gt(products.stock, 0), lte(products.stock, LOW_STOCK)));
  if (filter.stock === 'in') parts.push(gt(products.stock, LOW_STOCK));
  if (filter.active !== null) parts.push(eq(products.active, filter.active));
  return and(...parts);
}

function orderOf(sort: AdminSort): SQL[] {
  switch (sort) {
    case 'name':
      return [asc(products.name), asc(products.id)];
    case 'code':
      return [asc(products.code)];
    case 'price_asc':
      return [asc(products.priceSatang), asc(products.id)];
    case 'price_desc':
      return [desc(products.priceSatang), desc(products.id)];
    case 'stock_asc':
      return [asc(products.stock), asc(products.id)];
    case 'stock_desc':
      return [desc(products.stock), desc(products.id)];
    default:
      return [desc(products.updatedAt), desc(products.id)];
  }
}

export async function listAdminProducts(db: DbOrTx, filter: AdminProductFilter): Promise<{ items: AdminProductRow[]; total: number }> {
  const where = conditions(filter);
  const [items, totals] = await Promise.all([
    db
      .select({
        id: products.id,
        code: products.code,
        name: products.name,
        image: products.image,
        priceSatang: products.priceSatang,
        stock: products.stock,
        active: products.active,
        recommended: products.recommended,
        categoryName: categories.name,
        brandName: brands.name,
        updatedAt: products.updatedAt,
      })
      .from(products)
      .innerJoin(categories, eq(categories.id, products.categoryId))
      .leftJoin(brands, eq(brands.id, products.brandId))
      .where(where)
      .orderBy(...orderOf(filter.sort))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return { items, total: totals[0]?.n ?? 0 };
}

export interface AdminPicture {
  url: string;
  alt: string;
  width: number | null;
  height: number | null;
}

export interface AdminProduct {
  id: number;
  code: string;
  name: string;
  nameEn: string;
  description: string;
  categoryId: number;
  brandId: number | null;
  priceSatang: number;
  stock: number;
  unit: string;
  active: boolean;
  recommended: boolean;
  updatedAt: Date;
  tiers: TierInput[];
  pictures: AdminPicture[];
}

const productColumns = {
  id: products.id,
  code: products.code,
  name: products.name,
  nameEn: products.nameEn,
  description: products.description,
  categoryId: products.categoryId,
  brandId: products.brandId,
  priceSatang: products.priceSatang,
  stock: products.stock,
  unit: products.unit,
  active: products.active,
  recommended: products.recommended,
  updatedAt: products.updatedAt,
};

/** The whole product as the form edits it (hidden products included). `lock` takes the row for the transaction. */
export async function findAdminProduct(db: DbOrTx, code: string, lock = false): Promise<AdminProduct | null> {
  const query = db.select(productColumns).from(products).where(eq(products.code, code)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) return null;
  const [tiers, pictures] = await Promise.all([
    db
      .select({ minQuantity: productPriceTiers.minQuantity, priceSatang: productPriceTiers.priceSatang })
      .from(productPriceTiers)
      .where(and(eq(productPriceTiers.productId, row.id), isNull(productPriceTiers.variantId)))
      .orderBy(asc(productPriceTiers.minQuantity)),
    db
      .select({ url: productImages.url, alt: productImages.alt, width: productImages.width, height: productImages.height })
      .from(productImages)
      .where(eq(productImages.productId, row.id))
      .orderBy(asc(productImages.sortOrder), asc(productImages.id)),
  ]);
  return { ...row, tiers, pictures };
}

export async function codeTaken(db: DbOrTx, code: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(sql`lower(${products.code}) = ${code.toLowerCase()}`)
    .limit(1);
  return Boolean(row && row.id !== exceptId);
}

export async function replaceTiers(tx: DbOrTx, productId: number, tiers: readonly TierInput[]): Promise<void> {
  // The product's own tiers; a variant's own are its (docs/decisions/205).
  await tx.delete(productPriceTiers).where(and(eq(productPriceTiers.productId, productId), isNull(productPriceTiers.variantId)));
  if (tiers.length > 0) await tx.insert(productPriceTiers).values(tiers.map((tier) => ({ productId, ...tier })));
}

export async function replacePictures(tx: DbOrTx, productId: number, pictures: readonly AdminPicture[]): Promise<void> {
  await tx.delete(productImages).where(eq(productImages.productId, productId));
  if (pictures.length > 0) {
    await tx.insert(productImages).values(pictures.map((picture, sortOrder) => ({ productId, ...picture, sortOrder })));
  }
}

/**
 * Name, brand, category, code, description and, for a product sold in several variants, each variant's
 * code and option values (alone and after the option's name: "ส้มพีช", "สีส้มพีช"), normalised: what the
 * shop's search matches, so any shade's name or code finds its product once.
 */
export async function searchTextFor(
  db: DbOrTx,
  product: { name: string; nameEn: string; code: string; description: string; categoryId: number; brandId: number | null },
  productId: number | null = null,
): Promise<string> {
  const [category] = await db.select({ name: categories.name, nameEn: categories.nameEn }).from(categories).where(eq(categories.id, product.categoryId));
  const [brand] = product.brandId
    ? await db.select({ name: brands.name, nameTh: brands.nameTh }).from(brands).where(eq(brands.id, product.brandId))
    : [];
  const variantWords = productId === null ? [] : await variantSearchWords(db, productId);
  return searchKey(
    [product.name, brand?.name, brand?.nameTh, category ? `${category.name} ${category.nameEn}` : '', product.code, product.description, ...variantWords]
      .filter(Boolean)
      .join(' '),
  );
}

/** The variants' part of a product's search text (none for a product sold in one variant). */
async function variantSearchWords(db: DbOrTx, productId: number): Promise<string[]> {
  const rows = await db
    .select({ code: productVariants.code, option1: productVariants.option1, option2: productVariants.option2, option3: productVariants.option3, optionNames: products.optionNames })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.productId, productId))
    .orderBy(productVariants.sortOrder, productVariants.id);
  if (rows.length < 2) return [];
  return rows.flatMap((row) => [
    row.code,
    ...[row.option1, row.option2, row.option3].flatMap((value, index) => (value ? [value, `${row.optionNames[index] ?? ''}${value}`] : [])),
  ]);
}

export async function codesOf(db: DbOrTx, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ code: products.code }).from(products).where(inArray(products.id, [...ids]));
  return rows.map((row) => row.code);
}

/**
 * Recomputes the search text of many products in one statement (after a category or brand is renamed, or
 * products move): the same parts as searchTextFor, normalised the same way for ordinary text (Thai marks
 * in stored order by shop_thai_marks, drizzle/0011, the twin of thaiMarkOrder).
 */
export async function refreshSearchText(db: DbOrTx, where: SQL): Promise<void> {
  await db.execute(sql`
    update ${products} p set search_text = shop_thai_marks(lower(btrim(regexp_replace(concat_ws(' ',
        p.name, b.name, nullif(b.name_th, ''), c.name || ' ' || c.name_en, p.code, p.description,
        (select string_agg(concat_ws(' ', v.code, v.option1, p.option_names[1] || v.option1, v.option2, p.option_names[2] || v.option2,
                 v.option3, p.option_names[3] || v.option3), ' ' order by v.sort_order, v.id)
           from ${productVariants} v where v.product_id = p.id having count(*) > 1)), '\\s+', ' ', 'g'))))
    from ${categories} c, ${products} p2 left join ${brands} b on b.id = p2.brand_id
    where p2.id = p.id and c.id = p.category_id and ${where}`);
}

/** The search text of these products, in statements of a thousand ids (an import may write 100,000). */
export async function refreshSearchTextOf(db: DbOrTx, ids: readonly number[]): Promise<void> {
  for (let index = 0; index < ids.length; index += 1000) {
    const part = ids.slice(index, index + 1000);
    await refreshSearchText(db, sql`p.id in (${sql.join(part.map((id) => sql`${id}`), sql`, `)})`);
  }
}
