import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { code128Png, mm, newPdf, pdfBytes, THAI_FONT, THAI_FONT_BOLD } from '../../src/server/documents/pdf';
import { pdfPages } from '../fixtures/pdf-text';

/** pdftotext (poppler), where the machine has it: a second reader besides pdf.js. */
function popplerText(bytes: Uint8Array): string | null {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'pdf-text-')), 'doc.pdf');
  writeFileSync(file, bytes);
  try {
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  } catch {
    return null;
  }
}

describe('shop PDFs', () => {
  it('embed a Thai font whose text reads back, marks and SARA AM included', async () => {
    const doc = await newPdf({ size: [mm(100), mm(150)], title: 'ทดสอบ' });
    doc.addPage();
    doc.font(THAI_FONT_BOLD).fontSize(14).text('ผู้รับ: นางสาวน้ำผึ้ง ใจดี ตำบลบ้านใหม่', { width: mm(80) });
    doc.image(await code128Png('YL26112300042'), { width: mm(60) });
    const bytes = await pdfBytes(doc);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const [page] = await pdfPages(bytes);
    expect(page).toContain('นางสาวน้ำผึ้ง ใจดี');
    expect(page).toContain('ตำบลบ้านใหม่');
    // The font is embedded (subset), not referenced by name.
    expect(bytes.toString('latin1')).toMatch(/\/FontFile2/);
  });

  it('reads back ชำระ as written: SARA AM is one character, not NIKHAHIT + SARA AA, with or without a tone mark', async () => {
    const doc = await newPdf({ size: 'A4', title: 'ทดสอบ' });
    doc.addPage();
    // SARA AA on its own comes first, so its glyph is met before the SARA AM that shares its outline.
    const lines = ['กา ชำระเงิน ยอดชำระ', 'น้ำหนัก ค่ำ ป่ำ ตำบล ทำ', 'ขนาด ความจำ'];
    doc.font(THAI_FONT).fontSize(12).text(lines[0]!);
    doc.font(THAI_FONT_BOLD).text(lines[1]!);
    doc.font(THAI_FONT).text(lines[2]!);
    const bytes = await pdfBytes(doc);
    const [page] = await pdfPages(bytes);
    for (const line of lines) expect(page).toContain(line);
    expect(page).not.toContain('\u0E4D'); // no NIKHAHIT anywhere: none was written
    expect(page).not.toMatch(/\u0E33\u0E32/); // no SARA AA after SARA AM
    expect([...page!].filter((char) => char.charCodeAt(0) < 9)).toEqual([]); // no glyph read as its number
    const poppler = popplerText(bytes);
    if (poppler !== null) for (const line of lines) expect(poppler).toContain(line);
  });
});
