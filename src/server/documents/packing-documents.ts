import { code128Png, mm, newPdf, pdfBytes, THAI_FONT, THAI_FONT_BOLD, type PdfDoc } from './pdf.ts';
import { addressLines, rule } from './order-documents.ts';
import { formatBahtExact } from '../../lib/money.ts';
import type { OrderView } from '../../lib/orders.ts';
import type { CompanyInfo } from '../../lib/types.ts';

/**
 * Packing slips and the pick list (docs/design.md section 10, /admin/orders), A4.
 *
 * Packing slips: one block per order, as many blocks on a page as fit, with a dashed line to cut along
 * between them: most orders are a few lines, and a page per order wasted paper and time at the printer.
 * A block that does not fit what is left of a page starts a new one; an order longer than a page goes on
 * over the next pages with its number repeated. The pick list sums the lines of all selected orders by
 * product, so one walk along the shelves picks everything, and says which orders take how many.
 */
const PAGE_TOP = mm(12);
const PAGE_BOTTOM = mm(297 - 12);
const LEFT = mm(15);
const WIDTH = mm(180);
/** Space between two slips on a page; the cut line runs through its middle. */
const GAP = mm(8);
const BODY = 10;

const cols = { check: LEFT, code: LEFT + mm(10), name: LEFT + mm(45), amount: LEFT + mm(150) };
const CODE_WIDTH = mm(33);
const NAME_WIDTH = mm(100);
const AMOUNT_WIDTH = mm(30);

const created = (order: OrderView) => new Date(order.createdAt).toLocaleDateString('th-TH', { timeZone: 'Asia/Bangkok', dateStyle: 'long' });
const infoLine = (order: OrderView) => `วันที่สั่ง ${created(order)} · ${order.deliveryName}`;
const recipient = (order: OrderView) => `${order.address.recipientName} โทร ${order.address.phone} ${addressLines(order.address).replace(/\n/g, ' ')}`;
const pieces = (order: OrderView) => order.lines.reduce((sum, line) => sum + line.amount, 0);
/** A line's name on the slip, with its own wrapping to do (issue 31 part 6). */
const lineName = (line: OrderView['lines'][number]) => (line.giftWrap ? `${line.productName}  [ห่อ: ${line.giftWrap.name}]` : line.productName);
/**
 * The count, and the order's total unless the buyer asked to keep prices off (a gift sent to someone
 * else: the slip goes into the parcel). COD orders cannot hide prices (refused at checkout).
 */
const totalLine = (order: OrderView) => `รวม ${order.lines.length} รายการ ${pieces(order)} ชิ้น${order.gift.hidePrices ? '' : ` · ยอดสั่งซื้อ ${formatBahtExact(order.totalSatang)}`}`;

/** What the packer does for a gift (issue 31 part 6): the wrapping, the card, no prices in the box. */
function giftNotes(order: OrderView): string[] {
  const notes: string[] = [];
  if (order.gift.orderWrap) notes.push(`ห่อของขวัญทั้งคำสั่งซื้อ: ${order.gift.orderWrap.name}`);
  else if (order.lines.some((line) => line.giftWrap)) notes.push('ห่อของขวัญแยกตามรายการที่ระบุ [ห่อ: …]');
  if (order.gift.message) notes.push('ใส่การ์ดข้อความ (พิมพ์จากหน้าคำสั่งซื้อหรือ "พิมพ์การ์ดข้อความ")');
  if (order.gift.hidePrices) notes.push('ของขวัญ: ไม่ใส่ใบเสร็จหรือเอกสารที่มีราคาลงในกล่อง');
  return notes;
}

function heightOf(doc: PdfDoc, font: string, size: number, text: string, width: number): number {
  return doc.font(font).fontSize(size).heightOfString(text, { width });
}

function lineHeight(doc: PdfDoc, code: string, name: string): number {
  return Math.max(heightOf(doc, THAI_FONT, BODY, code, CODE_WIDTH), heightOf(doc, THAI_FONT, BODY, name, NAME_WIDTH)) + mm(1.2);
}

/** The parts of a slip above its lines: the title and barcode row, the order's line, the receiver. */
function headHeight(doc: PdfDoc, order: OrderView): number {
  const title = mm(16);
  const info = heightOf(doc, THAI_FONT, BODY, infoLine(order), WIDTH) + mm(1);
  const to = heightOf(doc, THAI_FONT, BODY, recipient(order), WIDTH - mm(12)) + mm(2);
  const tableHead = heightOf(doc, THAI_FONT_BOLD, BODY, 'ชื่อสินค้า', NAME_WIDTH) + mm(2.5);
  return title + info + to + tableHead;
}

function footHeight(doc: PdfDoc, order: OrderView): number {
  let height = mm(2) + heightOf(doc, THAI_FONT_BOLD, BODY, 'รวม', WIDTH) + mm(1);
  if (order.paymentMethod === 'cod') height += heightOf(doc, THAI_FONT_BOLD, 12, 'เก็บเงินปลายทาง', WIDTH) + mm(1);
  if (order.note) height += heightOf(doc, THAI_FONT_BOLD, BODY, 'หมายเหตุจากลูกค้า', WIDTH) + heightOf(doc, THAI_FONT, BODY, order.note, WIDTH);
  const gift = giftNotes(order);
  if (gift.length > 0) height += heightOf(doc, THAI_FONT_BOLD, BODY, gift.join('\n'), WIDTH) + mm(1);
  return height;
}

/** How tall the order's slip is when drawn whole. */
function slipHeight(doc: PdfDoc, order: OrderView): number {
  const lines = order.lines.reduce((sum, line) => sum + lineHeight(doc, line.productCode, lineName(line)), 0);
  return headHeight(doc, order) + lines + footHeight(doc, order);
}

function tableHead(doc: PdfDoc, y: number): number {
  doc.font(THAI_FONT_BOLD).fontSize(BODY);
  doc.text('หยิบ', cols.check, y);
  doc.text('รหัสสินค้า', cols.code, y);
  doc.text('ชื่อสินค้า', cols.name, y, { width: NAME_WIDTH });
  doc.text('จำนวน', cols.amount, y, { width: AMOUNT_WIDTH, align: 'right' });
  const bottom = doc.y + mm(0.5);
  rule(doc, bottom, LEFT, LEFT + WIDTH);
  return bottom + mm(2);
}

async function slipHead(doc: PdfDoc, order: OrderView, company: CompanyInfo, top: number, continued: boolean): Promise<number> {
  doc.font(THAI_FONT_BOLD).fontSize(14).text(continued ? `ใบรายการสินค้า (ต่อ) ${order.orderNo}` : 'ใบรายการสินค้า (Packing slip)', LEFT, top, { width: mm(120) });
  doc.font(THAI_FONT).fontSize(9).text(`${company.name} · โทร ${company.phone}`, LEFT, doc.y, { width: mm(120) });
  doc.image(await code128Png(order.orderNo, { heightMm: 8, includeText: false }), LEFT + mm(125), top, { width: mm(55), height: mm(10) });
  doc.font(THAI_FONT_BOLD).fontSize(BODY).text(order.orderNo, LEFT + mm(125), top + mm(10.5), { width: mm(55), align: 'center' });
  let y = top + mm(16);
  if (continued) return tableHead(doc, y);
  doc.font(THAI_FONT).fontSize(BODY).text(infoLine(order), LEFT, y, { width: WIDTH });
  y = doc.y + mm(1);
  doc.font(THAI_FONT_BOLD).text('ผู้รับ', LEFT, y);
  doc.font(THAI_FONT).text(recipient(order), LEFT + mm(12), y, { width: WIDTH - mm(12) });
  return tableHead(doc, doc.y + mm(2));
}

/** Draws one slip from `top`; returns where it ends (on the last page it reached). */
async function drawPackingSlip(doc: PdfDoc, order: OrderView, company: CompanyInfo, top: number): Promise<number> {
  let y = await slipHead(doc, order, company, top, false);
  for (const line of order.lines) {
    const height = lineHeight(doc, line.productCode, lineName(line));
    if (y + height > PAGE_BOTTOM) {
      doc.addPage({ size: 'A4', margin: mm(12) });
      y = await slipHead(doc, order, company, PAGE_TOP, true);
    }
    doc.rect(cols.check + mm(1), y + mm(0.6), mm(3.6), mm(3.6)).lineWidth(0.8).stroke();
    doc.font(THAI_FONT).fontSize(BODY).text(line.productCode, cols.code, y, { width: CODE_WIDTH });
    doc.text(lineName(line), cols.name, y, { width: NAME_WIDTH });
    doc.font(THAI_FONT_BOLD).text(String(line.amount), cols.amount, y, { width: AMOUNT_WIDTH, align: 'right' });
    y += height;
  }
  if (y + footHeight(doc, order) > PAGE_BOTTOM) {
    doc.addPage({ size: 'A4', margin: mm(12) });
    y = PAGE_TOP;
  }
  rule(doc, y, LEFT, LEFT + WIDTH);
  y += mm(2);
  doc.font(THAI_FONT_BOLD).fontSize(BODY).text(totalLine(order), LEFT, y, { width: WIDTH, align: 'right' });
  y = doc.y + mm(1);
  if (order.paymentMethod === 'cod') {
    doc.fontSize(12).text(`เก็บเงินปลายทาง ${formatBahtExact(order.totalSatang)}`, LEFT, y, { width: WIDTH, align: 'right' });
    y = doc.y + mm(1);
  }
  if (order.note) {
    doc.font(THAI_FONT_BOLD).fontSize(BODY).text('หมายเหตุจากลูกค้า', LEFT, y);
    doc.font(THAI_FONT).text(order.note, LEFT, doc.y, { width: WIDTH });
    y = doc.y;
  }
  const gift = giftNotes(order);
  if (gift.length > 0) {
    doc.font(THAI_FONT_BOLD).fontSize(BODY).text(gift.join('\n'), LEFT, y + mm(1), { width: WIDTH });
    y = doc.y;
  }
  return y;
}

function cutLine(doc: PdfDoc, y: number): void {
  doc.save().moveTo(LEFT - mm(5), y).lineTo(LEFT + WIDTH + mm(5), y).dash(4, { space: 3 }).lineWidth(0.5).strokeColor('#777').stroke().restore();
  doc.undash();
}

export async function packingSlipsPdf(orders: OrderView[], company: CompanyInfo): Promise<Buffer> {
  const doc = await newPdf({ size: 'A4', margin: mm(12), title: `ใบรายการสินค้า ${orders.map((order) => order.orderNo).join(', ')}`.slice(0, 200) });
  let y: number | null = null;
  for (const order of orders) {
    const height = slipHeight(doc, order);
    if (y === null || y + GAP + height > PAGE_BOTTOM) {
      doc.addPage({ size: 'A4', margin: mm(12) });
      y = PAGE_TOP;
    } else {
      cutLine(doc, y + GAP / 2);
      y += GAP;
    }
    y = await drawPackingSlip(doc, order, company, y);
  }
  return pdfBytes(doc);
}

export interface PickLine {
  productCode: string;
  productName: string;
  amount: number;
  /** Which orders take it and how many each, in the order the orders were given. */
  orders: { orderNo: string; amount: number }[];
}

/** The lines of all the orders summed by product code, sorted by code (the order shelves are kept in). */
export function pickLines(orders: OrderView[]): PickLine[] {
  const byCode = new Map<string, PickLine>();
  for (const order of orders) {
    for (const line of order.lines) {
      let pick = byCode.get(line.productCode);
      if (!pick) {
        pick = { productCode: line.productCode, productName: line.productName, amount: 0, orders: [] };
        byCode.set(line.productCode, pick);
      }
      pick.amount += line.amount;
      const taken = pick.orders.find((entry) => entry.orderNo === order.orderNo);
      if (taken) taken.amount += line.amount;
      else pick.orders.push({ orderNo: order.orderNo, amount: line.amount });
    }
  }
  return [...byCode.values()].sort((a, b) => a.productCode.localeCompare(b.productCode, 'en'));
}

const PICK = { check: LEFT, code: LEFT + mm(9), name: LEFT + mm(40), amount: LEFT + mm(104), orders: LEFT + mm(130) };
const PICK_WIDTHS = { code: mm(30), name: mm(62), amount: mm(22), orders: mm(50) };

function pickHead(doc: PdfDoc, y: number): number {
  doc.font(THAI_FONT_BOLD).fontSize(BODY);
  doc.text('หยิบ', PICK.check, y);
  doc.text('รหัสสินค้า', PICK.code, y, { width: PICK_WIDTHS.code });
  doc.text('ชื่อสินค้า', PICK.name, y, { width: PICK_WIDTHS.name });
  doc.text('จำนวนรวม', PICK.amount, y, { width: PICK_WIDTHS.amount, align: 'right' });
  doc.text('คำสั่งซื้อ (จำนวน)', PICK.orders, y, { width: PICK_WIDTHS.orders });
  const bottom = doc.y + mm(0.5);
  rule(doc, bottom, LEFT, LEFT + WIDTH);
  return bottom + mm(2);
}

/** The pick list of the selected orders: one row per product with the total to pick. */
export async function pickListPdf(orders: OrderView[], company: CompanyInfo, printedAt = new Date()): Promise<Buffer> {
  const doc = await newPdf({ size: 'A4', margin: mm(12), title: `ใบหยิบสินค้า ${orders.length} คำสั่งซื้อ` });
  const lines = pickLines(orders);
  doc.addPage({ size: 'A4', margin: mm(12) });
  const printed = printedAt.toLocaleString('th-TH', { timeZone: 'Asia/Bangkok', dateStyle: 'long', timeStyle: 'short' });
  doc.font(THAI_FONT_BOLD).fontSize(16).text('ใบหยิบสินค้า (Pick list)', LEFT, PAGE_TOP, { width: WIDTH });
  doc.font(THAI_FONT).fontSize(BODY).text(`${company.name} · พิมพ์เมื่อ ${printed}`, LEFT, doc.y, { width: WIDTH });
  doc.text(`${orders.length} คำสั่งซื้อ: ${orders.map((order) => order.orderNo).join(', ')}`, LEFT, doc.y + mm(1), { width: WIDTH });
  let y = pickHead(doc, doc.y + mm(3));
  for (const line of lines) {
    const ordersText = line.orders.map((entry) => `${entry.orderNo} (${entry.amount})`).join(', ');
    const height =
      Math.max(
        heightOf(doc, THAI_FONT, BODY, line.productCode, PICK_WIDTHS.code),
        heightOf(doc, THAI_FONT, BODY, line.productName, PICK_WIDTHS.name),
        heightOf(doc, THAI_FONT, 8, ordersText, PICK_WIDTHS.orders),
      ) + mm(1.5);
    if (y + height > PAGE_BOTTOM) {
      doc.addPage({ size: 'A4', margin: mm(12) });
      y = pickHead(doc, PAGE_TOP);
    }
    doc.rect(PICK.check + mm(1), y + mm(0.6), mm(3.6), mm(3.6)).lineWidth(0.8).stroke();
    doc.font(THAI_FONT).fontSize(BODY).text(line.productCode, PICK.code, y, { width: PICK_WIDTHS.code });
    doc.text(line.productName, PICK.name, y, { width: PICK_WIDTHS.name });
    doc.font(THAI_FONT_BOLD).fontSize(12).text(String(line.amount), PICK.amount, y, { width: PICK_WIDTHS.amount, align: 'right' });
    doc.font(THAI_FONT).fontSize(8).text(ordersText, PICK.orders, y, { width: PICK_WIDTHS.orders });
    y += height;
  }
  if (y + mm(10) > PAGE_BOTTOM) {
    doc.addPage({ size: 'A4', margin: mm(12) });
    y = PAGE_TOP;
  }
  rule(doc, y, LEFT, LEFT + WIDTH);
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  doc.font(THAI_FONT_BOLD).fontSize(BODY).text(`รวม ${lines.length} รายการ ${total} ชิ้น จาก ${orders.length} คำสั่งซื้อ`, LEFT, y + mm(2), { width: WIDTH, align: 'right' });
  return pdfBytes(doc);
}
