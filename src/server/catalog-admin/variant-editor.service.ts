import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { getDb, resultRows, type DbOrTx } from '../db/client.ts';
import { products, productVariants, stockMovements } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { refreshProductSearch } from './variant-admin.service.ts';
import { recordStockMovements } from './stock.repo.ts';
import { refusePricesBelowOwnTiers } from './variant-tiers.service.ts';
import { MAX_PRICE_SATANG, MAX_STOCK, PRODUCT_CODE_PATTERN } from '../../lib/product-rules.ts';
import { combinations, matchCombinations, optionsProblem, type OptionInput, type OptionValueInput } from '../../lib/variant-options.ts';
import { variantLabel, variantOptions } from '../../lib/variants.ts';

/**
 * The back office's variant editor (issue 30, docs/decisions/214): set a product's options and generate
 * their combinations, remove variants, set the price or stock of many at once. Each change is one
 * transaction with an audit row, the product's search text refreshed (variant codes and values are
 * searchable) and the catalog cache dropped for every code before and after. The variant rows are locked
 * before the product row is written, the order a checkout takes them in (docs/decisions/205).
 */

type Variant = typeof productVariants.$inferSelect;

interface ProductRef {
  id: number;
  code: string;
  priceSatang: number;
  optionNames: string[];
}

/** What the audit row keeps of a variant. */
function shape(list: readonly Variant[]) {
  return list.map((variant) => ({
    code: variant.code,
    options: [variant.option1, variant.option2, variant.option3].filter((value) => value !== null),
    swatch: variant.swatch,
    priceSatang: variant.priceSatang,
    stock: variant.stock,
    image: variant.image,
    active: variant.active,
  }));
}

function labelOf(optionNames: readonly string[], variant: Variant): string {
  return variantLabel(variantOptions(optionNames, [variant.option1, variant.option2, variant.option3])) || variant.code;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

/**
 * The frame of every editor change: the product, its variants locked in id order, the change, then the
 * audit row, the search text and the cache. `change` answers how many variants it changed and a message.
 */
async function changeVariants<T extends { changed: number }>(
  actor: AuditActor,
  productCode: string,
  action: string,
  change: (tx: DbOrTx, product: ProductRef, variants: Variant[]) => Promise<T>,
): Promise<T> {
  const db = await getDb();
  let outcome: { result: T; codes: string[] };
  try {
    outcome = await db.transaction(async (tx) => {
      const [product] = await tx
        .select({ id: products.id, code: products.code, priceSatang: products.priceSatang, optionNames: products.optionNames })
        .from(products)
        .where(eq(products.code, productCode));
      if (!product) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
      const before = await tx.select().from(productVariants).where(eq(productVariants.productId, product.id)).orderBy(asc(productVariants.id)).for('update');
      const result = await change(tx, product, before);
      const after = await tx.select().from(productVariants).where(eq(productVariants.productId, product.id)).orderBy(asc(productVariants.sortOrder), asc(productVariants.id));
      if (result.changed > 0) {
        await refreshProductSearch(tx, product.id);
        const [names] = await tx.select({ optionNames: products.optionNames }).from(products).where(eq(products.id, product.id));
        await recordAudit(tx, actor, {
          action,
          entityType: 'product',
          entityId: product.code,
          before: { optionNames: product.optionNames, variants: shape(before) },
          after: { optionNames: names?.optionNames ?? [], variants: shape(after) },
        });
      }
      return { result, codes: [product.code, ...before.map((variant) => variant.code), ...after.map((variant) => variant.code)] };
    });
  } catch (error) {
    // Two editors picking the same free code at once: the second is told, nothing is half-written.
    if (!(error instanceof AppError) && isUniqueViolation(error)) throw conflict('product_code_taken', 'รหัสตัวเลือกที่สร้างถูกใช้ไปแล้วระหว่างบันทึก กรุณาลองอีกครั้ง');
    throw error;
  }
  if (outcome.result.changed > 0) await invalidateCatalog({ productCodes: [...new Set(outcome.codes)] });
  return outcome.result;
}

/** Codes `{product}-{n}` not yet any product's or variant's, in order, `count` of them. */
async function freeCodes(tx: DbOrTx, productCode: string, count: number): Promise<string[]> {
  if (count === 0) return [];
  const prefix = `${productCode}-`;
  const pattern = `${prefix.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const taken = await tx.execute(sql`
    select lower(code) as code from ${productVariants} where lower(code) like ${pattern}
    union select lower(code) from ${products} where lower(code) like ${pattern}`);
  const used = new Set(resultRows<{ code: string }>(taken).map((row) => row.code));
  const codes: string[] = [];
  for (let n = 1; codes.length < count; n += 1) {
    const code = `${prefix}${n}`;
    if (!used.has(code.toLowerCase())) codes.push(code);
  }
  const long = codes.find((code) => !PRODUCT_CODE_PATTERN.test(code));
  if (long) throw badRequest('validation_failed', `รหัสสินค้า ${productCode} ยาวเกินกว่าจะต่อท้ายเป็นรหัสตัวเลือก (${long}) ได้ กรุณาย่อรหัสสินค้าก่อน`);
  return codes;
}

export interface GenerateResult {
  changed: number;
  added: string[];
  /** Labels and codes of variants that are in none of the combinations: kept, listed, removable. */
  left: { code: string; label: string }[];
}

/**
 * Sets the product's option names and generates every combination of their values as variants. Variants
 * whose values match a combination keep their code, price and stock (a variant without values, such as a
 * one-variant product's, becomes the first combination it fits); new ones get a free `{code}-{n}`, the
 * product's price and no stock. Variants no combination takes are never deleted here: they are returned.
 */
export async function generateVariants(actor: AuditActor, productCode: string, options: readonly OptionInput[]): Promise<GenerateResult> {
  const problem = optionsProblem(options);
  if (problem) throw badRequest('validation_failed', problem);
  return changeVariants(actor, productCode, 'product.variants.generate', async (tx, product, variants) => {
    const combos = combinations(options);
    const { kept, left } = matchCombinations(
      combos,
      variants.map((variant) => [variant.option1, variant.option2, variant.option3]),
    );
    const swatches = new Map<string, string | null>((options[0]?.values ?? []).map((entry: OptionValueInput) => [entry.value.toLowerCase(), entry.swatch]));
    const codes = await freeCodes(tx, product.code, kept.filter((index) => index === null).length);
    const names = options.map((option) => option.name);
    let changed = 0;
    const added: string[] = [];
    for (const [at, combo] of combos.entries()) {
      const values = [combo[0] ?? null, combo[1] ?? null, combo[2] ?? null];
      const swatch = swatches.get((combo[0] ?? '').toLowerCase()) ?? null;
      const index = kept[at];
      if (index === null || index === undefined) {
        const code = codes.shift() as string;
        await tx.insert(productVariants).values({ productId: product.id, code, option1: values[0], option2: values[1], option3: values[2], swatch, priceSatang: product.priceSatang, stock: 0, sortOrder: at });
        added.push(code);
        changed += 1;
        continue;
      }
      const variant = variants[index] as Variant;
      const same = variant.option1 === values[0] && variant.option2 === values[1] && variant.option3 === values[2] && variant.swatch === swatch && variant.sortOrder === at;
      if (same) continue;
      await tx.update(productVariants).set({ option1: values[0], option2: values[1], option3: values[2], swatch, sortOrder: at, updatedAt: sql`now()` }).where(eq(productVariants.id, variant.id));
      changed += 1;
    }
    // The variants no combination kept go after the others, in the order they had.
    for (const [offset, index] of left.entries()) {
      const variant = variants[index] as Variant;
      if (variant.sortOrder !== combos.length + offset) {
        await tx.update(productVariants).set({ sortOrder: combos.length + offset }).where(eq(productVariants.id, variant.id));
      }
    }
    const namesChanged = names.join('\u0000') !== product.optionNames.join('\u0000');
    if (namesChanged) {
      await tx.update(products).set({ optionNames: names }).where(eq(products.id, product.id));
      changed += 1;
    }
    return {
      changed,
      added,
      left: left.map((index) => ({ code: (variants[index] as Variant).code, label: labelOf(names, variants[index] as Variant) })),
    };
  });
}

/**
 * Deletes variants. Refused for the last one, for the variant that carries the product's own code (a
 * product back to one variant must be sold by its own code, docs/decisions/205: a plain product's card puts
 * that code in the cart, and carts saved before name it), and, unless `confirmStock`, for one still holding
 * stock. Order and quotation lines keep their copy (their link is set null), price tiers of the variant go
 * with it, and its stock history stays the product's: the movements' link is cleared first, not cascaded.
 */
export async function removeVariants(actor: AuditActor, productCode: string, codes: readonly string[], confirmStock: boolean): Promise<{ changed: number; removed: string[] }> {
  const wanted = [...new Set(codes.filter(Boolean))];
  if (wanted.length === 0) throw badRequest('validation_failed', 'กรุณาเลือกตัวเลือกที่จะลบ');
  return changeVariants(actor, productCode, 'product.variants.remove', async (tx, product, variants) => {
    const doomed = wanted.map((code) => {
      const variant = variants.find((entry) => entry.code === code);
      if (!variant) throw notFound('variant_not_found', `ไม่พบตัวเลือกรหัส ${code} ของสินค้านี้ กรุณาโหลดหน้าใหม่`);
      return variant;
    });
    if (doomed.length >= variants.length) throw conflict('last_variant', 'ลบตัวเลือกสุดท้ายของสินค้าไม่ได้ สินค้าต้องมีตัวเลือกอย่างน้อยหนึ่งรายการ (ซ่อนสินค้าแทนได้)');
    const own = doomed.find((variant) => variant.code === product.code);
    if (own) {
      throw conflict('variant_is_product', `ตัวเลือก ${labelOf(product.optionNames, own)} ใช้รหัสเดียวกับตัวสินค้า (${product.code}) จึงลบไม่ได้ ให้เปลี่ยนค่าตัวเลือกของแถวนี้ หรือเอาเครื่องหมาย "แสดง" ออกแทน`);
    }
    const stocked = doomed.filter((variant) => variant.stock > 0);
    if (stocked.length > 0 && !confirmStock) {
      const list = stocked.map((variant) => `${labelOf(product.optionNames, variant)} (${variant.stock.toLocaleString('th-TH')} ชิ้น)`).join(', ');
      throw conflict('variant_has_stock', `ตัวเลือก ${list} ยังมีสินค้าคงเหลือ ติ๊ก "ยืนยันลบแม้มีสินค้าคงเหลือ" แล้วกดลบอีกครั้ง`);
    }
    const ids = doomed.map((variant) => variant.id);
    await tx.update(stockMovements).set({ variantId: null }).where(inArray(stockMovements.variantId, ids));
    await tx.delete(productVariants).where(and(eq(productVariants.productId, product.id), inArray(productVariants.id, ids)));
    return { changed: doomed.length, removed: doomed.map((variant) => variant.code) };
  });
}

export interface BulkChange {
  priceSatang?: number | null;
  stock?: number | null;
}

/** Sets one price or one stock figure on the chosen variants; stock as each one's difference, with a movement. */
export async function bulkSetVariants(actor: AuditActor, productCode: string, codes: readonly string[], change: BulkChange): Promise<{ changed: number }> {
  const wanted = [...new Set(codes.filter(Boolean))];
  if (wanted.length === 0) throw badRequest('validation_failed', 'กรุณาติ๊กเลือกแถวที่จะตั้งค่าก่อน');
  if ('priceSatang' in change && (change.priceSatang === null || change.priceSatang === undefined || change.priceSatang > MAX_PRICE_SATANG)) {
    throw badRequest('validation_failed', 'ราคาที่จะตั้งไม่ถูกต้อง ใส่เป็นบาท เช่น 199 หรือ 199.50', { bulk_price: 'ราคาไม่ถูกต้อง' });
  }
  if ('stock' in change && (change.stock === null || change.stock === undefined || change.stock > MAX_STOCK)) {
    throw badRequest('validation_failed', 'จำนวนคงเหลือที่จะตั้งต้องเป็นจำนวนเต็มตั้งแต่ 0 ขึ้นไป', { bulk_stock: 'จำนวนไม่ถูกต้อง' });
  }
  return changeVariants(actor, productCode, 'product.variants.bulk', async (tx, product, variants) => {
    if (typeof change.priceSatang === 'number') {
      const price = change.priceSatang;
      await refusePricesBelowOwnTiers(tx, variants.filter((variant) => wanted.includes(variant.code) && variant.priceSatang !== price).map((variant) => ({ id: variant.id, code: variant.code, priceSatang: price })));
    }
    let changed = 0;
    for (const variant of variants) {
      if (!wanted.includes(variant.code)) continue;
      if (typeof change.priceSatang === 'number' && variant.priceSatang !== change.priceSatang) {
        await tx.update(productVariants).set({ priceSatang: change.priceSatang, updatedAt: sql`now()` }).where(eq(productVariants.id, variant.id));
        changed += 1;
      }
      if (typeof change.stock === 'number' && variant.stock !== change.stock) {
        // The row is locked: its stock is the figure an order would see, so the difference is exact.
        const delta = change.stock - variant.stock;
        await tx.update(productVariants).set({ stock: sql`${productVariants.stock} + ${delta}`, updatedAt: sql`now()` }).where(eq(productVariants.id, variant.id));
        await recordStockMovements(tx, [{ productId: product.id, variantId: variant.id, delta, kind: 'adjust', reason: 'ตั้งจำนวนคงเหลือหลายตัวเลือกพร้อมกัน', actorEmail: actor.email }]);
        changed += 1;
      }
    }
    const missing = wanted.filter((code) => !variants.some((variant) => variant.code === code));
    if (missing.length > 0) throw notFound('variant_not_found', `ไม่พบตัวเลือกรหัส ${missing.join(', ')} ของสินค้านี้ กรุณาโหลดหน้าใหม่`);
    return { changed };
  });
}

export interface VariantEditorOptions {
  names: string[];
  /** Per option, its values in the variants' order; the first option's with their swatch. */
  values: OptionValueInput[][];
}

/**
 * The options form as the product's variants are now: names, and each option's values in order. `leftOut`:
 * variants the last save left out of every combination; their values are not offered again, so saving the
 * form once more does not bring back the combinations just taken out.
 */
export async function variantEditorOptions(productId: number, leftOut: readonly string[] = []): Promise<VariantEditorOptions> {
  const db = await getDb();
  const [product] = await db.select({ optionNames: products.optionNames }).from(products).where(eq(products.id, productId));
  const names = product?.optionNames ?? [];
  const rows = await db.select().from(productVariants).where(eq(productVariants.productId, productId)).orderBy(asc(productVariants.sortOrder), asc(productVariants.id));
  const values = names.map((_, option) => {
    const seen = new Map<string, OptionValueInput>();
    for (const row of rows) {
      if (leftOut.includes(row.code)) continue;
      const value = [row.option1, row.option2, row.option3][option];
      if (value && !seen.has(value.toLowerCase())) seen.set(value.toLowerCase(), { value, swatch: option === 0 ? row.swatch : null });
    }
    return [...seen.values()];
  });
  return { names, values };
}
