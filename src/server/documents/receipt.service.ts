import type { DbOrTx } from '../db/client.ts';
import { getDb } from '../db/client.ts';
import { conflict, notFound } from '../http/errors.ts';
import { getCompany } from '../company/company.service.ts';
import * as orderRepo from '../orders/order.repo.ts';
import { bahtText } from '../../lib/thai-baht.ts';
import { branchLabel, type OrderDocumentsView, type TaxInvoiceRequest } from '../../lib/documents.ts';
import { paymentMethodLabels } from '../../lib/orders.ts';
import { nextDocumentNumber } from './numbering.ts';
import * as repo from './documents.repo.ts';
import { renderShopDocument, thaiDate, type DocumentLine } from './shop-document.pdf.ts';

/**
 * Receipts and tax invoices (docs/design.md section 14, docs/decisions/131-receipt-and-tax-invoice-numbers.md).
 * Every paid order gets a receipt / abbreviated tax invoice, numbered in the transaction that records the
 * payment. A buyer who asks for a full tax invoice (at checkout or later in My Purchase) gets one with its
 * own running number, once the order is paid.
 */

/** Called by the orders service inside the payment's transaction (the order row is locked). */
export async function issueDocumentsOnPayment(tx: DbOrTx, orderId: string, at: Date): Promise<void> {
  if (!(await repo.receiptOf(tx, orderId))) {
    const { number, year, sequence } = await nextDocumentNumber(tx, 'receipt', at);
    await repo.insertReceipt(tx, { orderId, receiptNo: number, year, sequence, issuedAt: at });
  }
  const invoice = await repo.taxInvoiceOf(tx, orderId);
  if (invoice && !invoice.invoiceNo) {
    const { number } = await nextDocumentNumber(tx, 'tax_invoice', at);
    await repo.numberTaxInvoice(tx, orderId, number, at);
  }
}

/** Inside the order's placement transaction: the buyer asked for a full tax invoice at checkout. */
export async function saveTaxInvoiceRequest(tx: DbOrTx, orderId: string, request: TaxInvoiceRequest): Promise<void> {
  await repo.upsertTaxInvoiceRequest(tx, orderId, {
    buyerName: request.name,
    buyerAddress: request.address,
    buyerTaxId: request.taxId,
    buyerBranch: request.branch,
  });
}

const orderNotFound = () => notFound('order_not_found', 'ไม่พบคำสั่งซื้อนี้');
const PAID_STATUSES = new Set(['paid', 'shipped', 'delivered']);

/**
 * The member asks for a full tax invoice (or corrects the details before it is issued). On an order
 * already paid the invoice is numbered at once; otherwise when the payment is confirmed.
 */
export async function requestTaxInvoice(memberId: string, orderNo: string, request: TaxInvoiceRequest): Promise<OrderDocumentsView> {
  const db = await getDb();
  const now = new Date();
  await db.transaction(async (tx) => {
    const order = await orderRepo.lockOrderByNo(tx, orderNo);
    if (!order || order.memberId !== memberId) throw orderNotFound();
    if (order.status === 'cancelled' || order.status === 'expired') {
      throw conflict('order_closed', 'คำสั่งซื้อนี้ถูกยกเลิกแล้ว ไม่สามารถขอใบกำกับภาษีได้');
    }
    const saved = await repo.upsertTaxInvoiceRequest(tx, order.id, {
      buyerName: request.name,
      buyerAddress: request.address,
      buyerTaxId: request.taxId,
      buyerBranch: request.branch,
    });
    if (!saved) throw conflict('tax_invoice_issued', 'ออกใบกำกับภาษีเต็มรูปสำหรับคำสั่งซื้อนี้แล้ว ไม่สามารถแก้ไขข้อมูลได้');
    if (await repo.receiptOf(tx, order.id)) await issueDocumentsOnPayment(tx, order.id, now);
  });
  const order = await orderRepo.findOrderByNo(db, orderNo);
  return documentsOf(db, order!.id);
}

export async function documentsOf(db: DbOrTx, orderId: string): Promise<OrderDocumentsView> {
  const [receipt, invoice] = await Promise.all([repo.receiptOf(db, orderId), repo.taxInvoiceOf(db, orderId)]);
  return {
    receiptNo: receipt?.receiptNo ?? null,
    receiptIssuedAt: receipt?.issuedAt.toISOString() ?? null,
    taxInvoice: invoice
      ? {
          buyerName: invoice.buyerName,
          buyerAddress: invoice.buyerAddress,
          buyerTaxId: invoice.buyerTaxId,
          buyerBranch: invoice.buyerBranch,
          invoiceNo: invoice.invoiceNo,
          issuedAt: invoice.issuedAt?.toISOString() ?? null,
        }
      : null,
  };
}

/**
 * issue 31 part 6: wrapping and the card are lines of the receipt like delivery: the whole-order wrapping
 * once, the lines' wrappings one row per kind (amount: how many lines), the card when it was charged.
 */
function giftDocumentLines(order: orderRepo.OrderRow, lines: orderRepo.OrderLineRow[]): DocumentLine[] {
  const out: DocumentLine[] = [];
  if (order.giftWrap) out.push({ code: '', name: `ห่อของขวัญ (${order.giftWrap.name})`, amount: 1, unitSatang: order.giftWrap.priceSatang, totalSatang: order.giftWrap.priceSatang });
  const byKind = new Map<string, DocumentLine>();
  for (const { giftWrap } of lines) {
    if (!giftWrap) continue;
    const key = `${giftWrap.code}:${giftWrap.priceSatang}`;
    const row = byKind.get(key) ?? { code: '', name: `ห่อของขวัญ (${giftWrap.name}) แยกรายการ`, amount: 0, unitSatang: giftWrap.priceSatang, totalSatang: 0 };
    row.amount += 1;
    row.totalSatang += giftWrap.priceSatang;
    byKind.set(key, row);
  }
  out.push(...byKind.values());
  if (order.giftCardSatang > 0) out.push({ code: '', name: 'การ์ดข้อความ', amount: 1, unitSatang: order.giftCardSatang, totalSatang: order.giftCardSatang });
  return out;
}

export type PaperKind = 'receipt' | 'tax-invoice';

/**
 * The PDF of an order's receipt or full tax invoice. `memberId` null means staff (any order); a member
 * asking for another member's order gets "not found".
 */
export async function orderDocumentPdf(memberId: string | null, orderNo: string, kind: PaperKind): Promise<{ bytes: Buffer; filename: string }> {
  const db = await getDb();
  const order = await orderRepo.findOrderByNo(db, orderNo);
  if (!order || (memberId !== null && order.memberId !== memberId)) throw orderNotFound();
  const [receipt, invoice, lines, company] = await Promise.all([
    repo.receiptOf(db, order.id),
    repo.taxInvoiceOf(db, order.id),
    orderRepo.linesOfOrders(db, [order.id]),
    getCompany(),
  ]);
  if (!receipt || !PAID_STATUSES.has(order.status)) {
    throw notFound('receipt_not_ready', 'ใบเสร็จรับเงินจะออกให้เมื่อร้านยืนยันการชำระเงินแล้ว');
  }
  if (kind === 'tax-invoice' && !invoice?.invoiceNo) {
    throw notFound('tax_invoice_not_found', 'ยังไม่มีใบกำกับภาษีเต็มรูปสำหรับคำสั่งซื้อนี้');
  }
  const documentLines: DocumentLine[] = lines.map((line) => ({
    code: line.productCode,
    name: line.productName,
    amount: line.amount,
    unitSatang: line.unitPriceSatang,
    totalSatang: line.lineTotalSatang,
  }));
  if (order.shippingFeeSatang > 0) {
    documentLines.push({ code: '', name: `ค่าจัดส่ง (${order.deliveryName})`, amount: 1, unitSatang: order.shippingFeeSatang, totalSatang: order.shippingFeeSatang });
  }
  documentLines.push(...giftDocumentLines(order, lines));
  const totals = [
    { label: 'รวมเป็นเงิน', satang: order.subtotalSatang + order.shippingFeeSatang + order.giftWrapSatang + order.giftCardSatang },
    ...(order.discountSatang > 0 ? [{ label: `ส่วนลด${order.promotionCode ? ` (${order.promotionCode})` : ''}`, satang: -order.discountSatang }] : []),
    { label: 'มูลค่าสินค้าก่อนภาษีมูลค่าเพิ่ม', satang: order.totalSatang - order.vatSatang },
    { label: 'ภาษีมูลค่าเพิ่ม 7%', satang: order.vatSatang },
    { label: 'จำนวนเงินรวมทั้งสิ้น', satang: order.totalSatang, strong: true },
  ];
  const paidAt = order.paidAt ?? receipt.issuedAt;
  const full = kind === 'tax-invoice' && invoice?.invoiceNo;
  const bytes = await renderShopDocument({
    title: full ? 'ใบเสร็จรับเงิน/ใบกำกับภาษี' : 'ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ',
    titleEn: full ? 'Receipt / Tax invoice' : 'Receipt / Abbreviated tax invoice',
    company,
    meta: [
      ['เลขที่', full ? invoice.invoiceNo! : receipt.receiptNo],
      ['วันที่', thaiDate(full ? (invoice.issuedAt ?? receipt.issuedAt) : receipt.issuedAt)],
      ['คำสั่งซื้อ', order.orderNo],
      ...(full ? ([['อ้างอิงใบเสร็จ', receipt.receiptNo]] as [string, string][]) : []),
    ],
    buyer: full
      ? {
          heading: 'ผู้ซื้อ',
          lines: [
            invoice.buyerName,
            invoice.buyerAddress,
            `เลขประจำตัวผู้เสียภาษีอากร ${invoice.buyerTaxId}  ${branchLabel(invoice.buyerBranch)}`,
          ],
        }
      : { heading: 'ลูกค้า', lines: [`${order.address.recipientName}  โทร ${order.address.phone}`] },
    lines: documentLines,
    totals,
    words: bahtText(order.totalSatang),
    notes: [
      'ราคาสินค้ารวมภาษีมูลค่าเพิ่มแล้ว',
      `ชำระเงินโดย ${paymentMethodLabels[order.paymentMethod]} เมื่อ ${thaiDate(paidAt)}`,
      'เอกสารนี้จัดทำโดยระบบคอมพิวเตอร์',
    ],
  });
  const number = full ? invoice.invoiceNo! : receipt.receiptNo;
  return { bytes, filename: `${number}.pdf` };
}
