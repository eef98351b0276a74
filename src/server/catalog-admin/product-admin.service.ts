import { eq, inArray, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { brands, categories, products } from '../db/schema.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { invalidateCatalog } from '../catalog/catalog-cache.ts';
import { storage } from '../storage/storage.ts';
import { storePicture, type StoredPicture } from '../storage/images.ts';
import {
  MAX_PRICE_SATANG,
  MAX_STOCK,
  PRODUCT_CODE_HINT,
  PRODUCT_CODE_PATTERN,
  parseBaht,
  parseWholeNumber,
  tierProblem,
  type TierInput,
} from '../../lib/product-rules.ts';
import { normalizeText } from '../../lib/thai-text.ts';
import * as repo from './product-admin.repo.ts';
import { recordStockMovements } from './stock.repo.ts';
import { variantsOwnStock } from './stock.service.ts';
import { VariantsOwnTheirFigures, writeSoleVariant } from '../catalog/variant.repo.ts';

/**
 * The product rules of the back office (docs/design.md section 10): create and edit a product with its tiers
 * and pictures in one transaction with its audit row and stock history, then drop the cached pages that
 * show it. Routes stay thin: they parse a form, call these, and answer.
 */
export interface ProductInput {
  code: string;
  name: string;
  nameEn: string;
  description: string;
  categoryId: number;
  brandId: number | null;
  priceSatang: number;
  /** The stock the person wants… */
  stock: number;
  /** …and the figure their form showed: the difference is applied, so an order placed meanwhile is not undone. */
  stockWas: number | null;
  unit: string;
  active: boolean;
  recommended: boolean;
  tiers: TierInput[];
  pictures: repo.AdminPicture[];
}

export const MAX_PICTURES = 8;
const STORED_PICTURE = /^\/media\/products\/[a-f0-9]{24}-\d+\.webp$/;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? normalizeText(value) : '';
};
const texts = (form: FormData, name: string) => form.getAll(name).map((value) => (typeof value === 'string' ? value.trim() : ''));

/** Reads the product form (multipart or urlencoded); every problem is reported by field, in Thai. */
export function productInputFromForm(form: FormData): ProductInput {
  const fields: Record<string, string> = {};
  const code = text(form, 'code');
  if (!PRODUCT_CODE_PATTERN.test(code)) fields.code = code ? PRODUCT_CODE_HINT : 'กรุณากรอกรหัสสินค้า';
  const name = text(form, 'name');
  if (!name) fields.name = 'กรุณากรอกชื่อสินค้า';
  else if (name.length > 200) fields.name = 'ชื่อสินค้ายาวเกิน 200 ตัวอักษร';
  const description = (form.get('description') as string | null)?.replace(/\r\n/g, '\n').trim() ?? '';
  if (description.length > 10_000) fields.description = 'รายละเอียดยาวเกิน 10,000 ตัวอักษร';
  const categoryId = parseWholeNumber(text(form, 'category_id'));
  if (!categoryId) fields.category_id = 'กรุณาเลือกหมวดหมู่';
  const brandText = text(form, 'brand_id');
  const brandId = brandText === '' ? null : parseWholeNumber(brandText);
  if (brandText !== '' && !brandId) fields.brand_id = 'แบรนด์ไม่ถูกต้อง';
  const priceSatang = parseBaht(text(form, 'price'));
  if (priceSatang === null || priceSatang > MAX_PRICE_SATANG) fields.price = 'กรุณากรอกราคาเป็นตัวเลข เช่น 199 หรือ 199.50';
  const stock = parseWholeNumber(text(form, 'stock'));
  if (stock === null || stock > MAX_STOCK) fields.stock = 'กรุณากรอกจำนวนคงเหลือเป็นจำนวนเต็มตั้งแต่ 0 ขึ้นไป';
  const stockWasText = text(form, 'stock_was');
  const stockWas = stockWasText === '' ? null : parseWholeNumber(stockWasText);
  const unit = text(form, 'unit') || 'ชิ้น';
  if (unit.length > 20) fields.unit = 'หน่วยยาวเกิน 20 ตัวอักษร';

  const tiers: TierInput[] = [];
  const minimums = texts(form, 'tier_min');
  const prices = texts(form, 'tier_price');
  for (let index = 0; index < Math.max(minimums.length, prices.length); index++) {
    const minText = minimums[index] ?? '';
    const priceText = prices[index] ?? '';
    if (minText === '' && priceText === '') continue;
    const minQuantity = parseWholeNumber(minText);
    const tierPrice = parseBaht(priceText);
    if (minQuantity === null || tierPrice === null) {
      fields.tiers = `ราคาส่งแถวที่ ${tiers.length + 1}: กรุณากรอกจำนวนและราคาเป็นตัวเลข`;
      break;
    }
    tiers.push({ minQuantity, priceSatang: tierPrice });
  }
  if (!fields.tiers && priceSatang !== null) {
    const problem = tierProblem(priceSatang, tiers);
    if (problem) fields.tiers = problem;
  }

  const urls = texts(form, 'picture_url');
  const alts = texts(form, 'picture_alt');
  const widths = texts(form, 'picture_width');
  const heights = texts(form, 'picture_height');
  const pictures: repo.AdminPicture[] = urls
    .map((url, index) => ({
      url,
      alt: normalizeText(alts[index] ?? '').slice(0, 200),
      width: parseWholeNumber(widths[index] ?? ''),
      height: parseWholeNumber(heights[index] ?? ''),
    }))
    .filter((picture) => picture.url !== '');
  if (pictures.length > MAX_PICTURES) fields.pictures = `รูปสินค้ามีได้ไม่เกิน ${MAX_PICTURES} รูป`;

  if (Object.keys(fields).length > 0) {
    throw badRequest('validation_failed', Object.values(fields)[0] ?? 'ข้อมูลไม่ถูกต้อง', fields);
  }
  return {
    code,
    name,
    nameEn: text(form, 'name_en').slice(0, 200),
    description,
    categoryId: categoryId as number,
    brandId,
    priceSatang: priceSatang as number,
    stock: stock as number,
    stockWas,
    unit,
    active: form.get('active') !== null && form.get('active') !== '0',
    recommended: form.get('recommended') !== null && form.get('recommended') !== '0',
    tiers,
    pictures,
  };
}

async function checkReferences(db: DbOrTx, input: ProductInput): Promise<void> {
  const [category] = await db.select({ id: categories.id }).from(categories).where(eq(categories.id, input.categoryId));
  if (!category) throw badRequest('validation_failed', 'ไม่พบหมวดหมู่ที่เลือก', { category_id: 'ไม่พบหมวดหมู่ที่เลือก' });
  if (input.brandId) {
    const [brand] = await db.select({ id: brands.id }).from(brands).where(eq(brands.id, input.brandId));
    if (!brand) throw badRequest('validation_failed', 'ไม่พบแบรนด์ที่เลือก', { brand_id: 'ไม่พบแบรนด์ที่เลือก' });
  }
}

/** A picture is one stored by the shop (or one the product already had): no outside URL gets in through the form. */
async function checkPictures(input: ProductInput, current: repo.AdminPicture[]): Promise<void> {
  const known = new Map(current.map((picture) => [picture.url, picture]));
  for (const picture of input.pictures) {
    const before = known.get(picture.url);
    if (before) {
      picture.width ??= before.width;
      picture.height ??= before.height;
      continue;
    }
    const key = picture.url.replace(/^\/media\//, '');
    if (!STORED_PICTURE.test(picture.url) || !(await storage().exists('public', key))) {
      throw badRequest('validation_failed', 'รูปสินค้าไม่ถูกต้อง กรุณาอัปโหลดใหม่', { pictures: 'รูปสินค้าไม่ถูกต้อง กรุณาอัปโหลดใหม่' });
    }
  }
}

const auditView = (product: repo.AdminProduct | null) =>
  product && {
    code: product.code,
    name: product.name,
    nameEn: product.nameEn,
    categoryId: product.categoryId,
    brandId: product.brandId,
    priceSatang: product.priceSatang,
    stock: product.stock,
    unit: product.unit,
    active: product.active,
    recommended: product.recommended,
    tiers: product.tiers,
    pictures: product.pictures.map((picture) => picture.url),
    descriptionLength: product.description.length,
  };

function codeConflict(): AppError {
  return conflict('product_code_taken', 'รหัสสินค้านี้มีอยู่แล้ว กรุณาใช้รหัสอื่น');
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

/**
 * Creates (originalCode null) or updates a product: fields, search text, tiers, pictures, stock (as a
 * difference, with a history row), and the audit row, in one transaction; then the pages showing it go.
 */
export async function saveProduct(actor: AuditActor, originalCode: string | null, input: ProductInput): Promise<{ code: string; created: boolean }> {
  const db = await getDb();
  await checkReferences(db, input);
  let result: { code: string; created: boolean; codes: string[] };
  try {
    result = await db.transaction(async (tx) => {
      const before = originalCode ? await repo.findAdminProduct(tx, originalCode, true) : null;
      if (originalCode && !before) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
      if (await repo.codeTaken(tx, input.code, before?.id)) throw codeConflict();
      await checkPictures(input, before?.pictures ?? []);
      const searchText = await repo.searchTextFor(tx, input, before?.id ?? null);
      const values = {
        code: input.code,
        name: input.name,
        nameEn: input.nameEn,
        description: input.description,
        categoryId: input.categoryId,
        brandId: input.brandId,
        priceSatang: input.priceSatang,
        unit: input.unit,
        active: input.active,
        recommended: input.recommended,
        image: input.pictures[0]?.url ?? null,
        searchText,
      };
      let productId: number;
      if (before) {
        const delta = input.stock - (input.stockWas ?? before.stock);
        // Price and stock on the product's one variant first (docs/decisions/205), then the rest.
        // The form shows a product of several variants with its lowest price: unchanged, it is not a price change.
        const priceSatang = input.priceSatang === before.priceSatang ? null : input.priceSatang;
        const written = await writeSoleVariant(tx, before.id, { priceSatang, stockDelta: delta }).catch((error: unknown) => {
          throw error instanceof VariantsOwnTheirFigures ? variantsOwnStock() : error;
        });
        if (!written.ok) throw conflict('stock_negative', 'สินค้าคงเหลือไม่พอสำหรับการปรับลด (มีคำสั่งซื้อเข้ามาระหว่างแก้ไข กรุณาโหลดหน้าใหม่)');
        const { priceSatang: _price, ...rest } = values;
        await tx.update(products).set({ ...rest, updatedAt: sql`now()` }).where(eq(products.id, before.id));
        productId = before.id;
        await recordStockMovements(tx, [{ productId, variantId: written.variantId, delta, kind: 'adjust', reason: 'แก้ไขจากฟอร์มสินค้า', actorEmail: actor.email }]);
      } else {
        const [inserted] = await tx.insert(products).values({ ...values, stock: input.stock }).returning({ id: products.id });
        productId = (inserted as { id: number }).id;
        await recordStockMovements(tx, [{ productId, delta: input.stock, kind: 'create', reason: 'สร้างสินค้า', actorEmail: actor.email }]);
      }
      await repo.replaceTiers(tx, productId, input.tiers);
      await repo.replacePictures(tx, productId, input.pictures);
      const after = await repo.findAdminProduct(tx, input.code);
      await recordAudit(tx, actor, {
        action: before ? 'product.update' : 'product.create',
        entityType: 'product',
        entityId: input.code,
        before: auditView(before),
        after: auditView(after),
      });
      return { code: input.code, created: !before, codes: [...new Set([input.code, before?.code].filter((code): code is string => Boolean(code)))] };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw codeConflict();
    throw error;
  }
  await invalidateCatalog({ productCodes: result.codes });
  return { code: result.code, created: result.created };
}

/** Quick edits from the list row: price and/or stock (stock as a difference from what the row showed). */
export async function quickEditProduct(
  actor: AuditActor,
  code: string,
  change: { priceSatang: number | null; stock: number | null; stockWas: number | null },
): Promise<repo.AdminProduct> {
  const db = await getDb();
  const after = await db.transaction(async (tx) => {
    const before = await repo.findAdminProduct(tx, code, true);
    if (!before) throw notFound('product_not_found', 'ไม่พบสินค้านี้');
    if (change.priceSatang !== null) {
      const problem = tierProblem(change.priceSatang, before.tiers);
      if (problem) throw badRequest('validation_failed', `ราคาใหม่ขัดกับราคาส่ง: ${problem}`);
    }
    const delta = change.stock === null ? 0 : change.stock - (change.stockWas ?? before.stock);
    if (before.stock + delta < 0) throw conflict('stock_negative', 'สินค้าคงเหลือไม่พอสำหรับการปรับลด กรุณาโหลดหน้าใหม่');
    const written = await writeSoleVariant(tx, before.id, { priceSatang: change.priceSatang, stockDelta: delta }).catch((error: unknown) => {
      throw error instanceof VariantsOwnTheirFigures ? variantsOwnStock() : error;
    });
    if (!written.ok) throw conflict('stock_negative', 'สินค้าคงเหลือไม่พอสำหรับการปรับลด กรุณาโหลดหน้าใหม่');
    await tx.update(products).set({ updatedAt: sql`now()` }).where(eq(products.id, before.id));
    await recordStockMovements(tx, [{ productId: before.id, variantId: written.variantId, delta, kind: 'adjust', reason: 'แก้ไขด่วนจากรายการสินค้า', actorEmail: actor.email }]);
    const after = (await repo.findAdminProduct(tx, code)) as repo.AdminProduct;
    await recordAudit(tx, actor, {
      action: 'product.quick_edit',
      entityType: 'product',
      entityId: code,
      before: { priceSatang: before.priceSatang, stock: before.stock },
      after: { priceSatang: after.priceSatang, stock: after.stock },
    });
    return after;
  });
  await invalidateCatalog({ productCodes: [code] });
  return after;
}

export type BulkAction = { kind: 'hide' } | { kind: 'show' } | { kind: 'move'; categoryId: number };

/** Hide, show or move several products at once; one audit row per product, all in one transaction. */
export async function bulkProducts(actor: AuditActor, codes: readonly string[], action: BulkAction): Promise<number> {
  const unique = [...new Set(codes)].filter((code) => PRODUCT_CODE_PATTERN.test(code));
  if (unique.length === 0) throw badRequest('nothing_selected', 'กรุณาเลือกสินค้าอย่างน้อย 1 รายการ');
  if (unique.length > 500) throw badRequest('too_many_selected', 'เลือกได้ครั้งละไม่เกิน 500 รายการ');
  const db = await getDb();
  const changed = await db.transaction(async (tx) => {
    if (action.kind === 'move') {
      const [category] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, action.categoryId));
      if (!category) throw badRequest('category_not_found', 'ไม่พบหมวดหมู่ที่เลือก');
    }
    const rows = await tx
      .select({ id: products.id, code: products.code, active: products.active, categoryId: products.categoryId })
      .from(products)
      .where(inArray(products.code, unique))
      .orderBy(products.id)
      .for('update');
    for (const row of rows) {
      const set = action.kind === 'move' ? { categoryId: action.categoryId } : { active: action.kind === 'show' };
      await tx.update(products).set({ ...set, updatedAt: sql`now()` }).where(eq(products.id, row.id));
      await recordAudit(tx, actor, {
        action: action.kind === 'move' ? 'product.move' : action.kind === 'hide' ? 'product.hide' : 'product.show',
        entityType: 'product',
        entityId: row.code,
        before: action.kind === 'move' ? { categoryId: row.categoryId } : { active: row.active },
        after: action.kind === 'move' ? { categoryId: action.categoryId } : { active: action.kind === 'show' },
      });
    }
    // The category name is part of what search matches.
    if (action.kind === 'move' && rows.length > 0) await repo.refreshSearchTextOf(tx, rows.map((row) => row.id));
    return rows.map((row) => row.code);
  });
  await invalidateCatalog({ productCodes: changed });
  return changed.length;
}

/** For the code field, checked as typed. */
export async function checkProductCode(code: string, exceptCode: string | null): Promise<{ available: boolean; message: string }> {
  if (!PRODUCT_CODE_PATTERN.test(code)) return { available: false, message: PRODUCT_CODE_HINT };
  const db = await getDb();
  const except = exceptCode ? await repo.findAdminProduct(db, exceptCode) : null;
  if (await repo.codeTaken(db, code, except?.id)) return { available: false, message: 'รหัสสินค้านี้มีอยู่แล้ว' };
  return { available: true, message: 'ใช้รหัสนี้ได้' };
}

/** Stores uploaded product pictures (each checked by sharp); a bad file stops the batch with its Thai message. */
export async function storeProductPictures(files: readonly File[]): Promise<StoredPicture[]> {
  if (files.length > MAX_PICTURES) throw badRequest('too_many_pictures', `อัปโหลดได้ครั้งละไม่เกิน ${MAX_PICTURES} รูป`);
  const stored: StoredPicture[] = [];
  for (const file of files) stored.push(await storePicture(new Uint8Array(await file.arrayBuffer()), 'products'));
  return stored;
}

export async function adminProduct(code: string): Promise<repo.AdminProduct | null> {
  return repo.findAdminProduct(await getDb(), code);
}

/** The list's filters from the URL (bad values fall back to defaults: a shared link never errors). */
export function adminProductQuery(url: URL): repo.AdminProductFilter {
  const params = url.searchParams;
  const whole = (name: string) => {
    const value = parseWholeNumber(params.get(name) ?? '');
    return value && value > 0 ? value : null;
  };
  const stock = params.get('stock');
  const active = params.get('active');
  const sort = params.get('sort') as repo.AdminSort | null;
  return {
    q: (params.get('q') ?? '').slice(0, 100),
    categoryId: whole('category'),
    brandId: whole('brand'),
    stock: stock === 'in' || stock === 'low' || stock === 'out' ? stock : null,
    active: active === '1' ? true : active === '0' ? false : null,
    sort: sort && repo.ADMIN_SORTS.includes(sort) ? sort : 'updated',
    page: Math.min(whole('page') ?? 1, 10_000),
    pageSize: 50,
  };
}

export async function listProductsForAdmin(filter: repo.AdminProductFilter) {
  return repo.listAdminProducts(await getDb(), filter);
}
