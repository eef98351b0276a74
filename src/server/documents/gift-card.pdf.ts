import { mm, newPdf, pdfBytes, THAI_FONT, THAI_FONT_BOLD, type PdfDoc } from './pdf.ts';
import { notFound } from '../http/errors.ts';
import { cardLines, drawCardLines, lineHeight, registerEmojiFont, type CardLine } from './card-lines.ts';
import type { OrderView } from '../../lib/orders.ts';
import type { CompanyInfo } from '../../lib/types.ts';

/**
 * The message card (issue 31 part 6): A6 portrait, one page per order with a message, the message set
 * as large as fits its box in the shop's Thai document face (Sarabun), the shop's name small above it
 * and the order number, small and grey, at the foot so a packer matches card and parcel. Emoji are set
 * in the monochrome Noto Emoji beside the Thai (card-lines.ts); one newer than that font is left off
 * (decision 228).
 */
const A6: [number, number] = [mm(105), mm(148)];
const MARGIN = mm(10);
const BOX_TOP = mm(26);
const BOX_BOTTOM = mm(148 - 20);
const MAX_SIZE = 30;
const MIN_SIZE = 12;

/** The largest size (MAX_SIZE down to MIN_SIZE) whose lines fit the box, with those lines. */
function fitted(doc: PdfDoc, message: string, width: number, height: number): { size: number; lines: CardLine[] } {
  for (let size = MAX_SIZE; size > MIN_SIZE; size -= 1) {
    const lines = cardLines(doc, message, size, width);
    if (lines.length * lineHeight(doc, size) <= height) return { size, lines };
  }
  return { size: MIN_SIZE, lines: cardLines(doc, message, MIN_SIZE, width) };
}

function drawCard(doc: PdfDoc, order: OrderView, company: CompanyInfo): void {
  // A small bottom margin: the order number sits below the card's text box and must not start a page.
  doc.addPage({ size: A6, margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: mm(2) } });
  const width = A6[0] - MARGIN * 2;
  doc.font(THAI_FONT_BOLD).fontSize(11).fillColor('#555').text(company.name, MARGIN, MARGIN + mm(2), { width, align: 'center' });
  doc.moveTo(MARGIN + width * 0.3, BOX_TOP - mm(6)).lineTo(MARGIN + width * 0.7, BOX_TOP - mm(6)).lineWidth(0.6).strokeColor('#bbb').stroke();
  const height = BOX_BOTTOM - BOX_TOP;
  const { size, lines } = fitted(doc, order.gift.message, width, height);
  const used = lines.length * lineHeight(doc, size);
  doc.fillColor('#000');
  drawCardLines(doc, lines, size, MARGIN, BOX_TOP + Math.max(0, (height - used) / 2), width);
  doc.font(THAI_FONT).fontSize(7).fillColor('#999').text(order.orderNo, MARGIN, A6[1] - MARGIN - mm(3), { width, align: 'center', lineBreak: false });
  doc.fillColor('#000');
}

/** One card per order that has a message, in the order given; none at all is a Thai 404. */
export async function giftCardsPdf(orders: OrderView[], company: CompanyInfo): Promise<Buffer> {
  const withCard = orders.filter((order) => order.gift.message !== '');
  if (withCard.length === 0) throw notFound('gift_card_none', 'คำสั่งซื้อที่เลือกไม่มีข้อความบนการ์ด');
  const doc = await newPdf({ size: A6, margin: MARGIN, title: `การ์ดข้อความ ${withCard.map((order) => order.orderNo).join(', ')}`.slice(0, 200) });
  registerEmojiFont(doc);
  for (const order of withCard) drawCard(doc, order, company);
  return pdfBytes(doc);
}
