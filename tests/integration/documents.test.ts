import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { orders, products, receipts, taxInvoices } from '../../src/server/db/schema';
import { changeOrderStatus } from '../../src/server/orders/order.service';
import { bangkokYear, nextDocumentNumber } from '../../src/server/documents/numbering';
import { GET as receiptRoute } from '../../src/pages/order/receipt.pdf';
import { GET as taxInvoiceRoute } from '../../src/pages/order/tax-invoice.pdf';
import { GET as staffReceiptRoute } from '../../src/pages/admin/orders/[no]/receipt.pdf';
import { GET as staffTaxInvoiceRoute } from '../../src/pages/admin/orders/[no]/tax-invoice.pdf';
import { adminCallers, expectRoleMatrix } from '../fixtures/admin';
import { POST as taxInvoiceRequestRoute } from '../../src/pages/api/order-tax-invoice';
import { POST as placeOrderRoute } from '../../src/pages/api/orders';
import { POST as orderGetRoute } from '../../src/pages/api/order-get';
import { call, createMember, newKey, productWithStock, type TestMember, placeTestOrder } from '../fixtures/orders';
import { pdfPages } from '../fixtures/pdf-text';
import { demoCompany } from '../../src/server/db/demo-catalog';
import type { APIContext, APIRoute } from 'astro';

const staffActor = (member: TestMember) => ({ type: 'staff' as const, id: member.id });

/** An order for exactly `satang` (picked up at the shop: no delivery fee) of one product priced so. */
async function orderOf(member: TestMember, satang: number, options: { cod?: boolean } = {}) {
  const db = await getDb();
  const product = await productWithStock(50);
  await db.update(products).set({ priceSatang: satang }).where(eq(products.id, product.id));
  const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 1 }], { deliveryCode: 'pickup', paymentMethod: options.cod ? 'cod' : 'promptpay' });
  expect(order.totalSatang).toBe(satang);
  return order;
}

/** GET an endpoint whose path has parameters (the fixture's `call` passes none). */
async function getWithParams(route: APIRoute, path: string, params: Record<string, string>, token?: string) {
  const url = new URL(path, 'http://shop.test');
  const headers = new Headers(token ? { authorization: `Bearer ${token}` } : {});
  const request = new Request(url, { method: 'GET', headers });
  const cookies = { get: () => undefined, has: () => false, set: () => {}, delete: () => {} };
  return route({ request, url, cookies, params } as unknown as APIContext);
}

async function pdfText(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  expect(response.headers.get('cache-control')).toContain('no-store');
  return (await pdfPages(new Uint8Array(await response.arrayBuffer()))).join('\n');
}

/** pdf.js gives text items with spaces between them: compare without white space. */
const squash = (text: string) => text.replace(/\s+/g, '');

describe('receipts', () => {
  it('numbers 20 payments confirmed at the same moment with 20 distinct numbers and no gap', async () => {
    const staff = await createMember({ scopes: ['admin'] });
    const buyers = await Promise.all(Array.from({ length: 4 }, () => createMember()));
    const placed = [];
    for (let i = 0; i < 20; i++) placed.push(await orderOf(buyers[i % 4]!, 10_000 + i * 100));
    const db = await getDb();
    const before = await db.select({ sequence: receipts.sequence }).from(receipts);
    const results = await Promise.allSettled(
      placed.map((order) => changeOrderStatus(staffActor(staff), order.orderNo, { action: 'confirm_payment' })),
    );
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(0);
    const ids = (await db.select({ id: orders.id }).from(orders).where(inArray(orders.orderNo, placed.map((order) => order.orderNo)))).map((row) => row.id);
    const issued = await db.select().from(receipts).where(inArray(receipts.orderId, ids));
    expect(issued).toHaveLength(20);
    expect(new Set(issued.map((row) => row.receiptNo)).size).toBe(20);
    const sequences = issued.map((row) => row.sequence).sort((a, b) => a - b);
    const start = before.length === 0 ? 1 : Math.max(...before.map((row) => row.sequence)) + 1;
    expect(sequences).toEqual(Array.from({ length: 20 }, (_, i) => start + i));
    const year = bangkokYear(new Date()) + 543;
    for (const row of issued) expect(row.receiptNo).toBe(`RE${year}-${String(row.sequence).padStart(6, '0')}`);
  });

  it('gives a number back when the payment’s transaction rolls back, so the next payment takes it', async () => {
    const staff = await createMember({ scopes: ['admin'] });
    const member = await createMember();
    const db = await getDb();
    const last = async () => Math.max(0, ...(await db.select({ sequence: receipts.sequence }).from(receipts)).map((row) => row.sequence));
    const lastBefore = await last();
    // A payment whose transaction fails after it took its number (a crash, a lost connection).
    await expect(
      db.transaction(async (tx) => {
        const taken = await nextDocumentNumber(tx, 'receipt', new Date());
        expect(taken.sequence).toBe(lastBefore + 1);
        throw new Error('connection lost');
      }),
    ).rejects.toThrow('connection lost');
    const next = await orderOf(member, 6_000);
    await changeOrderStatus(staffActor(staff), next.orderNo, { action: 'confirm_payment' });
    expect(await last()).toBe(lastBefore + 1);
  });

  it('reads back from the receipt PDF: the shop, its tax id, VAT apart and the amount in Thai words', async () => {
    const staff = await createMember({ scopes: ['admin'] });
    const member = await createMember();
    const cases: [number, string][] = [
      [123_450, 'หนึ่งพันสองร้อยสามสิบสี่บาทห้าสิบสตางค์'],
      [10_000, 'หนึ่งร้อยบาทถ้วน'],
      [2_100, 'ยี่สิบเอ็ดบาทถ้วน'],
    ];
    for (const [satang, words] of cases) {
      const order = await orderOf(member, satang);
      // Not paid yet: no receipt, a Thai 404.
      const early = await call(receiptRoute, { method: 'GET', path: `/order/receipt.pdf?no=${order.orderNo}`, token: member.token });
      expect(early.status).toBe(404);
      expect(early.body.code).toBe('receipt_not_ready');
      const paid = await changeOrderStatus(staffActor(staff), order.orderNo, { action: 'confirm_payment' });
      expect(paid.documents?.receiptNo).toMatch(/^RE\d{4}-\d{6}$/);
      const response = await getWithParams(receiptRoute, `/order/receipt.pdf?no=${order.orderNo}`, {}, member.token);
      const text = await pdfText(response);
      const flat = squash(text);
      expect(flat).toContain(squash('ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ'));
      expect(flat).toContain(squash(demoCompany.name));
      expect(flat).toContain(demoCompany.taxId);
      expect(flat).toContain(paid.documents!.receiptNo!);
      expect(flat).toContain(order.orderNo);
      expect(flat).toContain(squash('ภาษีมูลค่าเพิ่ม 7%'));
      const vat = (paid.vatSatang / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
      expect(flat).toContain(squash(`ภาษีมูลค่าเพิ่ม 7%${vat}`));
      expect(flat).toContain(squash(`(${words})`));
    }
  });

  it('issues the receipt of cash on delivery when the cash is collected', async () => {
    const staff = await createMember({ scopes: ['admin'] });
    const member = await createMember();
    const order = await orderOf(member, 25_000, { cod: true });
    expect(order.status).toBe('paid');
    // Pickup has no tracking link: shipping without a number is allowed.
    const shipped = await changeOrderStatus(staffActor(staff), order.orderNo, { action: 'ship' });
    expect(shipped.documents?.receiptNo).toBeNull();
    const delivered = await changeOrderStatus(staffActor(staff), order.orderNo, { action: 'deliver' });
    expect(delivered.status).toBe('delivered');
    expect(delivered.documents?.receiptNo).toMatch(/^RE/);
  });

  it('lets the member and staff download it, and nobody else', async () => {
    const staff = await createMember({ scopes: ['admin'] });
    const member = await createMember();
    const stranger = await createMember();
    const order = await orderOf(member, 9_900);
    await changeOrderStatus(staffActor(staff), order.orderNo, { action: 'confirm_payment' });
    const strangerTry = await call(receiptRoute, { method: 'GET', path: `/order/receipt.pdf?no=${order.orderNo}`, token: stranger.token });
    expect(strangerTry.status).toBe(404);
    const anonymous = await call(receiptRoute, { method: 'GET', path: `/order/receipt.pdf?no=${order.orderNo}` });
    expect(anonymous.status).toBe(401);
    const staffPdf = await getWithParams(staffReceiptRoute, `/admin/orders/${order.orderNo}/receipt.pdf`, { no: order.orderNo }, staff.token);
    expect(await pdfText(staffPdf)).toContain(order.orderNo);
    const memberOnAdmin = await getWithParams(staffReceiptRoute, `/admin/orders/${order.orderNo}/receipt.pdf`, { no: order.orderNo }, member.token);
    expect(memberOnAdmin.status).toBe(404);
    const badNo = await call(receiptRoute, { method: 'GET', path: '/order/receipt.pdf?no=<script>', token: member.token });
    expect(badNo.status).toBe(400);
  });
});

describe('full tax invoices', () => {
  const request = {
    name: 'บริษัท ตัวอย่างการค้า จำกัด',
    address: '99/9 ถนนสีลม แขวงสีลม เขตบางรัก กรุงเทพมหานคร 10500',
    tax_id: '0105558000006',
    branch_type: 'branch',
    branch_no: '3',
  };

  it('asked for at checkout: numbered when the payment is confirmed, with the buyer and the branch', async () => {
    const staff = await createMember({ scopes: ['admin'] });
    const member = await createMember();
    const product = await productWithStock(10);
    const placed = await call(placeOrderRoute, {
      token: member.token,
      headers: { 'idempotency-key': newKey() },
      json: { lines: [{ product_code: product.code, amount: 2 }], address_id: member.addressId, delivery_code: 'ems', payment_method: 'bank_transfer', tax_invoice: request },
    });
    expect(placed.status).toBe(201);
    const orderNo = String((placed.body.data as { order_no: string }).order_no);
    expect((placed.body.data as { documents: unknown }).documents).toMatchObject({
      receipt_no: null,
      tax_invoice: { buyer_name: request.name, buyer_tax_id: '0105558000006', buyer_branch: '00003', invoice_no: null },
    });
    const paid = await changeOrderStatus(staffActor(staff), orderNo, { action: 'confirm_payment' });
    expect(paid.documents?.taxInvoice?.invoiceNo).toMatch(/^IV\d{4}-\d{6}$/);
    const text = squash(await pdfText(await getWithParams(taxInvoiceRoute, `/order/tax-invoice.pdf?no=${orderNo}`, {}, member.token)));
    expect(text).toContain(squash('ใบเสร็จรับเงิน/ใบกำกับภาษี'));
    expect(text).not.toContain(squash('อย่างย่อ'));
    expect(text).toContain(squash(request.name));
    expect(text).toContain('0105558000006');
    expect(text).toContain(squash('สาขาที่ 00003'));
    expect(text).toContain(paid.documents!.taxInvoice!.invoiceNo!);

    // Both documents from the back office's order page: staff and owners only.
    const callers = await adminCallers();
    for (const [route, path] of [
      [{ GET: staffReceiptRoute }, `/admin/orders/${orderNo}/receipt.pdf`],
      [{ GET: staffTaxInvoiceRoute }, `/admin/orders/${orderNo}/tax-invoice.pdf`],
    ] as const) {
      const results = await expectRoleMatrix(callers, route, 'GET', path, () => ({ params: { no: orderNo } }), ['staff', 'owner']);
      expect(results.staff.status, path).toBe(200);
      expect(results.owner.headers.get('content-type'), path).toBe('application/pdf');
    }
    const staffInvoice = squash(await pdfText(await getWithParams(staffTaxInvoiceRoute, `/admin/orders/${orderNo}/tax-invoice.pdf`, { no: orderNo }, callers.members.staff.token)));
    expect(staffInvoice).toContain(paid.documents!.taxInvoice!.invoiceNo!);
  });

  it('asked for later from My Purchase: issued at once on a paid order, then no longer editable', async () => {
    const staff = await createMember({ scopes: ['admin'] });
    const member = await createMember();
    const order = await orderOf(member, 50_000);
    await changeOrderStatus(staffActor(staff), order.orderNo, { action: 'confirm_payment' });
    const asked = await call(taxInvoiceRequestRoute, {
      token: member.token,
      json: { no: order.orderNo, tax_invoice: { ...request, branch_type: 'head_office', branch_no: '' } },
    });
    expect(asked.status).toBe(200);
    expect((asked.body.data as { tax_invoice_no: string }).tax_invoice_no).toMatch(/^IV/);
    const text = squash(await pdfText(await getWithParams(taxInvoiceRoute, `/order/tax-invoice.pdf?no=${order.orderNo}`, {}, member.token)));
    expect(text).toContain(squash('สำนักงานใหญ่'));
    const again = await call(taxInvoiceRequestRoute, { token: member.token, json: { no: order.orderNo, tax_invoice: request } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('tax_invoice_issued');
  });

  it('refuses a wrong tax id or branch with Thai messages, and another member’s order', async () => {
    const member = await createMember();
    const other = await createMember();
    const order = await orderOf(member, 7_000);
    const badId = await call(taxInvoiceRequestRoute, { token: member.token, json: { no: order.orderNo, tax_invoice: { ...request, tax_id: '0105558000007' } } });
    expect(badId.status).toBe(400);
    expect(JSON.stringify(badId.body)).toContain('เลขประจำตัวผู้เสียภาษี');
    const badBranch = await call(taxInvoiceRequestRoute, { token: member.token, json: { no: order.orderNo, tax_invoice: { ...request, branch_no: 'abc' } } });
    expect(badBranch.status).toBe(400);
    const foreign = await call(taxInvoiceRequestRoute, { token: other.token, json: { no: order.orderNo, tax_invoice: request } });
    expect(foreign.status).toBe(404);
    const db = await getDb();
    const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.orderNo, order.orderNo));
    expect(await db.select().from(taxInvoices).where(eq(taxInvoices.orderId, row!.id))).toHaveLength(0);
    // Not yet paid: saved, and the invoice waits for the payment.
    const saved = await call(taxInvoiceRequestRoute, { token: member.token, json: { no: order.orderNo, tax_invoice: request } });
    expect(saved.status).toBe(200);
    expect((saved.body.data as { tax_invoice_no: string | null }).tax_invoice_no).toBeNull();
    const read = await call(orderGetRoute, { token: member.token, json: { no: order.orderNo } });
    expect((read.body.data as { documents: { tax_invoice: { buyer_branch: string } } }).documents.tax_invoice.buyer_branch).toBe('00003');
  });
});
