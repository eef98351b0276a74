import { parse } from 'csv-parse';
import { isUtf8 } from 'node:buffer';
import { threadId } from 'node:worker_threads';
import { badRequest } from '../http/errors.ts';
import { badImportedText } from '../security/control-chars.ts';
import { mapHeader, readRow, type CsvRow } from './csv-columns.ts';

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

/**
 * The file read into its header and batches of rows. The header comes first; a file with no header,
 * no code column or control characters in its header is refused before any row.
 */
export async function* readImportRows(bytes: Uint8Array, batchSize = IMPORT_BATCH): AsyncGenerator<ImportRead> {
  const { input, encoding } = decodeFile(bytes);
  const seen = new Map<string, number>();
  let columns: ReturnType<typeof mapHeader>['columns'] | null = null;
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
      if (!columns.has('code')) throw badRequest('csv_no_code_column', 'ไม่พบคอลัมน์ code (รหัสสินค้า) ในแถวแรกของไฟล์ กรุณาใช้แม่แบบที่ดาวน์โหลดจากหน้านี้');
      yield { kind: 'header', encoding, unknownColumns: header.unknown, thread: threadId };
      continue;
    }
    if (cells.every((cell) => cell.trim() === '')) continue;
    counted++;
    const row = readRow(cells, columns, line);
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
    if (batch.length >= batchSize) {
      yield { kind: 'rows', counted, batch, problems };
      batch = [];
      problems = [];
      counted = 0;
    }
  }
  if (!columns) throw badRequest('csv_empty', 'ไฟล์ว่างเปล่า กรุณาเลือกไฟล์ CSV ที่มีรายการสินค้า');
  if (counted > 0 || batch.length > 0 || problems.length > 0) yield { kind: 'rows', counted, batch, problems };
}
