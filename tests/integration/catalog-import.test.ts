import { exportedCatalogCsv } from '../fixtures/catalog-csv';
import { describe, expect, it } from 'vitest';
import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { count, eq, inArray, like } from 'drizzle-orm';
import { getDb } from '../../src/server/db/client';
import { auditLog, productPriceTiers, products, productVariants, stockMovements } from '../../src/server/db/schema';
import { applyImport, dryRunImport, expireCheckedImports, importFile, keepImportFile, type ImportReport } from '../../src/server/catalog-admin/csv-import.service';
import { loadImportReport, saveImportReport } from '../../src/server/catalog-admin/import-reports';
import * as importCheck from '../../src/pages/api/admin/import/check';
import { staffClient } from '../fixtures/admin';
import { templateCsv } from '../../src/server/catalog-admin/csv-export.service';
import type { AuditActor } from '../../src/server/audit/audit.service';
import { AppError } from '../../src/server/http/errors';
import { readImportRowsOffThread } from '../../src/server/catalog-admin/csv-read-thread';
import { threadId } from 'node:worker_threads';

const actor: AuditActor = { id: null, email: 'importer@example.test', role: 'staff', via: 'web' };
const HEADER = 'code,name,name_en,category,brand,price,stock,unit,active,recommended,tiers,description';
const encode = (text: string) => new TextEncoder().encode(text);

/** 1,000 rows; every 50th is broken in one of five ways (20 in all). Line 1 is the header. */
function thousandRows(): { text: string; badLines: number[] } {
  const lines = [HEADER];
  const badLines: number[] = [];
  for (let index = 0; index < 1000; index++) {
    const code = `IMP-${String(index).padStart(4, '0')}`;
    let row = `${code},"ชุดของขวัญทดสอบ, แบบที่ ${index}",Import ${index},gifts,,${100 + (index % 50)}.50,${index % 30},ชิ้น,1,0,10:90;50:80,"บรรทัดแรก\nบรรทัดสอง"`;
    if (index % 50 === 7) {
      const kind = (index / 50) % 5 | 0;
      row = [
        `${code},ราคาเสีย,,gifts,,สิบบาท,1,ชิ้น,1,0,,`,
        `${code},หมวดไม่มี,,no-such-category,,10,1,ชิ้น,1,0,,`,
        `${code},ขั้นราคาผิด,,gifts,,100,1,ชิ้น,1,0,10:90;5:80,`,
        `BAD CODE ${index},รหัสมีช่องว่าง,,gifts,,10,1,ชิ้น,1,0,,`,
        `${code},สต็อกติดลบ,,gifts,,10,-4,ชิ้น,1,0,,`,
      ][kind] as string;
    }
    lines.push(row);
    // Rows 0..n each take two physical lines (the quoted description holds a newline), except bad ones.
  }
  // Physical line of each record: header is line 1; each good row spans two lines, each bad row one.
  let line = 1;
  for (let index = 0; index < 1000; index++) {
    const bad = index % 50 === 7;
    line += bad ? 1 : 2;
    if (bad) badLines.push(line);
  }
  return { text: `\uFEFF${lines.join('\r\n')}\r\n`, badLines };
}

describe('CSV import', () => {
  it('reads the file on a thread of its own and hands its rows over in batches, its problems with them', async () => {
    const { text, badLines } = thousandRows();
    const parts = [];
    for await (const part of readImportRowsOffThread(encode(text), 300)) parts.push(part);
    const [header, ...batches] = parts;
    expect(header).toMatchObject({ kind: 'header', encoding: 'utf-8', unknownColumns: [] });
    // Not the thread that renders pages (nor the test's own).
    expect(header?.kind === 'header' && header.thread).not.toBe(threadId);
    expect(header?.kind === 'header' && header.thread).toBeGreaterThan(0);
    const rows = batches.flatMap((part) => (part.kind === 'rows' ? part.batch : []));
    const problems = batches.flatMap((part) => (part.kind === 'rows' ? part.problems : []));
    // 12 of the 20 bad rows are bad on their own (price, code, stock); an unknown category and tiers
    // against the price are found when the batch is planned against the catalog.
    expect(batches.map((part) => (part.kind === 'rows' ? part.batch.length : -1))).toEqual([300, 300, 300, 88]);
    expect(batches.reduce((sum, part) => sum + (part.kind === 'rows' ? part.counted : 0), 0)).toBe(1000);
    expect(rows[0]).toMatchObject({ code: 'IMP-0000', line: 3 });
    expect(problems).toHaveLength(12);
    for (const problem of problems) expect(badLines).toContain(problem.line);

    // A refusal made on that thread arrives here as the same Thai AppError.
    const refused = readImportRowsOffThread(encode('name,price\r\nของ,10\r\n'));
    await expect(refused.next()).rejects.toMatchObject({ status: 400, code: 'csv_no_code_column' });
    // Stopping early ends the reading thread with it; nothing is left waiting.
    const early = readImportRowsOffThread(encode(text), 10);
    expect((await early.next()).value).toMatchObject({ kind: 'header' });
    await early.return(undefined);
  });

  it('reports exactly the 20 bad rows with their lines and Thai reasons, then imports the other 980', async () => {
    const { text, badLines } = thousandRows();
    const report = await dryRunImport(encode(text));
    expect(report.rows).toBe(1000);
    expect(report.errors.map((error) => error.line)).toEqual(badLines);
    for (const error of report.errors) expect(error.reason).toMatch(/[\u0E00-\u0E7F]/);
    expect(report.creates).toBe(980);
    const db = await getDb();
    const [before] = await db.select({ n: count() }).from(products).where(like(products.code, 'IMP-%'));
    expect(before?.n).toBe(0);

    const progress: number[] = [];
    const applied = await applyImport(actor, encode(text), (done) => {
      progress.push(done);
    });
    expect(applied.creates).toBe(980);
    expect(applied.errors).toHaveLength(20);
    expect(progress.at(-1)).toBe(1000);
    const [after] = await db.select({ n: count() }).from(products).where(like(products.code, 'IMP-%'));
    expect(after?.n).toBe(980);

    const [one] = await db.select().from(products).where(eq(products.code, 'IMP-0003'));
    expect(one).toMatchObject({ name: 'ชุดของขวัญทดสอบ, แบบที่ 3', priceSatang: 10350, stock: 3, description: 'บรรทัดแรก\nบรรทัดสอง' });
    expect(one?.searchText).toContain('ของขวัญ');
    const tiers = await db.select().from(productPriceTiers).where(eq(productPriceTiers.productId, one!.id));
    expect(tiers.map((tier) => [tier.minQuantity, tier.priceSatang]).sort()).toEqual([[10, 9000], [50, 8000]]);
    const moves = await db.select().from(stockMovements).where(eq(stockMovements.productId, one!.id));
    expect(moves).toMatchObject([{ delta: 3, stockAfter: 3, kind: 'import' }]);
    const audits = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'product.import_create'));
    expect(audits[0]?.n).toBe(980);
  });

  it('re-importing the same file changes nothing', async () => {
    const { text } = thousandRows();
    const db = await getDb();
    const stamp = await db.select({ code: products.code, updatedAt: products.updatedAt }).from(products).where(like(products.code, 'IMP-%'));
    const [movesBefore] = await db.select({ n: count() }).from(stockMovements);
    const report = await applyImport(actor, encode(text));
    expect(report).toMatchObject({ creates: 0, updates: 0, unchanged: 980 });
    const again = await db.select({ code: products.code, updatedAt: products.updatedAt }).from(products).where(like(products.code, 'IMP-%'));
    expect(again.sort((a, b) => a.code.localeCompare(b.code))).toEqual(stamp.sort((a, b) => a.code.localeCompare(b.code)));
    const [movesAfter] = await db.select({ n: count() }).from(stockMovements);
    expect(movesAfter?.n).toBe(movesBefore?.n);
  });

  it('export → import round-trips the whole catalog, and an edited export updates only what changed', async () => {
    const bytes = await exportedCatalogCsv();
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const db = await getDb();
    const [all] = await db.select({ n: count() }).from(products);
    const [variants] = await db.select({ n: count() }).from(productVariants);
    const roundTrip = await dryRunImport(new Uint8Array(bytes));
    // One row per variant (issue 30), one product per code.
    expect(roundTrip).toMatchObject({ rows: variants?.n, creates: 0, updates: 0, unchanged: all?.n, errors: [] });

    // Edit one price the way a person would in Excel: read the file, change a cell, save it again.
    const rows = parse(bytes, { bom: true }) as string[][];
    const header = rows[0] as string[];
    const target = rows.find((row) => row[0] === 'P00001') as string[];
    target[header.indexOf('price')] = '9999.25';
    const edited = stringify(rows, { bom: true });
    const report = await applyImport(actor, encode(edited));
    expect(report).toMatchObject({ creates: 0, updates: 1, errors: [] });
    const [p1] = await db.select({ price: products.priceSatang }).from(products).where(inArray(products.code, ['P00001']));
    expect(p1?.price).toBe(999925);
  });

  it('refuses a file without a code column or with broken quoting, in Thai', async () => {
    await expect(dryRunImport(encode('name,price\nก,1\n'))).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === 'csv_no_code_column');
    await expect(dryRunImport(encode(`${HEADER}\nA1,"ไม่ปิด,,gifts,,1,1,,1,0,,\n`))).rejects.toSatisfy(
      (error: unknown) => error instanceof AppError && error.status === 400 && /CSV/.test(error.message),
    );
  });

  it('the template imports cleanly (Excel BOM included)', async () => {
    const template = await templateCsv();
    expect(template.startsWith('\uFEFF')).toBe(true);
    const report = await dryRunImport(encode(template));
    // Two products of one variant and one in two sizes.
    expect(report).toMatchObject({ rows: 4, creates: 3, errors: [] });
  });
});

async function exportedText(): Promise<string> {
  return (await exportedCatalogCsv()).toString('utf8');
}


function csvFile(bytes: Uint8Array<ArrayBuffer>, name = 'products.csv'): FormData {
  const form = new FormData();
  form.append('file', new File([bytes], name, { type: 'text/csv' }));
  return form;
}

/** TIS-620 / Windows-874: U+0E01..U+0E5B are the bytes 0xA1..0xFB; ASCII is itself. */
function windows874(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from([...text].map((char) => {
    const code = char.codePointAt(0) as number;
    if (code < 0x80) return code;
    if (code >= 0x0e01 && code <= 0x0e5b) return code - 0x0e00 + 0xa0;
    throw new Error(`not in TIS-620: ${char}`);
  }));
}

describe('CSV safety (issue 32)', () => {
  it('the export guards formula cells with a quote, numbers stay numbers, and the import restores the text exactly', async () => {
    const names = ['=1+1', '=HYPERLINK("http://evil.example","คลิก")', '+66812345678', '-สินค้า', '@shop', "'quoted", "''สองขีด", "'=already guarded"];
    const rows = names.map((_, index) => `FORMULA-${index},ชื่อชั่วคราว,,gifts,,120,3,ชิ้น,1,0,,"@คำอธิบาย ${index}"`);
    const created = await applyImport(actor, encode(`${HEADER}\n-DASH-CODE,-ขีดนำหน้า,,gifts,,50,0,-,1,0,,\n${rows.join('\n')}\n`));
    expect(created).toMatchObject({ creates: names.length + 1, errors: [] });
    const db = await getDb();
    // The names exactly as a person typed them in the product form (an import would read some quotes as guards).
    for (const [index, name] of names.entries()) await db.update(products).set({ name }).where(eq(products.code, `FORMULA-${index}`));

    const text = await exportedText();
    const exported = parse(text, { bom: true }) as string[][];
    const header = exported[0] as string[];
    const byCode = new Map(exported.slice(1).map((row) => [row[0], row]));
    names.forEach((name, index) => {
      const row = byCode.get(`FORMULA-${index}`) as string[];
      expect(row[header.indexOf('name')]).toBe(`'${name}`);
      expect(row[header.indexOf('description')]).toBe(`'@คำอธิบาย ${index}`);
      expect(row[header.indexOf('price')]).toBe('120');
      expect(row[header.indexOf('stock')]).toBe('3');
    });
    const dash = byCode.get("'-DASH-CODE") as string[];
    expect(dash.slice(0, 2)).toEqual(["'-DASH-CODE", "'-ขีดนำหน้า"]);
    expect(dash[header.indexOf('unit')]).toBe("'-");
    // No cell of the file starts a formula any more.
    for (const row of exported.slice(1)) for (const cell of row) expect(cell).not.toMatch(/^[=+@\t\r]/);

    // Read back as it is: nothing changes. Changed in the shop meanwhile: the file puts the exact text back.
    expect(await dryRunImport(encode(text))).toMatchObject({ updates: 0, creates: 0, errors: [] });
    const codes = [...names.map((_, index) => `FORMULA-${index}`), '-DASH-CODE'];
    await db.update(products).set({ name: 'เปลี่ยนแล้ว', unit: 'ชิ้น', description: '' }).where(inArray(products.code, codes));
    const restored = await applyImport(actor, encode(text));
    expect(restored).toMatchObject({ updates: codes.length, creates: 0, errors: [] });
    const after = await db.select({ code: products.code, name: products.name, unit: products.unit, description: products.description }).from(products).where(inArray(products.code, codes));
    const afterByCode = new Map(after.map((row) => [row.code, row]));
    names.forEach((name, index) => expect(afterByCode.get(`FORMULA-${index}`)).toMatchObject({ name, description: `@คำอธิบาย ${index}` }));
    expect(afterByCode.get('-DASH-CODE')).toMatchObject({ name: '-ขีดนำหน้า', unit: '-' });
  });

  it('refuses rows with NUL, BEL, ESC or an RTL override by line and Thai reason, and stores none of them', async () => {
    const file = [
      HEADER,
      'CTRL-OK,สินค้าปกติ,,gifts,,10,1,ชิ้น,1,0,,',
      'CTRL-NUL,สินค้า,,gifts,,10,1,ชิ้น,1,0,,"มี\u0000ศูนย์"',
      'CTRL-BEL,กระดิ่ง\u0007,,gifts,,10,1,ชิ้น,1,0,,',
      'CTRL-ESC,สินค้า,,gifts,,10,1,ชิ้น\u001b[31m,1,0,,',
      'CTRL-RTL,\u202Egnp.exe,,gifts,,10,1,ชิ้น,1,0,,',
      'CTRL-TAB,สินค้า,,gifts,,10,1,ชิ้น,1,0,,"แท็บ\tและ\r\nขึ้นบรรทัด"',
    ].join('\r\n');
    const client = await staffClient();
    const checked = await client.call(importCheck, 'POST', '/api/admin/import/check', { headers: { accept: 'application/json' }, form: csvFile(encode(file)) });
    expect(checked.status).toBe(200);
    const report = (checked.body.data as { report: ImportReport }).report;
    expect(report.errors.map((error) => [error.line, error.code])).toEqual([[3, 'CTRL-NUL'], [4, 'CTRL-BEL'], [5, 'CTRL-ESC'], [6, 'CTRL-RTL']]);
    for (const error of report.errors) expect(error.reason).toMatch(/อักขระที่ระบบไม่รองรับ/);
    expect(report.errors[0]?.reason).toContain('description');
    expect(report.creates).toBe(2);

    const applied = await applyImport(actor, encode(file));
    expect(applied).toMatchObject({ creates: 2 });
    const db = await getDb();
    const stored = await db.select({ code: products.code }).from(products).where(like(products.code, 'CTRL-%'));
    expect(stored.map((row) => row.code).sort()).toEqual(['CTRL-OK', 'CTRL-TAB']);

    // A heading with a control character is the whole file refused: a Thai 400, not a 500.
    const badHeader = await client.call(importCheck, 'POST', '/api/admin/import/check', {
      headers: { accept: 'application/json' },
      form: csvFile(encode(`code,name\u0000\r\nCTRL-X,ก\r\n`)),
    });
    expect(badHeader.status).toBe(400);
    expect(badHeader.body.message).toMatch(/อักขระที่ระบบไม่รองรับ/);
  });

  it('reads a Thai Windows-874 (TIS-620) file correctly and says so; refuses a file in any other encoding in Thai', async () => {
    const thai = `${HEADER}\r\nTIS-001,ถุงผ้าลายช้าง น้ำเงิน,,gifts,,99.50,7,ใบ,1,0,,ทำมือ ผ้าฝ้ายแท้\r\n`;
    const bytes = windows874(thai);
    const client = await staffClient();
    const checked = await client.call(importCheck, 'POST', '/api/admin/import/check', { headers: { accept: 'application/json' }, form: csvFile(bytes) });
    expect(checked.status).toBe(200);
    const data = checked.body.data as { token: string; report: ImportReport };
    expect(data.report).toMatchObject({ rows: 1, creates: 1, errors: [], encoding: 'windows-874' });
    expect((await loadImportReport(data.token))?.report.encoding).toBe('windows-874');
    await applyImport(actor, await importFile(data.token));
    const db = await getDb();
    const [row] = await db.select().from(products).where(eq(products.code, 'TIS-001'));
    expect(row).toMatchObject({ name: 'ถุงผ้าลายช้าง น้ำเงิน', unit: 'ใบ', description: 'ทำมือ ผ้าฝ้ายแท้', priceSatang: 9950, stock: 7 });
    expect((await dryRunImport(encode(thai))).encoding).toBe('utf-8');

    // Latin-1 "café" and a UTF-16 file (Excel's "Unicode text") are neither UTF-8 nor Thai.
    const latin1 = Uint8Array.from([...`${HEADER}\r\nLAT-1,café,,gifts,,10,1,,1,0,,\r\n`].map((char) => char.charCodeAt(0)));
    const utf16 = Uint8Array.from([0xff, 0xfe, ...Buffer.from(`${HEADER}\r\nU16-1,ก,,gifts,,10,1,,1,0,,\r\n`, 'utf16le')]);
    for (const refused of [latin1, utf16]) {
      const answer = await client.call(importCheck, 'POST', '/api/admin/import/check', { headers: { accept: 'application/json' }, form: csvFile(refused) });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('csv_encoding');
      expect(answer.body.message).toContain('UTF-8');
      expect(answer.body.message).toMatch(/[\u0E00-\u0E7F]/);
    }
  });

  it('deletes checked files (and their reports) once they are a day old, and keeps younger ones', async () => {
    const token = await keepImportFile(encode(`${HEADER}\nOLD-1,ก,,gifts,,1,1,,1,0,,\n`));
    await saveImportReport(token, { stage: 'checked', fileName: 'old.csv', report: await dryRunImport(encode(`${HEADER}\n`)) });
    const hour = 60 * 60 * 1000;
    await expireCheckedImports(new Date(Date.now() + 23 * hour));
    expect(await importFile(token)).toBeInstanceOf(Uint8Array);
    expect(await loadImportReport(token)).not.toBeNull();
    expect(await expireCheckedImports(new Date(Date.now() + 25 * hour))).toBeGreaterThanOrEqual(2);
    await expect(importFile(token)).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.status === 404);
    expect(await loadImportReport(token)).toBeNull();
  });

  it('checking a new file deletes the files checked more than a day ago', async () => {
    const stale = await keepImportFile(encode(`${HEADER}\nSTALE-1,ก,,gifts,,1,1,,1,0,,\n`));
    const twoDaysAgo = new Date(Date.now() - 48 * 60 * 60 * 1000);
    await utimes(path.join(process.env.DATA_DIR as string, 'uploads', 'private', 'imports', `${stale}.csv`), twoDaysAgo, twoDaysAgo);
    const client = await staffClient();
    const checked = await client.call(importCheck, 'POST', '/api/admin/import/check', { headers: { accept: 'application/json' }, form: csvFile(encode(`${HEADER}\nFRESH-1,ก,,gifts,,1,1,,1,0,,\n`)) });
    expect(checked.status).toBe(200);
    await expect(importFile(stale)).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.status === 404);
    expect(await importFile((checked.body.data as { token: string }).token)).toBeInstanceOf(Uint8Array);
  });
});
