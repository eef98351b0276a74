/**
 * The options form of the back office's variant editor (issue 30, docs/decisions/214), the pure part:
 * reading what staff typed and listing the combinations. Shared by the server and its tests.
 */
import { MAX_OPTIONS } from './variants.ts';

/** The most variants one product may have: the variants table is saved in one form of at most 200 rows. */
export const MAX_VARIANTS = 200;
export const MAX_OPTION_NAME = 30;
export const MAX_OPTION_VALUE = 60;

/** One value of an option as typed: "ส้มพีช #f4a683" is the value ส้มพีช with its colour. */
export interface OptionValueInput {
  value: string;
  swatch: string | null;
}

export interface OptionInput {
  name: string;
  values: OptionValueInput[];
}

/**
 * Values one per line or comma separated, in the order typed, repeats dropped. A value may end with its
 * colour (`#rrggbb`), kept only where `withSwatch` (the first option, the one a picker draws as swatches).
 */
export function parseOptionValues(text: string, withSwatch: boolean): OptionValueInput[] {
  const seen = new Set<string>();
  const values: OptionValueInput[] = [];
  for (const piece of text.split(/[\n,]/)) {
    let value = piece.replace(/\s+/g, ' ').trim();
    let swatch: string | null = null;
    const colour = /\s*(#[0-9a-fA-F]{6})$/.exec(value);
    if (colour) {
      value = value.slice(0, colour.index).trim();
      swatch = withSwatch ? (colour[1] as string).toLowerCase() : null;
    }
    if (!value || seen.has(value.toLowerCase())) continue;
    seen.add(value.toLowerCase());
    values.push({ value, swatch });
  }
  return values;
}

/** The option values as the form shows them again: one per line, the first option's with their colour. */
export function formatOptionValues(values: readonly OptionValueInput[]): string {
  return values.map((entry) => (entry.swatch ? `${entry.value} ${entry.swatch}` : entry.value)).join('\n');
}

/** A Thai message for what is wrong with the options, or null. */
export function optionsProblem(options: readonly OptionInput[]): string | null {
  if (options.length === 0) return 'กรุณาใส่ชื่อตัวเลือกอย่างน้อยหนึ่งชื่อ (เช่น สี ขนาด กลิ่น) พร้อมค่าของตัวเลือก';
  if (options.length > MAX_OPTIONS) return `ตั้งตัวเลือกได้ไม่เกิน ${MAX_OPTIONS} ชื่อ`;
  const names = new Set<string>();
  for (const option of options) {
    if (!option.name) return `กรุณาใส่ชื่อตัวเลือก (เช่น สี ขนาด) ของค่า "${option.values[0]?.value ?? ''}"`;
    if (option.name.length > MAX_OPTION_NAME) return `ชื่อตัวเลือก "${option.name}" ยาวเกิน ${MAX_OPTION_NAME} ตัวอักษร`;
    if (names.has(option.name)) return `ชื่อตัวเลือก "${option.name}" ซ้ำกัน`;
    names.add(option.name);
    if (option.values.length === 0) return `กรุณาใส่ค่าของตัวเลือก "${option.name}" อย่างน้อยหนึ่งค่า (บรรทัดละค่า หรือคั่นด้วยจุลภาค)`;
    const long = option.values.find((entry) => entry.value.length > MAX_OPTION_VALUE);
    if (long) return `ค่า "${long.value.slice(0, 20)}…" ของตัวเลือก "${option.name}" ยาวเกิน ${MAX_OPTION_VALUE} ตัวอักษร`;
  }
  const total = options.reduce((product, option) => product * option.values.length, 1);
  if (total > MAX_VARIANTS) return `ตัวเลือกทั้งหมด ${total.toLocaleString('th-TH')} แบบ เกินที่ตั้งได้ ${MAX_VARIANTS} แบบต่อสินค้า`;
  return null;
}

/** Every combination in the order the lists give, the first option changing slowest: [[แดง, S], [แดง, M], [ดำ, S] …]. */
export function combinations(options: readonly OptionInput[]): string[][] {
  let result: string[][] = [[]];
  for (const option of options) result = result.flatMap((prefix) => option.values.map((entry) => [...prefix, entry.value]));
  return options.length === 0 ? [] : result;
}

/**
 * Which existing variant becomes which combination: a variant whose values equal the combination's, or
 * whose missing values (an option added since, or a one-variant product's variant, which has none) are
 * taken as the combination's first free match. Exact matches are claimed first, so adding a value never
 * moves an existing variant. Returns, per combination, the index of the variant it keeps (or null: new),
 * and the variants no combination kept.
 */
export function matchCombinations(combos: readonly (readonly string[])[], variants: readonly (readonly (string | null)[])[]): { kept: (number | null)[]; left: number[] } {
  const key = (values: readonly (string | null)[]) => values.map((value) => (value ?? '').toLowerCase()).join('\u0000');
  const kept: (number | null)[] = combos.map(() => null);
  const claimed = new Set<number>();
  const exact = new Map<string, number>();
  variants.forEach((values, index) => {
    const width = combos[0]?.length ?? 0;
    const padded = Array.from({ length: width }, (_, at) => values[at] ?? null);
    if (padded.every((value) => value !== null) && !exact.has(key(padded))) exact.set(key(padded), index);
  });
  combos.forEach((combo, at) => {
    const index = exact.get(key(combo));
    if (index !== undefined && !claimed.has(index)) {
      kept[at] = index;
      claimed.add(index);
    }
  });
  combos.forEach((combo, at) => {
    if (kept[at] !== null) return;
    const index = variants.findIndex(
      (values, candidate) =>
        !claimed.has(candidate) &&
        values.slice(combo.length).every((value) => value === null) &&
        combo.every((value, option) => values[option] === null || values[option] === undefined || values[option]!.toLowerCase() === value.toLowerCase()),
    );
    if (index >= 0) {
      kept[at] = index;
      claimed.add(index);
    }
  });
  return { kept, left: variants.map((_, index) => index).filter((index) => !claimed.has(index)) };
}
