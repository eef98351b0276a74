import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { productImages, products, productVariants } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { MAX_PRICE_SATANG, MAX_STOCK, PRODUCT_CODE_PATTERN, type TierInput } from '../../lib/product-rules.ts';
import { isSwatchColour, variantLabel, variantOptions } from '../../lib/variants.ts';
import { recordStockMovements } from './stock.repo.ts';
import { refreshSearchText } from './product-admin.repo.ts';
import { ownTiersOfVariants, refusePricesBelowOwnTiers } from './variant-tiers.service.ts';

/** What a barcode may hold: EAN/UPC digits or a shop's own letters and digits. */
const BARCODE_PATTERN = /^[A-Za-z0-9-]{1,32}$/;

/**
 * The product's search text again after its variants changed, so search finds the product by its variants'
 * codes and option values (issue 30). `p` is refreshSearchText's alias of the product row.
 */
export async function refreshProductSearch(tx: DbOrTx, productId: number): Promise<void> {
  await refreshSearchText(tx, sql`p.id = ${productId}`);
}

/** The product's pictures (its gallery and its main picture): what a variant's picture may be. */
export async function productPictureUrls(db: DbOrTx, productId: number): Promise<string[]> {
  const [gallery, [main]] = await Promise.all([
    db.select({ url: productImages.url }).from(productImages).where(eq(productImages.productId, productId)).orderBy(asc(productImages.sortOrder), asc(productImages.id)),
    db.select({ image: products.image }).from(products).where(eq(products.id, productId)),
  ]);
  return [...new Set([...(main?.image ? [main.image] : []), ...gallery.map((row) => row.url)])];
}

/**
 * The variants table of a product's back-office page (issue 30, docs/decisions/205): each variant's code,
 * price, stock and whether it is on sale, saved together in one transaction. Stock is written as the
 * difference from what the page showed, so an order placed meanwhile is never undone.
 */

export interface VariantRowInput {
  /** The variant's code when the page was shown. */
  code: string;
  newCode: string;
  priceSatang: number | null;
  stock: number | null;
  stockWas: number | null;
  active: boolean;
  /** A picture of the product's (null: the product's own); undefined: left as it is. */
  image?: string | null;
  /** `#rrggbb` for the first option's swatch (null: none); undefined: left as it is. */
  swatch?: string | null;
  barcode?: string | null;
}

export interface AdminVariant {
  id: number;
  code: string;
  label: string;
  priceSatang: number;
  stock: number;
  active: boolean;
  image: string | null;
  swatch: string | null;
  barcode: string | null;
  /** Its own wholesale tiers; empty: it sells at the product's. */
  tiers: TierInput[];
}

export async function adminVariants(productId: number): Promise<AdminVariant[]> {
  const db = await getDb();
  const [product] = await db.select({ optionNames: products.optionNames }).from(products).where(eq(products.id, productId));
  const rows = await db.select().from(productVariants).where(eq(productVariants.productId, productId)).orderBy(asc(productVariants.sortOrder), asc(productVariants.id));
  const tiers = await ownTiersOfVariants(db, rows.map((row) => row.id));
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    label: variantLabel(variantOptions(product?.optionNames ?? [], [row.option1, row.option2, row.option3])) || row.code,
    priceSatang: row.priceSatang,
    stock: row.stock,
    active: row.active,
    image: row.image,
    swatch: row.swatch,
    barcode: row.barcode,
    tiers: tiers.get(row.id) ?? [],
  }));
}

export async function saveVariants(actor: AuditActor, productCode: string, rows: readonly VariantRowInput[]): Promise<{ changed: number }> {
  if (rows.length === 0 || rows.length > 200) throw badRequest('validation_failed', 'ไม่พบตัวเลือกสินค้าที่จะบันทึก');
  const fields: Record<string, string> = {};
  rows.forEach((row, index) => {
    if (!PRODUCT_CODE_PATTERN.test(row.newCode)) fields[`code_${index}`] = `รหัสตัวเลือกแถวที่ ${index + 1} ใช้ได้เฉพาะ A–Z, 0–9, - และ _ (ไม่เกิน 64 ตัว)`;
    if (row.priceSatang === null || row.priceSatang > MAX_PRICE_SATANG) fields[`price_${index}`] = `ราคาแถวที่ ${index + 1} ไม่ถูกต้อง`;
    if (row.stock === null || row.stock > MAX_STOCK) fields[`stock_${index}`] = `จำนวนคงเหลือแถวที่ ${index + 1} ต้องเป็นจำนวนเต็มตั้งแต่ 0 ขึ้นไป`;
    if (row.swatch && !isSwatchColour(row.swatch)) fields[`swatch_${index}`] = `สีแถวที่ ${index + 1} ต้องเป็นรหัสสีแบบ #rrggbb เช่น #f4a683`;
    if (row.barcode && !BARCODE_PATTERN.test(row.barcode)) fields[`barcode_${index}`] = `บาร์โค้ดแถวที่ ${index + 1} ใช้ได้เฉพาะตัวเลขและตัวอักษร A–Z ไม่เกิน 32 ตัว`;
  });
  if (new Set(rows.map((row) => row.newCode.toLowerCase())).size !== rows.length) fields.code = 'รหัสตัวเลือกซ้ำกัน';
  const first = Object.values(fields)[0];
  if (first) throw badRequest('validation_failed', first, fields);
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const [product] = await tx.select({ id: products.id, code: products.code }).from(products).where(eq(products.code, productCode));
    if (!product) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
    const pictures = new Set(await productPictureUrls(tx, product.id));
    const strange = rows.find((row) => row.image && !pictures.has(row.image));
    if (strange) throw badRequest('validation_failed', 'รูปที่เลือกให้ตัวเลือกต้องเป็นรูปหนึ่งของสินค้านี้ กรุณาโหลดหน้าใหม่');
    const before = await tx.select().from(productVariants).where(eq(productVariants.productId, product.id)).orderBy(asc(productVariants.id));
    const byCode = new Map(before.map((variant) => [variant.code, variant]));
    await refusePricesBelowOwnTiers(
      tx,
      rows.flatMap((row) => {
        const variant = byCode.get(row.code);
        return variant && row.priceSatang !== null && row.priceSatang !== variant.priceSatang ? [{ id: variant.id, code: variant.code, priceSatang: row.priceSatang }] : [];
      }),
    );
    let changed = 0;
    // In id order: the rows an order locks are taken in the same order (docs/decisions/205).
    const ordered = [...rows].sort((a, b) => (byCode.get(a.code)?.id ?? 0) - (byCode.get(b.code)?.id ?? 0));
    for (const row of ordered) {
      const variant = byCode.get(row.code);
      if (!variant) throw notFound('variant_not_found', `ไม่พบตัวเลือกรหัส ${row.code} กรุณาโหลดหน้าใหม่`);
      if (row.newCode !== variant.code) {
        const [taken] = await tx.select({ id: productVariants.id }).from(productVariants).where(and(eq(productVariants.code, row.newCode), ne(productVariants.id, variant.id)));
        const [otherProduct] = await tx.select({ id: products.id }).from(products).where(and(eq(products.code, row.newCode), ne(products.id, product.id)));
        if (taken || otherProduct) throw conflict('product_code_taken', `รหัส ${row.newCode} มีอยู่แล้ว กรุณาใช้รหัสอื่น`);
      }
      const delta = (row.stock as number) - (row.stockWas ?? variant.stock);
      const looks = { image: row.image === undefined ? variant.image : row.image, swatch: row.swatch === undefined ? variant.swatch : row.swatch?.toLowerCase() ?? null, barcode: row.barcode === undefined ? variant.barcode : row.barcode };
      const same =
        row.newCode === variant.code && row.priceSatang === variant.priceSatang && delta === 0 && row.active === variant.active && looks.image === variant.image && looks.swatch === variant.swatch && looks.barcode === variant.barcode;
      if (same) continue;
      const updated = await tx
        .update(productVariants)
        .set({ code: row.newCode, priceSatang: row.priceSatang as number, active: row.active, ...looks, stock: sql`${productVariants.stock} + ${delta}`, updatedAt: sql`now()` })
        .where(and(eq(productVariants.id, variant.id), sql`${productVariants.stock} + ${delta} >= 0`))
        .returning({ id: productVariants.id });
      if (updated.length === 0) throw conflict('stock_negative', `ตัวเลือก ${variant.code} มีสินค้าคงเหลือไม่พอสำหรับการปรับลด กรุณาโหลดหน้าใหม่`);
      if (delta !== 0) await recordStockMovements(tx, [{ productId: product.id, variantId: variant.id, delta, kind: 'adjust', reason: 'แก้ไขจากตารางตัวเลือกสินค้า', actorEmail: actor.email }]);
      changed += 1;
    }
    const after = await tx.select().from(productVariants).where(eq(productVariants.productId, product.id)).orderBy(asc(productVariants.id));
    if (changed > 0) {
      const shape = (list: typeof before) =>
        list.map((variant) => ({ code: variant.code, priceSatang: variant.priceSatang, stock: variant.stock, active: variant.active, image: variant.image, swatch: variant.swatch, barcode: variant.barcode }));
      await refreshProductSearch(tx, product.id);
      await recordAudit(tx, actor, { action: 'product.variants', entityType: 'product', entityId: product.code, before: { variants: shape(before) }, after: { variants: shape(after) } });
    }
    return { changed, codes: [product.code, ...before.map((variant) => variant.code), ...after.map((variant) => variant.code)] };
  });
  if (result.changed > 0) await invalidateCatalog({ productCodes: [...new Set(result.codes)] });
  return { changed: result.changed };
}
