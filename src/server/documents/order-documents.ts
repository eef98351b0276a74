import { code128Png, mm, newPdf, pdfBytes, THAI_FONT, THAI_FONT_BOLD, type PdfDoc } from './pdf.ts';
import { formatBahtExact } from '../../lib/money.ts';
import { paymentMethodLabels, type OrderView } from '../../lib/orders.ts';
import type { CompanyInfo, ThaiAddress } from '../../lib/types.ts';

/**
 * The shipping label (100 × 150 mm, the size thermal label printers take) of docs/design.md section 14,
 * one page per order, many orders in one file. Packing slips and the pick list: packing-documents.ts.
 */
const LABEL: [number, number] = [mm(100), mm(150)];

export function addressLines(address: ThaiAddress): string {
  const bangkok = address.province.includes('กรุงเทพ');
  return [
    address.line1,
    `${bangkok ? 'แขวง' : 'ตำบล'}${address.subdistrict} ${bangkok ? 'เขต' : 'อำเภอ'}${address.district}`,
    `จังหวัด${address.province} ${address.postcode}`,
  ].join('\n');
}

export function rule(doc: PdfDoc, y: number, left: number, right: number): void {
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.8).strokeColor('#000').stroke();
}

async function drawLabel(doc: PdfDoc, order: OrderView, company: CompanyInfo): Promise<void> {
  doc.addPage({ size: LABEL, margin: mm(5) });
  const left = mm(5);
  const width = mm(90);
  const right = left + width;
  let y = mm(5);

  doc.font(THAI_FONT_BOLD).fontSize(9).text('ผู้ส่ง', left, y);
  doc.font(THAI_FONT).fontSize(9).text(`${company.name}  โทร ${company.phone}`, left + mm(10), y, { width: width - mm(10) });
  y = doc.y;
  if (company.address) {
    doc.fontSize(8).text(company.address, left + mm(10), y, { width: width - mm(10), height: mm(12), ellipsis: true });
    y = doc.y;
  }
  y += mm(1.5);
  rule(doc, y, left, right);
  y += mm(2);

  doc.font(THAI_FONT_BOLD).fontSize(11).text('ผู้รับ', left, y);
  y = doc.y;
  doc.fontSize(16).text(order.address.recipientName, left, y, { width });
  y = doc.y;
  doc.fontSize(13).text(`โทร ${order.address.phone}`, left, y, { width });
  y = doc.y;
  doc.font(THAI_FONT).fontSize(12).text(addressLines(order.address), left, y, { width, lineGap: 1 });
  y = doc.y + mm(2);
  rule(doc, y, left, right);
  y += mm(2);

  if (order.paymentMethod === 'cod') {
    doc.rect(left, y, width, mm(20)).lineWidth(2).stroke();
    doc.font(THAI_FONT_BOLD).fontSize(12).text('เก็บเงินปลายทาง (COD)', left, y + mm(1.5), { width, align: 'center' });
    doc.fontSize(26).text(formatBahtExact(order.totalSatang), left, y + mm(7), { width, align: 'center' });
    y += mm(22);
  } else {
    doc.font(THAI_FONT).fontSize(10).text(`ชำระแล้ว (${paymentMethodLabels[order.paymentMethod]}) · ไม่ต้องเก็บเงิน`, left, y, { width, align: 'center' });
    y = doc.y + mm(2);
  }

  const carrier = order.carrier ?? order.deliveryName;
  const pieces = order.lines.reduce((sum, line) => sum + line.amount, 0);
  if (!order.trackingNo) doc.font(THAI_FONT).fontSize(10).text(`ขนส่ง: ${carrier}`, left, y, { width });
  doc.font(THAI_FONT).fontSize(10).text(`จำนวนสินค้า ${pieces} ชิ้น`, left, order.trackingNo ? y : doc.y, { width });

  // Barcodes sit at the foot of the label, where scanners at the counter expect them. The carrier scans
  // the tracking number, so once there is one it is the large barcode, under the carrier's name, and the
  // shop's order number is a small one beside its text.
  const foot = mm(150) - mm(5);
  if (order.trackingNo) {
    const top = foot - mm(42);
    doc.font(THAI_FONT_BOLD).fontSize(12).text(carrier, left, top, { width, align: 'center' });
    doc.image(await code128Png(order.trackingNo, { heightMm: 12, includeText: false }), left + mm(3), top + mm(6), { width: width - mm(6), height: mm(17) });
    doc.font(THAI_FONT_BOLD).fontSize(15).text(order.trackingNo, left, top + mm(24), { width, align: 'center' });
    doc.image(await code128Png(order.orderNo, { heightMm: 8, includeText: false }), left, top + mm(32), { width: mm(48), height: mm(9) });
    doc.font(THAI_FONT).fontSize(9).text(`คำสั่งซื้อ ${order.orderNo}`, left + mm(50), top + mm(34), { width: width - mm(50) });
    return;
  }
  const barcodeTop = foot - mm(24);
  doc.image(await code128Png(order.orderNo, { heightMm: 12, includeText: false }), left + mm(5), barcodeTop, { width: width - mm(10), height: mm(16) });
  doc.font(THAI_FONT_BOLD).fontSize(14).text(order.orderNo, left, barcodeTop + mm(17), { width, align: 'center' });
}

export async function shippingLabelsPdf(orders: OrderView[], company: CompanyInfo): Promise<Buffer> {
  const doc = await newPdf({ size: LABEL, margin: mm(5), title: `ใบปะหน้าพัสดุ ${orders.map((order) => order.orderNo).join(', ')}`.slice(0, 200) });
  for (const order of orders) await drawLabel(doc, order, company);
  return pdfBytes(doc);
}
