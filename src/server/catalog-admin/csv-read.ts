import { parse } from 'csv-parse';
import { isUtf8 } from 'node:buffer';
import { threadId } from 'node:worker_threads';
import { badRequest } from '../http/errors.ts';
import { badImportedText } from '../security/control-chars.ts';
import { disagreeingColumns, hasVariantColumns, mapHeader, readRow, type CsvColumn, type CsvHeader, type CsvRow, type CsvVariantRow } from './csv-columns.ts';
import { normalizeText } from '../../lib/thai-text.ts';
import { textFromSpreadsheetCell } from '../../lib/spreadsheet-cells.ts';

/**
 * Reading a product CSV into rows (docs/design.md section 10): the text's encoding, the header, each row
 * checked on its own (values, control characters, codes seen twice). Nothing here touches the database,
 * so it runs on a thread of its own (csv-read-thread.ts, docs/decisions/196) and hands the rows over in
 * batches; planning them against the catalog stays with csv-import.service.ts.
 * Erasable TypeScript only: Node runs this file directly in the worker, not through the bundle.
 */

export interface ImportProblem {
  line: number;
  code: string;
  reason: string;
}

export type ImportEncoding = 'utf-8' | 'windows-874';

/** What the reader hands over: the header once, then batches of rows to plan. */
export type ImportRead =
  | {
      kind: 'header';
      encoding: ImportEncoding;
      unknownColumns: string[];
      /** The thread that read the file (0: the main thread), for diagnosis and tests. */
      thread: number;
    }
  | {
      kind: 'rows';
      /** Rows read since the last batch (good, bad and duplicate). */
      counted: number;
      /** The good rows, at most `batchSize`, each code once in the whole file. */
      batch: CsvRow[];
      problems: ImportProblem[];
    };

/** Good rows in one batch: one query for the products they name. */
export const IMPORT_BATCH = 1000;

// A Thai vowel or tone mark sits on a consonant (or on another mark). Text read as Windows-874 with one
// anywhere else (after a Latin letter, say) was some other encoding: é in Latin-1 reads as a tone mark.
const isThaiMark = (code: number) => code === 0x0e31 || (code >= 0x0e34 && code <= 0x0e3a) || (code >= 0x0e47 && code <= 0x0e4e);
const isThaiLetter = (code: number) => code >= 0x0e01 && code <= 0x0e5b;
const carriesThaiMark = (code: number) => code >= 0x0e01 && code < 0x0e50;

function readsAsThai(text: string): boolean {
  let thai = false;
  let previous = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isThaiMark(code) && !carriesThaiMark(previous)) return false;
    if (isThaiLetter(code)) thai = true;
    previous = code;
  }
  return thai;
}

/**
 * The file's text. UTF-8 (with or without Excel's BOM) is read as it is; a file that is not UTF-8 but
 * reads as Thai in Windows-874 (TIS-620, what older Excel and POS programs save) is converted, and the
 * report says so; anything else is refused in Thai, naming the encoding to save as.
 */
function decodeFile(bytes: Uint8Array): { input: string; encoding: ImportEncoding } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) return { input: buffer.toString('utf8'), encoding: 'utf-8' };
  let text: string | null;
  try {
    text = new TextDecoder('windows-874', { fatal: true }).decode(buffer);
  } catch {
    text = null;
  }
  if (text !== null && readsAsThai(text)) return { input: text, encoding: 'windows-874' };
  throw badRequest(
    'csv_encoding',
    'อ่านไฟล์นี้ไม่ได้: ไฟล์ไม่ได้เข้ารหัสเป็น UTF-8 และไม่ใช่ภาษาไทยแบบ Windows-874 (TIS-620) กรุณาบันทึกจาก Excel เป็น “CSV UTF-8 (คั่นด้วยจุลภาค)” แล้วลองใหม่',
  );
}

/** Pieces of text the parser is fed: it works through a piece at a time, never the whole file in one go. */
const PIECE = 64 * 1024;

/** Records of the file with the line each ends on; a malformed file is one Thai 400. */
async function* records(input: string): AsyncGenerator<{ cells: string[]; line: number }> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        parser.off('drain', done);
        parser.off('close', done);
        resolve();
      };
      parser.on('drain', done);
      parser.on('close', done);
    });
  // Fed piece by piece as the reader takes records (whole characters: the text is already decoded), so
  // the parser holds a piece's records at a time.
  const feed = async () => {
    let start = 0;
    while (start < input.length) {
      if (parser.destroyed) return;
      let end = Math.min(start + PIECE, input.length);
      // Never between the two halves of a character outside the BMP (an emoji in a name).
      if (end < input.length && /[\uD800-\uDBFF]/.test(input[end - 1]!)) end -= 1;
      const piece = input.slice(start, end);
      start = end;
      if (!parser.write(piece)) await drained();
    }
    if (!parser.destroyed) parser.end();
  };
  const fed = feed().catch((error: unknown) => parser.destroy(error as Error));
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { cells: item.record, line: item.info.lines };
    }
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw badRequest('csv_malformed', `ไฟล์ CSV ผิดรูปแบบ${line ? ` ที่บรรทัด ${line}` : ''} (เช่น เครื่องหมายคำพูดไม่ครบคู่) กรุณาบันทึกจาก Excel เป็น CSV UTF-8 แล้วลองใหม่`);
  } finally {
    if (!parser.destroyed) parser.destroy();
    await fed;
  }
}

/** Variants a product may have in one file (the back office's variants table takes as many). */
export const MAX_VARIANT_ROWS = 200;

/**
 * A file with the variant columns: a product's rows follow one another (as the export writes them) and
 * are gathered into one row whose `variants` are theirs, its product columns from the first row. Checks
 * that need the whole file are made here: a code met twice, a product's rows apart, later rows
 * disagreeing with the first. What needs the catalog (a code another product owns, option values
 * against the product's option names) is left to the planner.
 */
class VariantGroups {
  /** Product code → the line its rows start on. */
  private readonly products = new Map<string, number>();
  /** Variant code → its first line and product. */
  private readonly variants = new Map<string, { line: number; product: string }>();
  private current: { code: string; line: number; first: CsvRow | null; grouped: CsvRow | null } | null = null;

  private readonly columns: Map<CsvColumn, number>;
  private readonly extraOptions: readonly number[];

  constructor(columns: Map<CsvColumn, number>, extraOptions: readonly number[]) {
    this.columns = columns;
    this.extraOptions = extraOptions;
  }

  /** Reads one row; returns a finished product when this row starts the next one. */
  add(cells: readonly string[], line: number, problems: ImportProblem[]): CsvRow | null {
    const codeAt = this.columns.get('code') as number;
    const code = normalizeText(textFromSpreadsheetCell(cells[codeAt] ?? ''));
    const continuation = this.current !== null && code !== '' && code === this.current.code;
    const row = readRow(cells, this.columns, line, { extraOptions: this.extraOptions, continuation });
    const problem = (reason: string) => problems.push({ line, code: row.code, reason });
    let finished: CsvRow | null = null;
    if (!continuation) {
      finished = this.finish();
      const started = this.products.get(code);
      const asVariant = this.variants.get(code);
      this.current = { code, line, first: null, grouped: null };
      if (code !== '') {
        if (started !== undefined) {
          this.current = null;
          problem(`แถวของสินค้าเดียวกันต้องอยู่ติดกัน: สินค้า ${code} อยู่ที่บรรทัด ${started} แล้ว`);
          return finished;
        }
        this.products.set(code, line);
        if (asVariant && asVariant.product !== code) {
          this.current = null;
          problem(`รหัสสินค้า ${code} เป็นรหัสตัวเลือกของสินค้า ${asVariant.product} (บรรทัด ${asVariant.line}) แล้ว`);
          return finished;
        }
      }
      if (!('fields' in row)) {
        problems.push(row);
        return finished;
      }
      this.current.first = row;
      this.current.grouped = { line, code, fields: row.fields, variants: [] };
    } else {
      const group = this.current as NonNullable<typeof this.current>;
      if (!group.first || !group.grouped) {
        problem(`ข้ามแถวนี้: แถวแรกของสินค้า ${code} (บรรทัด ${group.line}) มีปัญหา`);
        return null;
      }
      if (!('fields' in row)) {
        problems.push(row);
        return null;
      }
      const differ = disagreeingColumns(group.first, row);
      if (differ.length > 0) {
        problem(`ข้อมูลสินค้าช่อง ${differ.join(', ')} ไม่ตรงกับแถวแรกของสินค้านี้ (บรรทัด ${group.line}): ข้อมูลสินค้าใช้จากแถวแรก แถวต่อมาให้เว้นว่างหรือใส่ให้ตรงกัน`);
        return null;
      }
      if ((group.grouped.variants?.length ?? 0) >= MAX_VARIANT_ROWS) {
        problem(`สินค้าหนึ่งรายการมีตัวเลือกได้ไม่เกิน ${MAX_VARIANT_ROWS} แบบ`);
        return null;
      }
    }
    const variant = row.variant as CsvVariantRow;
    const seenVariant = this.variants.get(variant.code);
    const otherProduct = variant.code !== code ? this.products.get(variant.code) : undefined;
    if (seenVariant) problem(`รหัสตัวเลือก ${variant.code} ซ้ำกับบรรทัด ${seenVariant.line}`);
    else if (otherProduct !== undefined) problem(`รหัสตัวเลือก ${variant.code} เป็นรหัสของสินค้าอื่นในไฟล์ (บรรทัด ${otherProduct})`);
    else {
      this.variants.set(variant.code, { line, product: code });
      this.current?.grouped?.variants?.push(variant);
    }
    return finished;
  }

  /** The product being gathered, done (null when none, or every row of it was refused). */
  finish(): CsvRow | null {
    const grouped = this.current?.grouped ?? null;
    this.current = null;
    return grouped && (grouped.variants?.length ?? 0) > 0 ? grouped : null;
  }
}

/**
 * The file read into its header and batches of rows. The header comes first; a file with no header,
 * no code column or control characters in its header is refused before any row. In a file with the
 * variant columns a batch holds whole products (a product's rows are never split between batches).
 */
export async function* readImportRows(bytes: Uint8Array, batchSize = IMPORT_BATCH): AsyncGenerator<ImportRead> {
  const { input, encoding } = decodeFile(bytes);
  const seen = new Map<string, number>();
  let columns: CsvHeader['columns'] | null = null;
  let groups: VariantGroups | null = null;
  let extraOptions: number[] = [];
  let batch: CsvRow[] = [];
  let problems: ImportProblem[] = [];
  let counted = 0;
  for await (const { cells, line } of records(input)) {
    if (!columns) {
      if (cells.some((cell) => badImportedText(cell))) {
        throw badRequest('csv_invalid_characters', 'แถวหัวตาราง (บรรทัด 1) มีอักขระที่ระบบไม่รองรับ (อักขระควบคุม เช่น NUL, BEL, ESC หรืออักขระกลับทิศทางข้อความ) กรุณาใช้แม่แบบที่ดาวน์โหลดจากหน้านี้');
      }
      const header = mapHeader(cells);
      columns = header.columns;
      extraOptions = header.extraOptions;
      if (!columns.has('code')) throw badRequest('csv_no_code_column', 'ไม่พบคอลัมน์ code (รหัสสินค้า) ในแถวแรกของไฟล์ กรุณาใช้แม่แบบที่ดาวน์โหลดจากหน้านี้');
      if (hasVariantColumns(columns)) groups = new VariantGroups(columns, extraOptions);
      yield { kind: 'header', encoding, unknownColumns: header.unknown, thread: threadId };
      continue;
    }
    if (cells.every((cell) => cell.trim() === '')) continue;
    counted++;
    if (groups) {
      const finished = groups.add(cells, line, problems);
      if (finished) batch.push(finished);
    } else {
      const row = readRow(cells, columns, line, { extraOptions });
      if (!('fields' in row)) {
        problems.push(row);
        continue;
      }
      const first = seen.get(row.code);
      if (first !== undefined) {
        problems.push({ line: row.line, code: row.code, reason: `รหัสสินค้าซ้ำกับบรรทัด ${first}` });
        continue;
      }
      seen.set(row.code, row.line);
      batch.push(row);
    }
    if (batch.length >= batchSize) {
      yield { kind: 'rows', counted, batch, problems };
      batch = [];
      problems = [];
      counted = 0;
    }
  }
  if (!columns) throw badRequest('csv_empty', 'ไฟล์ว่างเปล่า กรุณาเลือกไฟล์ CSV ที่มีรายการสินค้า');
  const last = groups?.finish();
  if (last) batch.push(last);
  if (counted > 0 || batch.length > 0 || problems.length > 0) yield { kind: 'rows', counted, batch, problems };
}
