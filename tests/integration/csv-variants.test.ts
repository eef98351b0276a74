/**
 * The product CSV with one row per variant (issue 30): export, round trip, the older one row per product
 * file, a new product of three shades, and each reason the dry run gives a variant row in Thai.
 */
import { exportedCatalogCsv } from '../fixtures/catalog-csv';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { and, asc, count, desc, eq, gt, like, sql } from 'drizzle-orm';
import { database, getDb } from '../../src/server/db/client';
import { takeVariantStock, variantsForSale } from '../../src/server/catalog/variant.repo';
import { auditLog, productPriceTiers, products, productVariants, stockMovements } from '../../src/server/db/schema';
import { setVariantTiers } from '../../src/server/catalog-admin/variant-tiers.service';
import { applyImport, dryRunImport, type ImportReport } from '../../src/server/catalog-admin/csv-import.service';
import { templateCsv } from '../../src/server/catalog-admin/csv-export.service';
import { CSV_COLUMNS } from '../../src/server/catalog-admin/csv-columns';
import type { AuditActor } from '../../src/server/audit/audit.service';
import { createMember, placeTestOrder, productWithVariants, variantStockOf } from '../fixtures/orders';

const actor: AuditActor = { id: null, email: 'variants-importer@example.test', role: 'staff', via: 'web' };
const OLD_HEADER = ['code', 'name', 'name_en', 'category', 'brand', 'price', 'stock', 'unit', 'active', 'recommended', 'tiers', 'description'];
const encode = (text: string) => new TextEncoder().encode(text);
const csvOf = (rows: string[][]) => encode(stringify(rows, { bom: true }));

async function exportedRows(): Promise<string[][]> {
  return parse(await exportedCatalogCsv(), { bom: true }) as string[][];
}

/** A row of the new format from named cells; the rest empty. */
function row(cells: Partial<Record<(typeof CSV_COLUMNS)[number], string>>): string[] {
  return CSV_COLUMNS.map((column) => cells[column] ?? '');
}

async function catalogNow() {
  const db = await getDb();
  const [productRows, variantRows] = await Promise.all([
    db
      .select({ code: products.code, price: products.priceSatang, stock: products.stock, updatedAt: products.updatedAt, optionNames: products.optionNames })
      .from(products)
      .orderBy(asc(products.id)),
    db.select().from(productVariants).orderBy(asc(productVariants.id)),
  ]);
  return { products: productRows, variants: variantRows };
}

const reasonAt = (report: ImportReport, line: number) => report.errors.filter((error) => error.line === line).map((error) => error.reason);

describe('CSV with one row per variant', () => {
  it('exports one row per variant, the product columns repeated; a one-variant product is one row as before', async () => {
    const rows = await exportedRows();
    const header = rows[0] as string[];
    expect(header).toEqual([...CSV_COLUMNS]);
    // The older columns first and unchanged, the variant columns after them.
    expect(header.slice(0, OLD_HEADER.length)).toEqual(OLD_HEADER);
    const at = (name: string) => header.indexOf(name);
    const db = await getDb();
    const lipstick = await db
      .select({ code: productVariants.code, price: productVariants.priceSatang, stock: productVariants.stock, option1: productVariants.option1 })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(eq(products.code, 'P00354'))
      .orderBy(asc(productVariants.sortOrder), asc(productVariants.id));
    expect(lipstick.length).toBe(8);
    const lipstickRows = rows.filter((cells) => cells[0] === 'P00354');
    expect(lipstickRows.map((cells) => cells[at('variant_code')])).toEqual(lipstick.map((variant) => variant.code));
    expect(lipstickRows.map((cells) => cells[at('option1_value')])).toEqual(lipstick.map((variant) => variant.option1));
    expect(lipstickRows.map((cells) => Number(cells[at('price')]) * 100)).toEqual(lipstick.map((variant) => variant.price));
    expect(lipstickRows.map((cells) => Number(cells[at('stock')]))).toEqual(lipstick.map((variant) => variant.stock));
    expect(new Set(lipstickRows.map((cells) => cells[at('name')])).size).toBe(1);
    expect(new Set(lipstickRows.map((cells) => cells[at('option1_name')]))).toEqual(new Set(['สี']));

    const [plain] = await db.select({ price: products.priceSatang, stock: products.stock }).from(products).where(eq(products.code, 'P00001'));
    const plainRows = rows.filter((cells) => cells[0] === 'P00001');
    expect(plainRows).toHaveLength(1);
    const plainRow = plainRows[0] as string[];
    expect(plainRow[at('variant_code')]).toBe('P00001');
    expect(plainRow.slice(at('option1_name'), at('option3_value') + 1).every((cell) => cell === '')).toBe(true);
    expect(plainRow[at('variant_active')]).toBe('');
    expect(Number(plainRow[at('price')]) * 100).toBe(plain?.price);
    expect(Number(plainRow[at('stock')])).toBe(plain?.stock);

    const [variantCount] = await db.select({ n: count() }).from(productVariants);
    expect(rows.length - 1).toBe(variantCount?.n);
  });

  it('imports its own export without changing anything, then changes exactly the edited variant price and stock', async () => {
    const rows = await exportedRows();
    const before = await catalogNow();
    const db = await getDb();
    const [lastMove] = await db.select({ id: stockMovements.id }).from(stockMovements).orderBy(desc(stockMovements.id)).limit(1);
    const fromMove = lastMove?.id ?? 0;

    const dry = await dryRunImport(csvOf(rows));
    expect(dry).toMatchObject({ rows: rows.length - 1, creates: 0, updates: 0, unchanged: before.products.length, errors: [] });
    const same = await applyImport(actor, csvOf(rows));
    expect(same).toMatchObject({ creates: 0, updates: 0, unchanged: before.products.length, errors: [] });
    expect(await catalogNow()).toEqual(before);
    expect(await db.select().from(stockMovements).where(gt(stockMovements.id, fromMove))).toEqual([]);

    // One shade's price (below every other, so the product's price follows), another shade's stock.
    const header = rows[0] as string[];
    const at = (name: string) => header.indexOf(name);
    const cheaper = rows.find((cells) => cells[at('variant_code')] === 'P00354-02') as string[];
    const restocked = rows.find((cells) => cells[at('variant_code')] === 'P00354-05') as string[];
    const wasStock = Number(restocked[at('stock')]);
    cheaper[at('price')] = '1.25';
    restocked[at('stock')] = String(wasStock + 7);
    const report = await applyImport(actor, csvOf(rows));
    expect(report).toMatchObject({ creates: 0, updates: 1, unchanged: before.products.length - 1, errors: [] });

    const after = await catalogNow();
    const changedVariants = after.variants.filter((variant, index) => JSON.stringify(variant) !== JSON.stringify(before.variants[index]));
    expect(changedVariants.map((variant) => [variant.code, variant.priceSatang, variant.stock])).toEqual([
      ['P00354-02', 125, before.variants.find((variant) => variant.code === 'P00354-02')?.stock],
      ['P00354-05', before.variants.find((variant) => variant.code === 'P00354-05')?.priceSatang, wasStock + 7],
    ]);
    const changedProducts = after.products.filter((product, index) => JSON.stringify(product) !== JSON.stringify(before.products[index]));
    expect(changedProducts.map((product) => product.code)).toEqual(['P00354']);
    const lipstick = after.variants.filter((variant) => variant.productId === after.variants.find((item) => item.code === 'P00354')?.productId);
    expect(changedProducts[0]).toMatchObject({
      price: 125,
      stock: lipstick.filter((variant) => variant.active).reduce((sum, variant) => sum + variant.stock, 0),
    });
    const moves = await db
      .select({ variantId: stockMovements.variantId, delta: stockMovements.delta, stockAfter: stockMovements.stockAfter, kind: stockMovements.kind, reason: stockMovements.reason })
      .from(stockMovements)
      .where(gt(stockMovements.id, fromMove));
    const restockedId = after.variants.find((variant) => variant.code === 'P00354-05')?.id;
    expect(moves).toEqual([{ variantId: restockedId, delta: 7, stockAfter: wasStock + 7, kind: 'import', reason: expect.stringMatching(/^นำเข้า CSV บรรทัด \d+$/) }]);
  });

  it('still imports a file of the older one row per product shape as before', async () => {
    const db = await getDb();
    const [plain] = await db.select({ stock: products.stock }).from(products).where(eq(products.code, 'P00001'));
    const lipstickRow = (await exportedRows()).find((cells) => cells[0] === 'P00354') as string[];
    const report = await applyImport(
      actor,
      csvOf([
        OLD_HEADER,
        ['P00001', 'ชื่อใหม่จากไฟล์แบบเดิม', '', 'gifts', '', '77', String((plain?.stock ?? 0) + 3), 'ชิ้น', '1', '0', '', ''],
        ['OLDFMT-1', 'สินค้าจากไฟล์แบบเดิม', '', 'gifts', '', '50', '4', 'ชิ้น', '1', '0', '', ''],
        [...lipstickRow.slice(0, 5), '1', lipstickRow[6] as string, ...lipstickRow.slice(7, OLD_HEADER.length)],
      ]),
    );
    expect(report).toMatchObject({ creates: 1, updates: 1 });
    // The lipstick's description spans lines, so its row's line is not 4.
    expect(report.errors).toEqual([{ line: expect.any(Number), code: 'P00354', reason: 'สินค้านี้มีหลายตัวเลือก (เช่น สีหรือขนาด) ราคาและจำนวนคงเหลือต้องแก้ที่แต่ละตัวเลือก' }]);
    const variants = await db
      .select({ code: productVariants.code, price: productVariants.priceSatang, stock: productVariants.stock, productName: products.name })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(eq(products.code, 'P00001'));
    expect(variants).toEqual([{ code: 'P00001', price: 7700, stock: (plain?.stock ?? 0) + 3, productName: 'ชื่อใหม่จากไฟล์แบบเดิม' }]);
    const [created] = await db.select({ price: products.priceSatang, stock: products.stock, searchText: products.searchText }).from(products).where(eq(products.code, 'OLDFMT-1'));
    expect(created).toMatchObject({ price: 5000, stock: 4 });
    expect(created?.searchText).toContain('oldfmt-1');
  });

  it('creates a new product of three shades from its rows, and a one-row product with its own code', async () => {
    const shade = (code: string, value: string, price: string, stock: string) =>
      row({ code: 'NEWLIP', name: 'ลิปทินท์ใหม่', category: 'makeup', unit: 'แท่ง', active: '1', price, stock, option1_name: 'สี', option1_value: value, variant_code: code });
    const file = csvOf([
      [...CSV_COLUMNS],
      shade('NEWLIP-RED', 'แดงกุหลาบ', '159', '5'),
      // Later rows may leave the product's columns empty: the first row's stand.
      row({ code: 'NEWLIP', price: '179', stock: '0', option1_value: 'ชมพูนู้ด', variant_code: 'NEWLIP-PINK' }),
      shade('NEWLIP-CORAL', 'ส้มคอรัล', '149', '7'),
      row({ code: 'NEWONE', name: 'สินค้าเดี่ยวใหม่', category: 'gifts', price: '39', stock: '2', active: '1' }),
    ]);
    const dry = await dryRunImport(file);
    expect(dry).toMatchObject({ rows: 4, creates: 2, updates: 0, errors: [] });
    const report = await applyImport(actor, file);
    expect(report).toMatchObject({ creates: 2, errors: [] });

    const db = await getDb();
    const [lip] = await db
      .select({ id: products.id, price: products.priceSatang, stock: products.stock, optionNames: products.optionNames, searchText: products.searchText })
      .from(products)
      .where(eq(products.code, 'NEWLIP'));
    expect(lip).toMatchObject({ price: 14900, stock: 12, optionNames: ['สี'] });
    // Its search text names its shades' codes and values (written once the variants are in).
    expect(lip?.searchText).toContain('ลิปทินท์ใหม่');
    expect(lip?.searchText).toContain('newlip-coral');
    expect(lip?.searchText).toContain('ส้มคอรัล');
    const shades = await db
      .select({ code: productVariants.code, option1: productVariants.option1, price: productVariants.priceSatang, stock: productVariants.stock, active: productVariants.active })
      .from(productVariants)
      .where(eq(productVariants.productId, lip?.id as number))
      .orderBy(asc(productVariants.sortOrder));
    expect(shades).toEqual([
      { code: 'NEWLIP-RED', option1: 'แดงกุหลาบ', price: 15900, stock: 5, active: true },
      { code: 'NEWLIP-PINK', option1: 'ชมพูนู้ด', price: 17900, stock: 0, active: true },
      { code: 'NEWLIP-CORAL', option1: 'ส้มคอรัล', price: 14900, stock: 7, active: true },
    ]);
    const moves = await db
      .select({ code: productVariants.code, delta: stockMovements.delta, stockAfter: stockMovements.stockAfter, kind: stockMovements.kind })
      .from(stockMovements)
      .innerJoin(productVariants, eq(productVariants.id, stockMovements.variantId))
      .where(eq(stockMovements.productId, lip?.id as number))
      .orderBy(asc(stockMovements.id));
    expect(moves).toEqual([
      { code: 'NEWLIP-RED', delta: 5, stockAfter: 5, kind: 'import' },
      { code: 'NEWLIP-CORAL', delta: 7, stockAfter: 7, kind: 'import' },
    ]);
    const one = await db
      .select({ code: productVariants.code, price: productVariants.priceSatang, stock: productVariants.stock })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(eq(products.code, 'NEWONE'));
    expect(one).toEqual([{ code: 'NEWONE', price: 3900, stock: 2 }]);

    // The same file again changes nothing.
    expect(await dryRunImport(file)).toMatchObject({ creates: 0, updates: 0, unchanged: 2, errors: [] });
    // The template's example rows (a product in two sizes among them) import cleanly.
    expect(await dryRunImport(encode(await templateCsv()))).toMatchObject({ rows: 4, creates: 3, errors: [] });
  });

  it('gives each bad variant row its Thai reason in the dry run, and the apply skips exactly those rows', async () => {
    const db = await getDb();
    const lipstick = await db
      .select({ code: productVariants.code, option1: productVariants.option1 })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(eq(products.code, 'P00354'))
      .orderBy(asc(productVariants.id));
    const existingShade = lipstick[1]?.option1 as string;
    // P00354's product columns as the export writes them (a product's first row states them).
    const exported = (await exportedRows()).find((cells) => cells[0] === 'P00354') as string[];
    const own = Object.fromEntries(OLD_HEADER.map((column, index) => [column, exported[index] as string]));
    const header = [...CSV_COLUMNS, 'option4_name', 'option4_value'];
    const line = (cells: Partial<Record<(typeof CSV_COLUMNS)[number], string>>, extra: string[] = ['', '']) => [...row(cells), ...extra];
    const base = { name: 'ชุดทดสอบตัวเลือก', category: 'makeup', price: '99', stock: '1', active: '1' };
    const rows = [
      header,
      /* 2 */ line({ code: 'BADV-A', ...base, option1_name: 'สี', option1_value: 'แดง', variant_code: 'P00354-02' }),
      /* 3 */ line({ code: 'BADV-A', ...base, option1_name: 'สี', option1_value: 'ฟ้า', variant_code: 'BADV-A-1' }),
      /* 4 */ line({ code: 'BADV-A', ...base, option1_name: 'สี', option1_value: 'เขียว', variant_code: 'BADV-A-1' }),
      /* 5 */ line({ code: 'BADV-A', ...base, option1_name: 'สี', option1_value: 'ฟ้า', variant_code: 'BADV-A-2' }),
      /* 6 */ line({ code: 'BADV-A', ...base, option1_name: 'สี', option1_value: '', variant_code: 'BADV-A-3' }),
      /* 7 */ line({ code: 'BADV-A', ...base, option1_name: 'สี', option1_value: 'ม่วง', variant_code: 'BADV-A-4' }, ['ขนาด', 'L']),
      /* 8 */ line({ code: 'BADV-A', ...base, name: 'ชื่ออื่น', option1_name: 'สี', option1_value: 'ส้ม', variant_code: 'BADV-A-5' }),
      /* 9 */ line({ code: 'BADV-B', ...base, variant_code: 'BADV-B' }),
      /* 10 */ line({ code: 'BADV-A', ...base, option1_name: 'สี', option1_value: 'ทอง', variant_code: 'BADV-A-6' }),
      /* 11 */ line({ ...own, price: '99', stock: '1', variant_code: 'P00354-99' }),
      /* 12 */ line({ code: 'P00354', price: '99', stock: '1', option1_value: existingShade, variant_code: 'P00354-98' }),
      /* 13 */ line({ code: 'P00354', price: '99', stock: '1', option1_value: 'เฉดใหม่จากไฟล์', variant_code: 'P00354-97' }),
    ];
    // The line each row starts on (P00354's description spans lines): rows are numbered as above.
    const file = csvOf(rows);
    const lines = (parse(Buffer.from(file), { bom: true, info: true }) as unknown as { info: { lines: number } }[]).map((record) => record.info.lines);
    const reasonOf = (report: ImportReport, number: number) => reasonAt(report, lines[number - 1] as number);
    const dry = await dryRunImport(file);
    expect(reasonOf(dry, 2)).toEqual(['รหัสตัวเลือก P00354-02 เป็นของสินค้า P00354 แล้ว']);
    expect(reasonOf(dry, 3)).toEqual([]);
    expect(reasonOf(dry, 4)).toEqual(['รหัสตัวเลือก BADV-A-1 ซ้ำกับบรรทัด 3']);
    expect(reasonOf(dry, 5)).toEqual(['ตัวเลือก สี: ฟ้า ซ้ำกับบรรทัด 3']);
    expect(reasonOf(dry, 6)).toEqual(['ไม่มีค่าตัวเลือก สี: สินค้านี้มีตัวเลือก สี ทุกแถวของสินค้านี้ต้องใส่ค่าให้ครบ']);
    expect(reasonOf(dry, 7)).toEqual(['สินค้าหนึ่งรายการมีตัวเลือกได้ไม่เกิน 3 ชุด (option1 ถึง option3) กรุณาลบตัวเลือกที่ 4 ขึ้นไปออก']);
    expect(reasonOf(dry, 8)).toEqual(['ข้อมูลสินค้าช่อง name ไม่ตรงกับแถวแรกของสินค้านี้ (บรรทัด 2): ข้อมูลสินค้าใช้จากแถวแรก แถวต่อมาให้เว้นว่างหรือใส่ให้ตรงกัน']);
    expect(reasonOf(dry, 9)).toEqual([]);
    expect(reasonOf(dry, 10)).toEqual(['แถวของสินค้าเดียวกันต้องอยู่ติดกัน: สินค้า BADV-A อยู่ที่บรรทัด 2 แล้ว']);
    // P00354 names its option สี: a row without a value for it is refused, so is a shade it already has.
    expect(reasonOf(dry, 11)).toEqual(['ไม่มีค่าตัวเลือก สี: สินค้านี้มีตัวเลือก สี ทุกแถวของสินค้านี้ต้องใส่ค่าให้ครบ']);
    expect(reasonOf(dry, 12)).toEqual([`ตัวเลือก สี: ${existingShade} ซ้ำกับตัวเลือกรหัส ${lipstick[1]?.code} ที่มีอยู่แล้ว`]);
    expect(reasonOf(dry, 13)).toEqual([]);
    expect(dry).toMatchObject({ rows: 12, creates: 2, updates: 1 });
    expect(dry.errors).toHaveLength(9);

    const applied = await applyImport(actor, file);
    expect(applied.errors).toEqual(dry.errors);
    const codes = await db
      .select({ code: productVariants.code })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(and(like(products.code, 'BADV-%')))
      .orderBy(asc(productVariants.code));
    expect(codes.map((variant) => variant.code)).toEqual(['BADV-A-1', 'BADV-B']);
    const [added] = await db.select({ option1: productVariants.option1, price: productVariants.priceSatang }).from(productVariants).where(eq(productVariants.code, 'P00354-97'));
    expect(added).toEqual({ option1: 'เฉดใหม่จากไฟล์', price: 9900 });
    const refused = await db.select({ code: productVariants.code }).from(productVariants).where(like(productVariants.code, 'P00354-9%'));
    expect(refused.map((variant) => variant.code)).toEqual(['P00354-97']);
  });

  it('an import and orders of the same shades at the same moment both go through, and the movements explain each figure', async () => {
    const { product, variants } = await productWithVariants([50, 50, 50]);
    const db = await getDb();
    const [lastMove] = await db.select({ id: stockMovements.id }).from(stockMovements).orderBy(desc(stockMovements.id)).limit(1);
    const exported = await exportedRows();
    const header = exported[0] as string[];
    const at = (name: string) => header.indexOf(name);
    const amount = Math.ceil(40_000 / product.priceSatang);
    for (let round = 0; round < 3; round += 1) {
      const rows = exported.filter((cells) => cells[0] === product.code).map((cells) => [...cells]);
      expect(rows).toHaveLength(3);
      for (const cells of rows) {
        cells[at('price')] = String(product.priceSatang / 100 + round + 1);
        cells[at('stock')] = String(40 - round * 5);
      }
      const member = await createMember();
      const results = await Promise.allSettled([
        applyImport(actor, csvOf([header, ...rows])),
        placeTestOrder(member, [
          { product_code: variants[1]!.code, amount },
          { product_code: variants[2]!.code, amount },
        ]),
      ]);
      expect(results.map((result) => result.status), `round ${round}`).toEqual(['fulfilled', 'fulfilled']);
    }
    for (const variant of variants) {
      const [now] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variant.id));
      const moves = await db
        .select({ delta: stockMovements.delta })
        .from(stockMovements)
        .where(and(eq(stockMovements.variantId, variant.id), gt(stockMovements.id, lastMove?.id ?? 0)));
      expect(50 + moves.reduce((sum, move) => sum + move.delta, 0), variant.code).toBe(now?.stock);
    }
    const [total] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, product.id));
    const shades = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.productId, product.id));
    expect(total?.stock).toBe(shades.reduce((sum, shade) => sum + shade.stock, 0));
  });
});

describe("a variant's own wholesale tiers in the CSV", () => {
  const ownTiersOf = async (variantId: number) => {
    const db = await getDb();
    const rows = await db
      .select({ minQuantity: productPriceTiers.minQuantity, priceSatang: productPriceTiers.priceSatang })
      .from(productPriceTiers)
      .where(eq(productPriceTiers.variantId, variantId))
      .orderBy(asc(productPriceTiers.minQuantity));
    return rows;
  };

  it('exports them in variant_tiers, round-trips them, sets and clears them by row, and refuses a price at or below them', async () => {
    const { product, variants } = await productWithVariants([10, 10, 10]);
    const [first, second, third] = variants as [(typeof variants)[0], (typeof variants)[0], (typeof variants)[0]];
    await setVariantTiers(actor, product.code, first.code, [{ minQuantity: 10, priceSatang: first.priceSatang - 500 }]);

    const exported = (await exportedRows()).filter((cells, index) => index === 0 || cells[0] === product.code);
    const header = exported[0] as string[];
    const at = (name: string) => header.indexOf(name);
    expect(header[header.length - 1]).toBe('variant_tiers');
    const rowOf = (code: string) => exported.find((cells) => cells[at('variant_code')] === code) as string[];
    expect(rowOf(first.code)[at('variant_tiers')]).toBe(`10:${(first.priceSatang - 500) / 100}`);
    expect(rowOf(second.code)[at('variant_tiers')]).toBe('');

    // Its own export changes nothing, tiers included.
    expect(await applyImport(actor, csvOf(exported))).toMatchObject({ updates: 0, unchanged: 1, errors: [] });
    expect(await ownTiersOf(first.id)).toEqual([{ minQuantity: 10, priceSatang: first.priceSatang - 500 }]);

    // The first back to the product's tiers (an empty cell), the second given its own.
    rowOf(first.code)[at('variant_tiers')] = '';
    rowOf(second.code)[at('variant_tiers')] = `5:${(second.priceSatang - 200) / 100};20:${(second.priceSatang - 400) / 100}`;
    expect(await applyImport(actor, csvOf(exported))).toMatchObject({ updates: 1, errors: [] });
    expect(await ownTiersOf(first.id)).toEqual([]);
    expect(await ownTiersOf(second.id)).toEqual([
      { minQuantity: 5, priceSatang: second.priceSatang - 200 },
      { minQuantity: 20, priceSatang: second.priceSatang - 400 },
    ]);
    const db = await getDb();
    const [audit] = await db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'product.import_update'), eq(auditLog.entityId, product.code)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(JSON.stringify(audit?.after)).toContain('"ownTiers"');

    // Tiers above the variant's own price: refused by row, nothing written.
    rowOf(third.code)[at('variant_tiers')] = `10:${third.priceSatang / 100 + 5}`;
    rowOf(third.code)[at('stock')] = '99';
    const refused = await applyImport(actor, csvOf(exported));
    expect(refused.errors).toHaveLength(1);
    expect(refused.errors[0]?.reason).toContain(`ราคาส่งของตัวเลือก ${third.code} (variant_tiers)`);
    expect(await ownTiersOf(third.id)).toEqual([]);
    expect(await variantStockOf(third.code)).toBe(10);

    // A file without the column keeps the tiers, and may not lower the price to or below them.
    const withoutTiers = exported.map((cells) => cells.slice(0, at('variant_tiers')));
    const secondRow = withoutTiers.find((cells) => cells[at('variant_code')] === second.code) as string[];
    secondRow[at('price')] = String((second.priceSatang - 400) / 100);
    const lowered = await dryRunImport(csvOf(withoutTiers));
    expect(lowered.errors).toHaveLength(1);
    expect(lowered.errors[0]?.reason).toContain(`ราคาใหม่ของตัวเลือก ${second.code} ขัดกับราคาส่งของตัวเลือกนี้`);
    secondRow[at('price')] = String((second.priceSatang + 1000) / 100);
    expect(await applyImport(actor, csvOf(withoutTiers))).toMatchObject({ updates: 1 });
    expect(await ownTiersOf(second.id)).toHaveLength(2);

    // Words that are not tiers.
    rowOf(second.code)[at('variant_tiers')] = 'ลดสิบบาท';
    const garbled = await dryRunImport(csvOf(exported));
    expect(garbled.errors.map((error) => error.reason)).toContainEqual(expect.stringContaining('ราคาส่งของตัวเลือก (variant_tiers) "ลดสิบบาท"'));
  });
});

// Guards a wait from hanging; it measures nothing.
const HANG_GUARD_MS = 15_000;

/**
 * The lock order, made to happen rather than hoped for: a checkout holds a shade's row (its first step)
 * while the import starts, and only then takes the stock, which locks the product row. An import that
 * locked the product row first would now wait on the shade while the checkout waits on it: a deadlock,
 * one of them aborted. Needs a second connection, so PostgreSQL only (PGlite has one).
 */
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('an import beside a checkout (PostgreSQL)', () => {
  it('waits behind the variant row a checkout holds and never holds the product row the checkout needs next', async () => {
    const { product, variants } = await productWithVariants([30, 30]);
    const exported = (await exportedRows()).filter((cells, index) => index === 0 || cells[0] === product.code);
    const header = exported[0] as string[];
    for (const cells of exported.slice(1)) cells[header.indexOf('stock')] = '20';
    const db = await getDb();
    const server = await database();
    let imported: Promise<ImportReport> | null = null;
    await db.transaction(async (tx) => {
      const [held] = await variantsForSale(tx, [variants[0]!.code], { lock: true });
      imported = applyImport(actor, csvOf(exported));
      imported.catch(() => undefined);
      const started = Date.now();
      for (;;) {
        const waiting = await server.rows<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        );
        if ((waiting[0]?.n ?? 0) > 0) break;
        if (Date.now() - started > HANG_GUARD_MS) throw new Error('the import never reached the held row');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await takeVariantStock(tx, held!.variantId, 2)).toBe(true);
    });
    await expect(imported).resolves.toMatchObject({ updates: 1, errors: [] });
    const shades = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.productId, product.id));
    expect(shades.map((shade) => shade.stock)).toEqual([20, 20]);
  });
});
