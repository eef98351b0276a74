import { formatTiers, parseBaht, parseTiers, parseWholeNumber, PRODUCT_CODE_HINT, PRODUCT_CODE_PATTERN, tierProblem, MAX_PRICE_SATANG, MAX_STOCK, type TierInput } from '../../lib/product-rules.ts';
import { normalizeText } from '../../lib/thai-text.ts';
import { spreadsheetSafeText, textFromSpreadsheetCell } from '../../lib/spreadsheet-cells.ts';
import { badImportedText } from '../security/control-chars.ts';

/**
 * The product CSV (import, export and the template share it). One row per variant (issue 30, Shopify's
 * shape): the product's columns repeated on each of its rows, `price` and `stock` the variant's, then the
 * option names and values and the variant's code. A file without the variant columns is the older one
 * row per product format and imports as it always did. Columns a file leaves out keep the current value.
 */
export const PRODUCT_COLUMNS = ['code', 'name', 'name_en', 'category', 'brand', 'price', 'stock', 'unit', 'active', 'recommended', 'tiers', 'description'] as const;
export const VARIANT_COLUMNS = [
  'option1_name',
  'option1_value',
  'option2_name',
  'option2_value',
  'option3_name',
  'option3_value',
  'variant_code',
  'variant_active',
  'variant_tiers',
] as const;
export const CSV_COLUMNS = [...PRODUCT_COLUMNS, ...VARIANT_COLUMNS] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
const OPTION_SLOTS = [1, 2, 3] as const;

/** A file with any variant column is read one row per variant. */
export function hasVariantColumns(columns: ReadonlyMap<CsvColumn, number>): boolean {
  return VARIANT_COLUMNS.some((key) => columns.has(key));
}

/**
 * Columns holding free text: the export guards them against spreadsheet formulas and the import undoes
 * exactly that guard. Price, stock, flags and tiers are numbers (a negative number is not a formula).
 */
const TEXT_COLUMNS: ReadonlySet<CsvColumn> = new Set([
  'code',
  'name',
  'name_en',
  'category',
  'brand',
  'unit',
  'description',
  'option1_name',
  'option1_value',
  'option2_name',
  'option2_value',
  'option3_name',
  'option3_value',
  'variant_code',
]);

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
  ชื่อตัวเลือก1: 'option1_name',
  ค่าตัวเลือก1: 'option1_value',
  ชื่อตัวเลือก2: 'option2_name',
  ค่าตัวเลือก2: 'option2_value',
  ชื่อตัวเลือก3: 'option3_name',
  ค่าตัวเลือก3: 'option3_value',
  รหัสตัวเลือก: 'variant_code',
  ตัวเลือกแสดงในร้าน: 'variant_active',
  ราคาส่งของตัวเลือก: 'variant_tiers',
};

/** `option4_name`, `option5_value`…: a fourth option, which a product cannot have (at most three). */
const EXTRA_OPTION = /^option([4-9]|\d{2,})_(name|value)$/;

export const REQUIRED_FOR_CREATE: readonly CsvColumn[] = ['code', 'name', 'category', 'price'];

export interface CsvHeader {
  columns: Map<CsvColumn, number>;
  unknown: string[];
  /** Columns of a fourth (or later) option: a row with anything in them is refused. */
  extraOptions: number[];
}

/** header cells → column index by key; unknown headings are reported. */
export function mapHeader(cells: readonly string[]): CsvHeader {
  const columns = new Map<CsvColumn, number>();
  const unknown: string[] = [];
  const extraOptions: number[] = [];
  cells.forEach((cell, index) => {
    const heading = normalizeText(cell).replace(/^\uFEFF/, '');
    const key = (CSV_COLUMNS as readonly string[]).includes(heading.toLowerCase()) ? (heading.toLowerCase() as CsvColumn) : ALIASES[heading];
    if (key && !columns.has(key)) columns.set(key, index);
    else if (EXTRA_OPTION.test(heading.toLowerCase())) extraOptions.push(index);
    else if (heading !== '') unknown.push(heading);
  });
  return { columns, unknown, extraOptions };
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

/** One variant row of a file with the variant columns. */
export interface CsvVariantRow {
  line: number;
  /** The variant's code (the product's when the cell is empty: a one-variant product). */
  code: string;
  /** Option names the row states (empty: none stated), in slot order. */
  optionNames: string[];
  /** Values for option 1..3; '' where the cell is empty. */
  optionValues: [string, string, string];
  priceSatang?: number;
  stock?: number;
  active?: boolean;
  /**
   * The variant's own wholesale tiers (docs/decisions/222): a list, or null for "the product's tiers"
   * (an empty cell); absent when the file has no `variant_tiers` column (the variant's stay as they are).
   */
  ownTiers?: TierInput[] | null;
}

export interface CsvRow {
  line: number;
  code: string;
  fields: CsvProductFields;
  /** Set in a file with the variant columns: this row's variant (csv-read.ts then groups a product's rows). */
  variant?: CsvVariantRow;
  /** A product's rows grouped, the first row's product columns in `fields` (csv-read.ts). */
  variants?: CsvVariantRow[];
}

export interface ReadRowOptions {
  /** The file's columns of a fourth option and more. */
  extraOptions?: readonly number[];
  /**
   * A later row of the same product in a file with the variant columns: its empty product columns are
   * left out (the first row's stand), as in Shopify's file, rather than read as "clear this".
   */
  continuation?: boolean;
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
export function readRow(
  cells: readonly string[],
  columns: Map<CsvColumn, number>,
  line: number,
  options: ReadRowOptions = {},
): CsvRow | { line: number; code: string; reason: string } {
  const cell = (key: CsvColumn) => {
    const index = columns.get(key);
    if (index === undefined) return undefined;
    const text = cells[index] ?? '';
    if (options.continuation && key !== 'code' && (PRODUCT_COLUMNS as readonly string[]).includes(key) && key !== 'price' && key !== 'stock' && text.trim() === '') return undefined;
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
  if ((options.extraOptions ?? []).some((index) => (cells[index] ?? '').trim() !== '')) {
    return fail('สินค้าหนึ่งรายการมีตัวเลือกได้ไม่เกิน 3 ชุด (option1 ถึง option3) กรุณาลบตัวเลือกที่ 4 ขึ้นไปออก');
  }
  if (!hasVariantColumns(columns)) return { line, code, fields };
  const variant = readVariant(cell, line, code, fields);
  return typeof variant === 'string' ? fail(variant) : { line, code, fields, variant };
}

const MAX_OPTION_NAME = 30;
const MAX_OPTION_VALUE = 100;

/** The variant columns of a row: its code, options, and the price, stock and flag that are the variant's. */
function readVariant(cell: (key: CsvColumn) => string | undefined, line: number, productCode: string, fields: CsvProductFields): CsvVariantRow | string {
  const variantCode = normalizeText(cell('variant_code') ?? '');
  if (variantCode && !PRODUCT_CODE_PATTERN.test(variantCode)) return `รหัสตัวเลือก (variant_code) "${variantCode}" ใช้ได้เฉพาะ A–Z, a–z, 0–9, ขีด (-) และขีดล่าง (_) ไม่เกิน 64 ตัว`;
  const names = OPTION_SLOTS.map((slot) => normalizeText(cell(`option${slot}_name`) ?? ''));
  const values = OPTION_SLOTS.map((slot) => normalizeText(cell(`option${slot}_value`) ?? '')) as [string, string, string];
  const lastName = names.findLastIndex((name) => name !== '');
  if (names.slice(0, lastName + 1).some((name) => name === '')) return 'ชื่อตัวเลือกต้องเรียงจาก option1_name ไม่เว้นช่องว่างระหว่างกัน';
  if (names.some((name) => name.length > MAX_OPTION_NAME)) return `ชื่อตัวเลือกยาวเกิน ${MAX_OPTION_NAME} ตัวอักษร`;
  if (new Set(names.filter(Boolean)).size !== lastName + 1) return 'ชื่อตัวเลือกซ้ำกัน (เช่น มี สี สองช่อง)';
  if (values.some((value) => value.length > MAX_OPTION_VALUE)) return `ค่าตัวเลือกยาวเกิน ${MAX_OPTION_VALUE} ตัวอักษร`;
  const variant: CsvVariantRow = { line, code: variantCode || productCode, optionNames: names.slice(0, lastName + 1), optionValues: values };
  if (fields.priceSatang !== undefined) variant.priceSatang = fields.priceSatang;
  if (fields.stock !== undefined) variant.stock = fields.stock;
  const active = cell('variant_active');
  if (active !== undefined && active.trim() !== '') {
    const value = flag(active);
    if (value === null) return 'ช่อง variant_active ต้องเป็น 1 หรือ 0 (หรือเว้นว่างเพื่อคงค่าเดิม)';
    variant.active = value;
  }
  const ownTiers = cell('variant_tiers');
  if (ownTiers !== undefined) {
    const parsed = parseTiers(ownTiers);
    if (parsed === null) return `ราคาส่งของตัวเลือก (variant_tiers) "${ownTiers}" ต้องเขียนแบบ จำนวน:ราคา คั่นด้วย ; เช่น 10:90;50:80 หรือเว้นว่างเพื่อใช้ราคาส่งของสินค้า`;
    variant.ownTiers = parsed.length > 0 ? parsed : null;
  }
  // Price and stock are the variant's here: the product's follow its variants (docs/decisions/205).
  delete fields.priceSatang;
  delete fields.stock;
  return variant;
}

/** The product columns two rows of one product both state and disagree on (empty cells state nothing). */
export function disagreeingColumns(first: CsvRow, later: CsvRow): string[] {
  const a = first.fields;
  const b = later.fields;
  const differ: string[] = [];
  const check = (column: string, left: unknown, right: unknown) => {
    if (right !== undefined && left !== right) differ.push(column);
  };
  check('name', a.name, b.name);
  check('name_en', a.nameEn, b.nameEn);
  check('category', a.categoryCode, b.categoryCode);
  check('brand', a.brandCode, b.brandCode);
  check('unit', a.unit, b.unit);
  check('active', a.active, b.active);
  check('recommended', a.recommended, b.recommended);
  check('tiers', a.tiers && formatTiers(a.tiers), b.tiers && formatTiers(b.tiers));
  check('description', a.description, b.description);
  const firstNames = first.variant?.optionNames ?? [];
  const laterNames = later.variant?.optionNames ?? [];
  if (laterNames.length > 0 && laterNames.join('\u0001') !== firstNames.join('\u0001')) differ.push('option_name');
  return differ;
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
  /** The variant columns: the code alone for a one-variant product (`priceSatang`/`stock` are then the product's). */
  variant: { code: string; optionNames: readonly string[]; optionValues: readonly (string | null)[]; active: boolean | null; ownTiers: readonly TierInput[] };
}

export function exportCells(row: ExportRow): string[] {
  const { variant } = row;
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
    ...OPTION_SLOTS.flatMap((slot) => [spreadsheetSafeText(variant.optionNames[slot - 1] ?? ''), spreadsheetSafeText(variant.optionValues[slot - 1] ?? '')]),
    spreadsheetSafeText(variant.code),
    variant.active === null ? '' : variant.active ? '1' : '0',
    formatTiers(variant.ownTiers),
  ];
}
