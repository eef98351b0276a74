import { formatBahtExact } from '../../lib/money.ts';
import { formatThaiDate } from '../../lib/thai-text.ts';
import type { CompanyInfo } from '../../lib/types.ts';
import { THAI_FONT, THAI_FONT_BOLD, mm, newPdf, pdfBytes, type PdfDoc } from './pdf.ts';

/**
 * One A4 layout for the shop's money documents (receipt / tax invoice, quotation): the shop's name,
 * address and tax id at the top, the document's title and number, the buyer, a table of lines, the
 * totals with VAT shown apart, and the amount in Thai words.
 */
export interface DocumentLine {
  code: string;
  name: string;
  amount: number;
  unitSatang: number;
  totalSatang: number;
}

export interface ShopDocument {
  title: string;
  titleEn: string;
  company: CompanyInfo;
  meta: [string, string][];
  buyer: { heading: string; lines: string[] } | null;
  lines: DocumentLine[];
  totals: { label: string; satang: number; strong?: boolean }[];
  words: string;
  notes: string[];
}

const money = (satang: number) => formatBahtExact(satang).replace('฿', '');
const PAGE_MARGIN = mm(15);

function header(doc: PdfDoc, data: ShopDocument, width: number): void {
  const left = PAGE_MARGIN;
  const { company } = data;
  doc.font(THAI_FONT_BOLD).fontSize(16).text(company.name, left, PAGE_MARGIN, { width: width * 0.58 });
  doc.font(THAI_FONT).fontSize(9.5);
  if (company.address) doc.text(company.address, { width: width * 0.58 });
  doc.text(`โทร ${company.phone}${company.email ? `  อีเมล ${company.email}` : ''}`, { width: width * 0.58 });
  doc.text(`เลขประจำตัวผู้เสียภาษีอากร ${company.taxId || '-'}  (สำนักงานใหญ่)`, { width: width * 0.58 });
  const afterShop = doc.y;

  const boxX = left + width * 0.6;
  const boxW = width * 0.4;
  doc.font(THAI_FONT_BOLD).fontSize(14).text(data.title, boxX, PAGE_MARGIN, { width: boxW, align: 'right' });
  doc.font(THAI_FONT).fontSize(9).fillColor('#555').text(data.titleEn, { width: boxW, align: 'right' }).fillColor('#000');
  doc.moveDown(0.3).fontSize(10);
  for (const [label, value] of data.meta) {
    const y = doc.y;
    doc.font(THAI_FONT).text(label, boxX, y, { width: boxW * 0.42 });
    doc.font(THAI_FONT_BOLD).text(value, boxX + boxW * 0.42, y, { width: boxW * 0.58, align: 'right' });
  }
  doc.y = Math.max(afterShop, doc.y) + 8;
  doc.x = left;
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).lineWidth(0.8).strokeColor('#999').stroke();
  doc.y += 6;
}

interface Column {
  label: string;
  width: number;
  align: 'left' | 'right' | 'center';
}

function tableRow(doc: PdfDoc, columns: Column[], values: string[], options: { bold?: boolean } = {}): void {
  const top = doc.y;
  let x = PAGE_MARGIN;
  let bottom = top;
  doc.font(options.bold ? THAI_FONT_BOLD : THAI_FONT).fontSize(10);
  columns.forEach((column, index) => {
    doc.text(values[index] ?? '', x + 3, top + 3, { width: column.width - 6, align: column.align });
    bottom = Math.max(bottom, doc.y);
    x += column.width;
  });
  doc.y = bottom + 3;
}

export async function renderShopDocument(data: ShopDocument): Promise<Buffer> {
  const doc = await newPdf({ size: 'A4', margin: PAGE_MARGIN, title: data.title });
  doc.addPage();
  const width = doc.page.width - PAGE_MARGIN * 2;
  header(doc, data, width);

  if (data.buyer) {
    doc.font(THAI_FONT_BOLD).fontSize(10.5).text(data.buyer.heading, PAGE_MARGIN, doc.y, { width });
    doc.font(THAI_FONT).fontSize(10);
    for (const line of data.buyer.lines) doc.text(line, { width });
    doc.moveDown(0.5);
  }

  const columns: Column[] = [
    { label: 'ลำดับ', width: width * 0.07, align: 'center' },
    { label: 'รายการ', width: width * 0.47, align: 'left' },
    { label: 'จำนวน', width: width * 0.12, align: 'right' },
    { label: 'ราคาต่อหน่วย', width: width * 0.16, align: 'right' },
    { label: 'จำนวนเงิน', width: width * 0.18, align: 'right' },
  ];
  const drawHead = () => {
    const top = doc.y;
    doc.rect(PAGE_MARGIN, top, width, 20).fillColor('#eef3ee').fill().fillColor('#000');
    doc.y = top;
    tableRow(doc, columns, columns.map((column) => column.label), { bold: true });
    doc.y = top + 22;
  };
  drawHead();
  data.lines.forEach((line, index) => {
    if (doc.y > doc.page.height - mm(75)) {
      doc.addPage();
      doc.y = PAGE_MARGIN;
      drawHead();
    }
    tableRow(doc, columns, [
      String(index + 1),
      `${line.name}${line.code ? ` (${line.code})` : ''}`,
      line.amount.toLocaleString('th-TH'),
      money(line.unitSatang),
      money(line.totalSatang),
    ]);
  });
  doc.moveTo(PAGE_MARGIN, doc.y).lineTo(PAGE_MARGIN + width, doc.y).lineWidth(0.5).strokeColor('#bbb').stroke();
  doc.y += 6;

  if (doc.y > doc.page.height - mm(70)) {
    doc.addPage();
    doc.y = PAGE_MARGIN;
  }
  const labelX = PAGE_MARGIN + width * 0.45;
  for (const total of data.totals) {
    const y = doc.y;
    doc.font(total.strong ? THAI_FONT_BOLD : THAI_FONT).fontSize(total.strong ? 11.5 : 10.5);
    doc.text(total.label, labelX, y, { width: width * 0.35 });
    doc.text(money(total.satang), labelX + width * 0.35, y, { width: width * 0.2, align: 'right' });
    doc.y += 1;
  }
  doc.moveDown(0.4);
  doc.font(THAI_FONT_BOLD).fontSize(10.5).text(`(${data.words})`, PAGE_MARGIN, doc.y, { width, align: 'right' });
  doc.moveDown(0.8);
  doc.font(THAI_FONT).fontSize(9).fillColor('#444');
  for (const note of data.notes) doc.text(note, PAGE_MARGIN, doc.y, { width });
  doc.fillColor('#000');
  return pdfBytes(doc);
}

export const thaiDate = (value: string | Date): string => formatThaiDate(value);
