import { describe, expect, it } from 'vitest';
import { code128Png, mm, newPdf, pdfBytes, THAI_FONT_BOLD } from '../../src/server/documents/pdf';
import { pdfPages, thaiKey } from '../fixtures/pdf-text';

describe('shop PDFs', () => {
  it('embed a Thai font whose text reads back, marks and SARA AM included', async () => {
    const doc = newPdf({ size: [mm(100), mm(150)], title: 'ทดสอบ' });
    doc.addPage();
    doc.font(THAI_FONT_BOLD).fontSize(14).text('ผู้รับ: นางสาวน้ำผึ้ง ใจดี ตำบลบ้านใหม่', { width: mm(80) });
    doc.image(await code128Png('YL26112300042'), { width: mm(60) });
    const bytes = await pdfBytes(doc);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const [page] = await pdfPages(bytes);
    expect(page).toContain(thaiKey('นางสาวน้ำผึ้ง ใจดี'));
    expect(page).toContain(thaiKey('ตำบลบ้านใหม่'));
    // The font is embedded (subset), not referenced by name.
    expect(bytes.toString('latin1')).toMatch(/\/FontFile2/);
  });
});
