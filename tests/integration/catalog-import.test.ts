import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { count, eq, inArray, like } from 'drizzle-orm';
import { getDb } from '../../src/server/db/client';
import { auditLog, productPriceTiers, products, stockMovements } from '../../src/server/db/schema';
import { applyImport, dryRunImport } from '../../src/server/catalog-admin/csv-import.service';
import { catalogCsvStream, templateCsv } from '../../src/server/catalog-admin/csv-export.service';
import type { AuditActor } from '../../src/server/audit/audit.service';
import { AppError } from '../../src/server/http/errors';

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
    const chunks: Uint8Array[] = [];
    const reader = catalogCsvStream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    const bytes = Buffer.concat(chunks);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const db = await getDb();
    const [all] = await db.select({ n: count() }).from(products);
    const roundTrip = await dryRunImport(new Uint8Array(bytes));
    expect(roundTrip).toMatchObject({ rows: all?.n, creates: 0, updates: 0, unchanged: all?.n, errors: [] });

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
    expect(report).toMatchObject({ rows: 2, errors: [] });
  });
});
