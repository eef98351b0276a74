import { and, asc, desc, eq } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client.ts';
import { orders, quotationLines, quotations } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { getCompany } from '../company/company.service.ts';
import * as orderRepo from '../orders/order.repo.ts';
import { placeOrder, quoteOrder, type OrderMember } from '../orders/order.service.ts';
import { nextDocumentNumber } from '../documents/numbering.ts';
import { renderShopDocument, thaiDate } from '../documents/shop-document.pdf.ts';
import { bahtText } from '../../lib/thai-baht.ts';
import type { OrderView, PaymentMethod } from '../../lib/orders.ts';
import type { CreateQuotationInput, QuotationView } from '../../lib/quotations.ts';

/**
 * Quotations for wholesale buyers (docs/design.md section 14): the cart priced by the server's tier prices and
 * delivery fee on the day, valid for the shop's number of days, numbered QT<year>-NNNNNN. A member
 * orders from a quotation still valid at the quoted prices, through the ordinary placement transaction
 * (stock locked and checked again); a quotation gives one order.
 */
type QuotationRow = typeof quotations.$inferSelect;
type QuotationLineRow = typeof quotationLines.$inferSelect;

const DAY_MS = 86_400_000;
const quotationNotFound = () => notFound('quotation_not_found', 'ไม่พบใบเสนอราคานี้');

function toView(row: QuotationRow, lines: QuotationLineRow[], orderNo: string | null, now = new Date()): QuotationView {
  return {
    quotationNo: row.quotationNo,
    buyerName: row.buyerName,
    buyerCompany: row.buyerCompany,
    buyerAddress: row.buyerAddress,
    buyerTaxId: row.buyerTaxId,
    buyerPhone: row.buyerPhone,
    deliveryCode: row.deliveryCode,
    deliveryName: row.deliveryName,
    shippingFeeSatang: row.shippingFeeSatang,
    subtotalSatang: row.subtotalSatang,
    totalSatang: row.totalSatang,
    vatSatang: row.vatSatang,
    validUntil: row.validUntil.toISOString(),
    createdAt: row.createdAt.toISOString(),
    orderNo,
    valid: orderNo === null && row.validUntil.getTime() > now.getTime(),
    lines: lines.map((line) => ({
      productCode: line.productCode,
      productName: line.productName,
      unitPriceSatang: line.unitPriceSatang,
      amount: line.amount,
      lineTotalSatang: line.lineTotalSatang,
    })),
  };
}

async function load(db: DbOrTx, memberId: string, quotationNo: string): Promise<{ row: QuotationRow; lines: QuotationLineRow[]; orderNo: string | null }> {
  const [found] = await db
    .select({ row: quotations, orderNo: orders.orderNo })
    .from(quotations)
    .leftJoin(orders, eq(orders.id, quotations.orderId))
    .where(and(eq(quotations.quotationNo, quotationNo), eq(quotations.memberId, memberId)))
    .limit(1);
  if (!found) throw quotationNotFound();
  const lines = await db.select().from(quotationLines).where(eq(quotationLines.quotationId, found.row.id)).orderBy(asc(quotationLines.id));
  return { row: found.row, lines, orderNo: found.orderNo };
}

export async function createQuotation(memberId: string, input: CreateQuotationInput, now = new Date()): Promise<QuotationView> {
  const db = await getDb();
  const company = await getCompany();
  const delivery = company.deliveryOptions.find((option) => option.code === input.delivery_code);
  if (!delivery) throw badRequest('delivery_invalid', 'กรุณาเลือกวิธีจัดส่ง', { delivery_code: 'กรุณาเลือกวิธีจัดส่ง' });
  const quote = await quoteOrder({ lines: input.lines, delivery_code: delivery.code });
  const quotedCodes = new Set(quote.lines.map((line) => line.productCode));
  const missing = input.lines.filter((line) => !quotedCodes.has(line.product_code)).map((line) => line.product_code);
  if (missing.length > 0) throw conflict('product_unavailable', `สินค้ารหัส ${[...new Set(missing)].join(', ')} ไม่มีจำหน่ายแล้ว กรุณานำออกจากตะกร้า`);
  const products = await orderRepo.findProductsByCode(db, [...quotedCodes]);
  const byCode = new Map(products.map((product) => [product.code, product]));
  const saved = await db.transaction(async (tx) => {
    const { number } = await nextDocumentNumber(tx, 'quotation', now);
    const [row] = await tx
      .insert(quotations)
      .values({
        quotationNo: number,
        memberId,
        buyerName: input.buyer_name,
        buyerCompany: input.buyer_company,
        buyerAddress: input.buyer_address,
        buyerTaxId: input.buyer_tax_id,
        buyerPhone: input.buyer_phone,
        deliveryCode: delivery.code,
        deliveryName: delivery.name,
        shippingFeeSatang: quote.shippingFeeSatang,
        subtotalSatang: quote.subtotalSatang,
        totalSatang: quote.totalSatang,
        vatSatang: quote.vatSatang,
        validUntil: new Date(now.getTime() + company.quotationValidDays * DAY_MS),
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('quotation insert returned nothing');
    const lines = await tx
      .insert(quotationLines)
      .values(
        quote.lines.map((line) => ({
          quotationId: row.id,
          productId: byCode.get(line.productCode)?.id as number,
          variantId: byCode.get(line.productCode)?.variantId ?? null,
          productCode: line.productCode,
          productName: line.productName,
          unitPriceSatang: line.unitPriceSatang,
          amount: line.amount,
          lineTotalSatang: line.lineTotalSatang,
        })),
      )
      .returning();
    return { row, lines };
  });
  return toView(saved.row, saved.lines, null, now);
}

export async function getQuotation(memberId: string, quotationNo: string): Promise<QuotationView> {
  const db = await getDb();
  const { row, lines, orderNo } = await load(db, memberId, quotationNo);
  return toView(row, lines, orderNo);
}

export async function listQuotations(memberId: string, limit = 50): Promise<QuotationView[]> {
  const db = await getDb();
  const rows = await db
    .select({ row: quotations, orderNo: orders.orderNo })
    .from(quotations)
    .leftJoin(orders, eq(orders.id, quotations.orderId))
    .where(eq(quotations.memberId, memberId))
    .orderBy(desc(quotations.createdAt))
    .limit(limit);
  return rows.map(({ row, orderNo }) => toView(row, [], orderNo));
}

/** An order at the quoted prices and delivery fee; stock is locked and checked again by placeOrder. */
export async function orderFromQuotation(
  member: OrderMember,
  quotationNo: string,
  choice: { addressId: string; paymentMethod: PaymentMethod; idempotencyKey: string },
  now = new Date(),
): Promise<{ order: OrderView; created: boolean }> {
  const db = await getDb();
  const { row, lines, orderNo } = await load(db, member.id, quotationNo);
  if (orderNo) {
    const existing = await orderRepo.findOrderByIdempotencyKey(db, member.id, choice.idempotencyKey);
    // The same submit arriving twice answers the order it made; anything else is a second order.
    if (!existing || existing.orderNo !== orderNo) throw conflict('quotation_used', `ใบเสนอราคานี้ถูกใช้สั่งซื้อไปแล้ว (คำสั่งซื้อ ${orderNo})`);
  } else if (row.validUntil.getTime() <= now.getTime()) {
    throw conflict('quotation_expired', 'ใบเสนอราคานี้หมดอายุแล้ว กรุณาขอใบเสนอราคาใหม่');
  }
  return placeOrder(member, {
    idempotencyKey: choice.idempotencyKey,
    lines: lines.map((line) => ({ product_code: line.productCode, amount: line.amount })),
    addressId: choice.addressId,
    deliveryCode: row.deliveryCode,
    paymentMethod: choice.paymentMethod,
    note: `สั่งซื้อตามใบเสนอราคา ${row.quotationNo}`,
    quotation: {
      id: row.id,
      prices: new Map(lines.map((line) => [line.productCode, line.unitPriceSatang])),
      shippingFeeSatang: row.shippingFeeSatang,
    },
  });
}

export async function quotationPdf(memberId: string, quotationNo: string): Promise<{ bytes: Buffer; filename: string }> {
  const db = await getDb();
  const { row, lines, orderNo } = await load(db, memberId, quotationNo);
  const company = await getCompany();
  const view = toView(row, lines, orderNo);
  const documentLines = view.lines.map((line) => ({
    code: line.productCode,
    name: line.productName,
    amount: line.amount,
    unitSatang: line.unitPriceSatang,
    totalSatang: line.lineTotalSatang,
  }));
  if (view.shippingFeeSatang > 0) {
    documentLines.push({ code: '', name: `ค่าจัดส่ง (${view.deliveryName})`, amount: 1, unitSatang: view.shippingFeeSatang, totalSatang: view.shippingFeeSatang });
  }
  const buyerLines = [
    view.buyerCompany ? `${view.buyerCompany} (${view.buyerName})` : view.buyerName,
    ...(view.buyerAddress ? [view.buyerAddress] : []),
    ...(view.buyerTaxId ? [`เลขประจำตัวผู้เสียภาษีอากร ${view.buyerTaxId}`] : []),
    ...(view.buyerPhone ? [`โทร ${view.buyerPhone}`] : []),
  ];
  const bytes = await renderShopDocument({
    title: 'ใบเสนอราคา',
    titleEn: 'Quotation',
    company,
    meta: [
      ['เลขที่', view.quotationNo],
      ['วันที่', thaiDate(view.createdAt)],
      ['ยืนราคาถึง', thaiDate(view.validUntil)],
    ],
    buyer: { heading: 'เสนอราคาแด่', lines: buyerLines },
    lines: documentLines,
    totals: [
      { label: 'รวมเป็นเงิน', satang: view.totalSatang },
      { label: 'มูลค่าสินค้าก่อนภาษีมูลค่าเพิ่ม', satang: view.totalSatang - view.vatSatang },
      { label: 'ภาษีมูลค่าเพิ่ม 7%', satang: view.vatSatang },
      { label: 'จำนวนเงินรวมทั้งสิ้น', satang: view.totalSatang, strong: true },
    ],
    words: bahtText(view.totalSatang),
    notes: [
      'ราคาสินค้ารวมภาษีมูลค่าเพิ่มแล้ว ราคาต่อหน่วยเป็นราคาขายส่งตามจำนวนที่สั่ง',
      `ใบเสนอราคานี้มีผล ${company.quotationValidDays} วัน ถึงวันที่ ${thaiDate(view.validUntil)} สั่งซื้อตามใบเสนอราคาได้ที่เว็บไซต์ของร้าน`,
      'สินค้ามีจำนวนจำกัด ร้านตรวจสอบสินค้าคงเหลืออีกครั้งเมื่อสั่งซื้อ',
    ],
  });
  return { bytes, filename: `${view.quotationNo}.pdf` };
}
