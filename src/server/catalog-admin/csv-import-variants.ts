import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { productPriceTiers, products, productVariants } from '../db/schema.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { formatTiers, tierProblem, type TierInput } from '../../lib/product-rules.ts';
import { MAX_OPTIONS } from '../../lib/variants.ts';
import { mergedTierProblem, type CsvRow, type CsvVariantRow } from './csv-columns.ts';
import type { ImportProblem } from './csv-read.ts';
import { codeTakenReason, insertAudit, ownColumns, productTarget, sameProductColumns, type AuditRow, type Existing, type Refs, type Target } from './csv-import-products.ts';
import { refreshSearchTextOf } from './product-admin.repo.ts';
import { recordStockMovements } from './stock.repo.ts';
import { ownTiersOfVariants } from './variant-tiers.service.ts';

/**
 * The CSV import's one row per variant format (issue 30, docs/design.md section 10): csv-read.ts has
 * gathered each product's rows; here each product is planned against the catalog (its product columns
 * from its first row, each variant created or updated by its code, variants the file leaves out left as
 * they are) and written variant rows first, the product row after: the variants' triggers keep the
 * product's price and stock (docs/decisions/205), which this never writes for a product it did not create.
 */

export interface VariantNow {
  id: number;
  productId: number;
  code: string;
  option1: string | null;
  option2: string | null;
  option3: string | null;
  priceSatang: number;
  stock: number;
  active: boolean;
  sortOrder: number;
  /** Its own wholesale tiers; empty when it sells at its product's (docs/decisions/222). */
  ownTiers: TierInput[];
}

type Options = [string | null, string | null, string | null];

interface VariantTarget {
  code: string;
  options: Options;
  priceSatang: number;
  stock: number;
  active: boolean;
  ownTiers: TierInput[];
}

interface VariantChange {
  line: number;
  before: VariantNow | null;
  target: VariantTarget;
}

interface ProductPlan {
  row: CsvRow;
  before: Existing | null;
  /** Price and stock: what the variants' triggers will make them (for the tier check and the audit). */
  target: Target;
  optionNames: string[];
  productChanged: boolean;
  changes: VariantChange[];
}

export interface VariantPlan {
  creates: ProductPlan[];
  updates: ProductPlan[];
  unchanged: number;
  errors: ImportProblem[];
}

/** The variants of these products, in (product, variant) order. */
export async function variantsOf(db: DbOrTx, productIds: readonly number[]): Promise<Map<number, VariantNow[]>> {
  const byProduct = new Map<number, VariantNow[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select({
      id: productVariants.id,
      productId: productVariants.productId,
      code: productVariants.code,
      option1: productVariants.option1,
      option2: productVariants.option2,
      option3: productVariants.option3,
      priceSatang: productVariants.priceSatang,
      stock: productVariants.stock,
      active: productVariants.active,
      sortOrder: productVariants.sortOrder,
    })
    .from(productVariants)
    .where(inArray(productVariants.productId, [...productIds]))
    .orderBy(asc(productVariants.productId), asc(productVariants.id));
  const ownTiers = await ownTiersOfVariants(db, rows.map((row) => row.id));
  for (const row of rows) {
    const variant = { ...row, ownTiers: ownTiers.get(row.id) ?? [] };
    const list = byProduct.get(row.productId);
    if (list) list.push(variant);
    else byProduct.set(row.productId, [variant]);
  }
  return byProduct;
}

const optionsOf = (variant: Pick<VariantNow, 'option1' | 'option2' | 'option3'>): Options => [variant.option1, variant.option2, variant.option3];
const comboKey = (options: readonly (string | null)[], count: number) => options.slice(0, count).join('\u0001');
const comboLabel = (names: readonly string[], options: readonly (string | null)[]) => names.map((name, index) => `${name}: ${options[index] ?? ''}`).join(' / ');

/** The lowest active price (the lowest of all when none is active), as the variants' trigger computes it. */
function lowestPrice(variants: readonly { priceSatang: number; active: boolean }[]): number {
  const active = variants.filter((variant) => variant.active);
  const prices = (active.length > 0 ? active : variants).map((variant) => variant.priceSatang);
  return prices.length > 0 ? Math.min(...prices) : 0;
}

/** One variant row against the product's option names and the variants it has: its target, or why not. */
function planVariant(
  variant: CsvVariantRow,
  productCode: string,
  names: readonly string[],
  current: ReadonlyMap<string, VariantNow>,
  owners: ReadonlyMap<string, string>,
): VariantTarget | string {
  const owner = owners.get(variant.code);
  if (owner !== undefined && owner !== productCode) return `รหัสตัวเลือก ${variant.code} เป็นของสินค้า ${owner} แล้ว`;
  const stray = variant.optionValues.findIndex((value, index) => value !== '' && index >= names.length);
  if (stray >= 0) {
    return `ค่าตัวเลือกที่ ${stray + 1} "${variant.optionValues[stray]}" ไม่มีชื่อตัวเลือก (option${stray + 1}_name)${names.length > 0 ? `: สินค้านี้มีตัวเลือก ${names.join(', ')}` : ''}`;
  }
  const missing = names.filter((_, index) => variant.optionValues[index] === '');
  if (missing.length > 0) return `ไม่มีค่าตัวเลือก ${missing.join(', ')}: สินค้านี้มีตัวเลือก ${names.join(', ')} ทุกแถวของสินค้านี้ต้องใส่ค่าให้ครบ`;
  const before = current.get(variant.code);
  if (!before && variant.priceSatang === undefined) return `ตัวเลือกใหม่ ${variant.code} ต้องมีราคา (price)`;
  const options = [0, 1, 2].map((index) => (index < names.length ? variant.optionValues[index] || null : before ? optionsOf(before)[index] : null)) as Options;
  const priceSatang = variant.priceSatang ?? before?.priceSatang ?? 0;
  const ownTiers = variant.ownTiers !== undefined ? (variant.ownTiers ?? []) : (before?.ownTiers ?? []);
  // The variant editor's rule (variant-tiers.service.ts): a price with tiers of its own stays above them,
  // whether the file changes the tiers or only the price.
  const problem = ownTiers.length > 0 ? tierProblem(priceSatang, ownTiers) : null;
  if (problem) {
    return variant.ownTiers !== undefined
      ? `ราคาส่งของตัวเลือก ${variant.code} (variant_tiers): ${problem}`
      : `ราคาใหม่ของตัวเลือก ${variant.code} ขัดกับราคาส่งของตัวเลือกนี้ (แก้ในคอลัมน์ variant_tiers หรือที่หน้าตัวเลือกสินค้า): ${problem}`;
  }
  return {
    code: variant.code,
    options,
    priceSatang,
    stock: variant.stock ?? before?.stock ?? 0,
    active: variant.active ?? before?.active ?? true,
    ownTiers,
  };
}

const sameVariant = (before: VariantNow, target: VariantTarget) =>
  before.priceSatang === target.priceSatang &&
  before.stock === target.stock &&
  before.active === target.active &&
  formatTiers(before.ownTiers) === formatTiers(target.ownTiers) &&
  comboKey(optionsOf(before), MAX_OPTIONS) === comboKey(target.options, MAX_OPTIONS);

/**
 * Plans a batch of products gathered from their rows. A bad variant row is reported and skipped (the
 * product's other rows still apply); a bad product (an unknown category, tiers against its prices) skips
 * all its rows.
 */
export function planVariantBatch(
  batch: readonly CsvRow[],
  existing: ReadonlyMap<string, Existing>,
  variants: ReadonlyMap<number, VariantNow[]>,
  owners: ReadonlyMap<string, string>,
  refs: Refs,
): VariantPlan {
  const plan: VariantPlan = { creates: [], updates: [], unchanged: 0, errors: [] };
  for (const row of batch) {
    const rows = row.variants ?? [];
    const before = existing.get(row.code) ?? null;
    const failRow = (line: number, reason: string) => plan.errors.push({ line, code: row.code, reason });
    const failProduct = (reason: string) => {
      failRow(row.line, reason);
      for (const variant of rows) if (variant.line !== row.line) failRow(variant.line, `ข้ามแถวนี้: แถวแรกของสินค้า ${row.code} (บรรทัด ${row.line}) มีปัญหา`);
    };
    if (!before && (row.fields.name === undefined || row.fields.categoryCode === undefined)) {
      failProduct('สินค้าใหม่ต้องมีชื่อสินค้าและหมวดหมู่ (category)');
      continue;
    }
    const taken = before ? null : codeTakenReason(row.code, owners);
    if (taken) {
      failProduct(taken);
      continue;
    }
    const target = productTarget(row, before ?? undefined, refs);
    if (typeof target === 'string') {
      failProduct(target);
      continue;
    }
    // Option names stated in the file (its rows agree, csv-read.ts); none stated keeps the product's.
    const names = rows.find((variant) => variant.optionNames.length > 0)?.optionNames ?? before?.optionNames ?? [];
    const current = before ? (variants.get(before.id) ?? []) : [];
    const currentByCode = new Map(current.map((variant) => [variant.code, variant]));
    const inFile = new Set(rows.map((variant) => variant.code));
    const combos = new Map<string, number>();
    // Variants the file leaves out keep their options: a row may not repeat one of theirs.
    if (names.length > 0) for (const variant of current) if (!inFile.has(variant.code)) combos.set(comboKey(optionsOf(variant), names.length), -variant.id);
    const changes: VariantChange[] = [];
    const targets: VariantTarget[] = [];
    for (const variant of rows) {
      const planned = planVariant(variant, row.code, names, currentByCode, owners);
      if (typeof planned === 'string') {
        failRow(variant.line, planned);
        continue;
      }
      if (names.length > 0) {
        const key = comboKey(planned.options, names.length);
        const clash = combos.get(key);
        if (clash !== undefined) {
          const other = clash < 0 ? `ตัวเลือกรหัส ${current.find((item) => item.id === -clash)?.code} ที่มีอยู่แล้ว` : `บรรทัด ${clash}`;
          failRow(variant.line, `ตัวเลือก ${comboLabel(names, planned.options)} ซ้ำกับ${other}`);
          continue;
        }
        combos.set(key, variant.line);
      }
      targets.push(planned);
      const was = currentByCode.get(planned.code) ?? null;
      if (!was || !sameVariant(was, planned)) changes.push({ line: variant.line, before: was, target: planned });
    }
    if (targets.length === 0 && !before) continue;
    const untouched = current.filter((variant) => !targets.some((item) => item.code === variant.code));
    const all = [...untouched, ...targets];
    target.priceSatang = lowestPrice(all);
    target.stock = all.reduce((sum, variant) => sum + (variant.active ? variant.stock : 0), 0);
    const tierProblem = mergedTierProblem(target.priceSatang, target.tiers);
    if (tierProblem) {
      failProduct(tierProblem);
      continue;
    }
    const productChanged = !before || !sameProductColumns(before, target) || before.optionNames.join('\u0001') !== names.join('\u0001');
    const planned: ProductPlan = { row, before, target, optionNames: [...names], productChanged, changes };
    if (!before) plan.creates.push(planned);
    else if (productChanged || changes.length > 0) plan.updates.push(planned);
    else plan.unchanged++;
  }
  return plan;
}

const importReason = (line: number) => `นำเข้า CSV บรรทัด ${line}`;

const variantColumns = (target: VariantTarget) => ({
  code: target.code,
  option1: target.options[0],
  option2: target.options[1],
  option3: target.options[2],
  priceSatang: target.priceSatang,
  active: target.active,
});

const auditVariants = (list: readonly { code: string; priceSatang: number; stock: number; active: boolean; ownTiers: readonly TierInput[] }[]) =>
  list.map(({ code, priceSatang, stock, active, ownTiers }) => ({ code, priceSatang, stock, active, ...(ownTiers.length > 0 ? { ownTiers } : {}) }));

/** The variants' own tiers the file changes, written over what they had (ids: the variants' by code). */
async function writeOwnTiers(tx: DbOrTx, productId: number, idOf: ReadonlyMap<string, number>, changes: readonly VariantChange[]): Promise<void> {
  const changed = changes.filter((change) => formatTiers(change.before?.ownTiers ?? []) !== formatTiers(change.target.ownTiers));
  if (changed.length === 0) return;
  const ids = changed.map((change) => idOf.get(change.target.code) as number);
  await tx.delete(productPriceTiers).where(inArray(productPriceTiers.variantId, ids));
  const rows = changed.flatMap((change, index) => change.target.ownTiers.map((tier) => ({ productId, variantId: ids[index] as number, ...tier })));
  if (rows.length > 0) await tx.insert(productPriceTiers).values(rows);
}

/**
 * Writes a planned batch inside the import's transaction, whose variant and product rows are already
 * locked (existingByCode). Per product: its variants' rows (existing ones in id order, then new ones),
 * then the product row, so the order is a checkout's.
 */
export async function executeVariantPlan(tx: DbOrTx, actor: AuditActor, plan: VariantPlan): Promise<void> {
  const audits: AuditRow[] = [];
  const written: number[] = [];
  for (const product of plan.creates) written.push(await createProduct(tx, actor, product));
  for (const product of [...plan.updates].sort((a, b) => (a.before?.id ?? 0) - (b.before?.id ?? 0))) {
    await updateProduct(tx, actor, product);
    written.push(product.before?.id as number);
  }
  await refreshSearchTextOf(tx, written);
  for (const { row, before, target, optionNames, changes } of plan.creates.concat(plan.updates)) {
    const after = { code: row.code, ...target, optionNames, variants: auditVariants(changes.map((change) => change.target)) };
    if (!before) audits.push({ action: 'product.import_create', entityId: row.code, before: null, after });
    else {
      const { id: _id, code: _code, ...was } = before;
      const previous = changes.flatMap((change) => (change.before ? [change.before] : []));
      audits.push({ action: 'product.import_update', entityId: row.code, before: { code: row.code, ...was, variants: auditVariants(previous) }, after });
    }
  }
  await insertAudit(tx, actor, audits);
}

/**
 * A new product: inserted (born with one variant of its own code, drizzle/0017), that variant made the
 * file's row of the same code or removed once the file's variants are in.
 */
async function createProduct(tx: DbOrTx, actor: AuditActor, plan: ProductPlan): Promise<number> {
  const { row, target, optionNames, changes } = plan;
  const [inserted] = await tx
    .insert(products)
    .values({ code: row.code, ...ownColumns(target), priceSatang: target.priceSatang, stock: 0, optionNames })
    .returning({ id: products.id });
  const productId = (inserted as { id: number }).id;
  const [born] = await tx.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, productId));
  const bornId = (born as { id: number }).id;
  const own = changes.find((change) => change.target.code === row.code);
  const others = changes.filter((change) => change !== own);
  if (own) {
    await tx
      .update(productVariants)
      .set({ ...variantColumns(own.target), stock: own.target.stock, sortOrder: changes.indexOf(own), updatedAt: sql`now()` })
      .where(eq(productVariants.id, bornId));
  }
  const insertedVariants = others.length
    ? await tx
        .insert(productVariants)
        .values(others.map((change) => ({ productId, ...variantColumns(change.target), stock: change.target.stock, sortOrder: changes.indexOf(change) })))
        .returning({ id: productVariants.id, code: productVariants.code })
    : [];
  if (!own) await tx.delete(productVariants).where(eq(productVariants.id, bornId));
  if (target.tiers.length > 0) await tx.insert(productPriceTiers).values(target.tiers.map((tier) => ({ productId, ...tier })));
  const idOf = new Map([...insertedVariants.map((variant) => [variant.code, variant.id] as const), [row.code, bornId] as const]);
  await writeOwnTiers(tx, productId, idOf, changes);
  await recordStockMovements(
    tx,
    changes.map((change) => ({
      productId,
      variantId: idOf.get(change.target.code) ?? null,
      delta: change.target.stock,
      kind: 'import' as const,
      reason: importReason(change.line),
      actorEmail: actor.email,
    })),
  );
  return productId;
}

/** An existing product: its changed variants, its new ones, then its own row; stock as the difference. */
async function updateProduct(tx: DbOrTx, actor: AuditActor, plan: ProductPlan): Promise<void> {
  const { before, target, optionNames, changes } = plan;
  const productId = (before as Existing).id;
  const moves: { variantId: number; delta: number; line: number }[] = [];
  const idOf = new Map<string, number>();
  const existingChanges = changes.filter((change) => change.before).sort((a, b) => (a.before?.id ?? 0) - (b.before?.id ?? 0));
  for (const { before: was, target: next, line } of existingChanges) {
    const variant = was as VariantNow;
    idOf.set(next.code, variant.id);
    // The row is locked: the difference from what was read is the difference the file asks for.
    const delta = next.stock - variant.stock;
    await tx
      .update(productVariants)
      .set({ ...variantColumns(next), stock: sql`${productVariants.stock} + ${delta}`, updatedAt: sql`now()` })
      .where(eq(productVariants.id, variant.id));
    if (delta !== 0) moves.push({ variantId: variant.id, delta, line });
  }
  const fresh = changes.filter((change) => !change.before);
  if (fresh.length > 0) {
    const [last] = await tx
      .select({ sortOrder: sql<number>`coalesce(max(${productVariants.sortOrder}), -1)::int` })
      .from(productVariants)
      .where(eq(productVariants.productId, productId));
    const start = (last?.sortOrder ?? -1) + 1;
    const inserted = await tx
      .insert(productVariants)
      .values(fresh.map((change, index) => ({ productId, ...variantColumns(change.target), stock: change.target.stock, sortOrder: start + index })))
      .returning({ id: productVariants.id, code: productVariants.code });
    for (const variant of inserted) idOf.set(variant.code, variant.id);
    for (const change of fresh) if (change.target.stock !== 0) moves.push({ variantId: idOf.get(change.target.code) as number, delta: change.target.stock, line: change.line });
  }
  await writeOwnTiers(tx, productId, idOf, changes);
  await tx
    .update(products)
    .set({ ...ownColumns(target), optionNames, updatedAt: sql`now()` })
    .where(eq(products.id, productId));
  if (formatTiers((before as Existing).tiers) !== formatTiers(target.tiers)) {
    await tx.delete(productPriceTiers).where(and(eq(productPriceTiers.productId, productId), isNull(productPriceTiers.variantId)));
    if (target.tiers.length > 0) await tx.insert(productPriceTiers).values(target.tiers.map((tier) => ({ productId, ...tier })));
  }
  await recordStockMovements(
    tx,
    moves.map((move) => ({ productId, variantId: move.variantId, delta: move.delta, kind: 'import' as const, reason: importReason(move.line), actorEmail: actor.email })),
  );
}
