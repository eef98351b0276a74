import { formatTiers, parseBaht, parseTiers, parseWholeNumber, PRODUCT_CODE_HINT, PRODUCT_CODE_PATTERN, tierProblem, MAX_PRICE_SATANG, MAX_STOCK, type TierInput } from '../../lib/product-rules.ts';
import { normalizeText } from '../../lib/thai-text.ts';
import { spreadsheetSafeText, textFromSpreadsheetCell } from '../../lib/spreadsheet-cells.ts';
import { badImportedText } from '../security/control-chars.ts';

/**
 * The product CSV (import, export and the template share it). One row per product, created or updated
 * by `code`. Columns a file leaves out keep the product's current value on update.
 */
export const CSV_COLUMNS = ['code', 'name', 'name_en', 'category', 'brand', 'price', 'stock', 'unit', 'active', 'recommended', 'tiers', 'description'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/**
 * Columns holding free text: the export guards them against spreadsheet formulas and the import undoes
 * exactly that guard. Price, stock, flags and tiers are numbers (a negative number is not a formula).
 */
const TEXT_COLUMNS: ReadonlySet<CsvColumn> = new Set(['code', 'name', 'name_en', 'category', 'brand', 'unit', 'description']);

/** Thai headings people type in Excel are accepted too. */
const ALIASES: Record<string, CsvColumn> = {
  รหัสสินค้า: 'code',
  ชื่อสินค้า: 'name',
  ชื่อภาษาอังกฤษ: 'name_en',
  หมวดหมู่: 'category',
  แบรนด์: 'brand',
  'ราคา (บาท)': 'price',
  ราคา: 'price',
  คงเหลือ: 'stock',
  หน่วย: 'unit',
  แสดงในร้าน: 'active',
  สินค้าแนะนำ: 'recommended',
  ราคาส่ง: 'tiers',
  รายละเอียด: 'description',
};

export const REQUIRED_FOR_CREATE: readonly CsvColumn[] = ['code', 'name', 'category', 'price'];

/** header cells → column index by key; unknown headings are reported. */
export function mapHeader(cells: readonly string[]): { columns: Map<CsvColumn, number>; unknown: string[] } {
  const columns = new Map<CsvColumn, number>();
  const unknown: string[] = [];
  cells.forEach((cell, index) => {
    const heading = normalizeText(cell).replace(/^\uFEFF/, '');
    const key = (CSV_COLUMNS as readonly string[]).includes(heading.toLowerCase()) ? (heading.toLowerCase() as CsvColumn) : ALIASES[heading];
    if (key && !columns.has(key)) columns.set(key, index);
    else if (heading !== '') unknown.push(heading);
  });
  return { columns, unknown };
}

/** The fields a row sets; absent keys were not in the file. */
export interface CsvProductFields {
  name?: string;
  nameEn?: string;
  categoryCode?: string;
  brandCode?: string | null;
  priceSatang?: number;
  stock?: number;
  unit?: string;
  active?: boolean;
  recommended?: boolean;
  tiers?: TierInput[];
  description?: string;
}

export interface CsvRow {
  line: number;
  code: string;
  fields: CsvProductFields;
}

const YES = new Set(['1', 'true', 'yes', 'y', 'ใช่', 'แสดง', 'x', '✓']);
const NO = new Set(['0', 'false', 'no', 'n', 'ไม่', 'ไม่ใช่', 'ซ่อน', '']);

function flag(text: string): boolean | null {
  const value = text.trim().toLowerCase();
  if (YES.has(value)) return true;
  if (NO.has(value)) return false;
  return null;
}

/** One data row → fields, or the Thai reason it cannot be used. Category/brand existence is checked later. */
export function readRow(cells: readonly string[], columns: Map<CsvColumn, number>, line: number): CsvRow | { line: number; code: string; reason: string } {
  const cell = (key: CsvColumn) => {
    const index = columns.get(key);
    if (index === undefined) return undefined;
    const text = cells[index] ?? '';
    return TEXT_COLUMNS.has(key) ? textFromSpreadsheetCell(text) : text;
  };
  const refusedAt = cells.findIndex((text) => badImportedText(text));
  if (refusedAt >= 0) {
    const rawCode = cell('code') ?? '';
    return { line, code: badImportedText(rawCode) ? '' : normalizeText(rawCode), reason: refusedTextReason(columns, refusedAt) };
  }
  const code = normalizeText(cell('code') ?? '');
  const fail = (reason: string) => ({ line, code, reason });
  if (!code) return fail('ไม่มีรหัสสินค้า');
  if (!PRODUCT_CODE_PATTERN.test(code)) return fail(PRODUCT_CODE_HINT);
  const fields: CsvProductFields = {};
  const name = cell('name');
  if (name !== undefined) {
    fields.name = normalizeText(name);
    if (!fields.name) return fail('ไม่มีชื่อสินค้า');
    if (fields.name.length > 200) return fail('ชื่อสินค้ายาวเกิน 200 ตัวอักษร');
  }
  const nameEn = cell('name_en');
  if (nameEn !== undefined) fields.nameEn = normalizeText(nameEn).slice(0, 200);
  const category = cell('category');
  if (category !== undefined) {
    fields.categoryCode = normalizeText(category).toLowerCase();
    if (!fields.categoryCode) return fail('ไม่มีรหัสหมวดหมู่');
  }
  const brand = cell('brand');
  if (brand !== undefined) fields.brandCode = normalizeText(brand).toLowerCase() || null;
  const price = cell('price');
  if (price !== undefined) {
    const satang = parseBaht(price);
    if (satang === null || satang > MAX_PRICE_SATANG) return fail(`ราคา "${price}" ไม่ใช่ตัวเลขที่ถูกต้อง`);
    fields.priceSatang = satang;
  }
  const stock = cell('stock');
  if (stock !== undefined && stock.trim() !== '') {
    const value = parseWholeNumber(stock);
    if (value === null || value > MAX_STOCK) return fail(`จำนวนคงเหลือ "${stock}" ต้องเป็นจำนวนเต็มตั้งแต่ 0 ขึ้นไป`);
    fields.stock = value;
  }
  const unit = cell('unit');
  if (unit !== undefined && unit.trim() !== '') {
    fields.unit = normalizeText(unit);
    if (fields.unit.length > 20) return fail('หน่วยยาวเกิน 20 ตัวอักษร');
  }
  for (const key of ['active', 'recommended'] as const) {
    const text = cell(key);
    if (text === undefined) continue;
    const value = flag(text);
    if (value === null) return fail(`ช่อง ${key} ต้องเป็น 1 หรือ 0`);
    fields[key] = value;
  }
  const tiers = cell('tiers');
  if (tiers !== undefined) {
    const parsed = parseTiers(tiers);
    if (parsed === null) return fail(`ราคาส่ง "${tiers}" ต้องเขียนแบบ จำนวน:ราคา คั่นด้วย ; เช่น 10:90;50:80`);
    fields.tiers = parsed;
  }
  const description = cell('description');
  if (description !== undefined) {
    fields.description = description.replace(/\r\n/g, '\n').trim();
    if (fields.description.length > 10_000) return fail('รายละเอียดยาวเกิน 10,000 ตัวอักษร');
  }
  return { line, code, fields };
}

function refusedTextReason(columns: Map<CsvColumn, number>, index: number): string {
  const column = [...columns].find(([, at]) => at === index)?.[0];
  return `${column ? `ช่อง ${column} ` : ''}มีอักขระที่ระบบไม่รองรับ (อักขระควบคุม เช่น NUL, BEL, ESC หรืออักขระกลับทิศทางข้อความ) กรุณาลบออกแล้วนำเข้าใหม่`;
}

/** Tier rules for the price and tiers a product will have after this row. */
export function mergedTierProblem(priceSatang: number, tiers: readonly TierInput[]): string | null {
  return tierProblem(priceSatang, tiers);
}

export interface ExportRow {
  code: string;
  name: string;
  nameEn: string;
  categoryCode: string;
  brandCode: string | null;
  priceSatang: number;
  stock: number;
  unit: string;
  active: boolean;
  recommended: boolean;
  tiers: TierInput[];
  description: string;
}

export function exportCells(row: ExportRow): string[] {
  return [
    spreadsheetSafeText(row.code),
    spreadsheetSafeText(row.name),
    spreadsheetSafeText(row.nameEn),
    spreadsheetSafeText(row.categoryCode),
    spreadsheetSafeText(row.brandCode ?? ''),
    (row.priceSatang / 100).toFixed(2).replace(/\.00$/, ''),
    String(row.stock),
    spreadsheetSafeText(row.unit),
    row.active ? '1' : '0',
    row.recommended ? '1' : '0',
    formatTiers(row.tiers),
    spreadsheetSafeText(row.description),
  ];
}
