import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { APIContext } from 'astro';
import { getDb } from '../../src/server/db/client';
import { auditLog, company, productPriceTiers, products, quotations } from '../../src/server/db/schema';
import { runOperatorCommand } from '../../src/server/operator/commands';
import { invalidateCompany } from '../../src/server/company/company.service';
import { createQuotation, orderFromQuotation } from '../../src/server/quotations/quotation.service';
import { AppError } from '../../src/server/http/errors';
import { unitPriceFor } from '../../src/lib/pricing';
import { includedVat } from '../../src/lib/money';
import { POST as createRoute, GET as listRoute } from '../../src/pages/api/quotations';
import { POST as orderRoute } from '../../src/pages/api/quotation-order';
import { GET as pdfRoute } from '../../src/pages/quotation/[no]/pdf';
import { call, createMember, newKey, productWithStock, stockOf } from '../fixtures/orders';
import { pdfPages } from '../fixtures/pdf-text';

const squash = (text: string) => text.replace(/\s+/g, '');

async function quotationPdf(no: string, token: string) {
  const url = new URL(`/quotation/${no}/pdf`, 'http://shop.test');
  const request = new Request(url, { headers: { authorization: `Bearer ${token}` } });
  const cookies = { get: () => undefined, has: () => false, set: () => {}, delete: () => {} };
  return pdfRoute({ request, url, cookies, params: { no } } as unknown as APIContext);
}

const expectCode = (code: string) => (error: unknown) => error instanceof AppError && error.code === code;

describe('quotations', () => {
  it('quotes a cart of 120 pieces at the tier price, and orders from it at that price after a price rise', async () => {
    const member = await createMember();
    const product = await productWithStock(500, { withTiers: true });
    const db = await getDb();
    const tiers = await db.select().from(productPriceTiers).where(eq(productPriceTiers.productId, product.id));
    const unit = unitPriceFor(product.priceSatang, tiers, 120);
    expect(unit).toBeLessThan(product.priceSatang);

    const created = await call(createRoute, {
      token: member.token,
      json: {
        lines: [{ product_code: product.code, amount: 120, product_price: 0.01 }],
        delivery_code: 'kerry',
        buyer_name: 'ครูสมศรี ใจงาม',
        buyer_company: 'โรงเรียนบ้านยิ้มละไม',
        buyer_address: '1 หมู่ 2 ตำบลบางพลัด อำเภอบางกรวย นนทบุรี 11130',
        buyer_phone: '0812345678',
      },
    });
    expect(created.status).toBe(201);
    const quotation = created.body.data as Record<string, unknown> & { lines: { product_price: number; amount: number }[] };
    expect(String(quotation.quotation_no)).toMatch(/^QT\d{4}-\d{6}$/);
    expect(quotation.lines[0]).toMatchObject({ product_price: unit / 100, amount: 120 });
    const subtotal = unit * 120;
    const shipping = subtotal >= 150_000 ? 0 : 4500;
    expect(quotation.total_price).toBe((subtotal + shipping) / 100);
    expect(quotation.vat_price).toBe(includedVat(subtotal + shipping) / 100);
    expect(quotation.valid).toBe(true);
    const validDays = (new Date(String(quotation.valid_until)).getTime() - new Date(String(quotation.created_at)).getTime()) / 86_400_000;
    expect(validDays).toBe(30);

    const pdf = await quotationPdf(String(quotation.quotation_no), member.token);
    expect(pdf.status).toBe(200);
    const text = squash((await pdfPages(new Uint8Array(await pdf.arrayBuffer()))).join('\n'));
    expect(text).toContain(squash('ใบเสนอราคา'));
    expect(text).toContain(String(quotation.quotation_no));
    expect(text).toContain(squash('โรงเรียนบ้านยิ้มละไม'));
    expect(text).toContain(squash(product.name));
    expect(text).toContain(squash('ภาษีมูลค่าเพิ่ม 7%'));
    expect(text).toContain(squash('ยืนราคาถึง'));

    // The shop raises the price and its tiers after the quotation (the operator's command, audited).
    const raised = await runOperatorCommand(
      ['set-price', product.code, String((product.priceSatang * 2) / 100), ...tiers.flatMap((tier) => ['--tier', `${tier.minQuantity}=${(tier.priceSatang * 2) / 100}`])],
      'tester',
    );
    expect(raised.err).toBe('');
    expect(raised.exitCode).toBe(0);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.entityId, String(product.id)));
    expect(audit).toMatchObject({ action: 'product.update', via: 'cli' });
    const nowQuote = await call(createRoute, { token: member.token, json: { lines: [{ product_code: product.code, amount: 120 }], delivery_code: 'kerry', buyer_name: 'ครูสมศรี ใจงาม' } });
    expect((nowQuote.body.data as { lines: { product_price: number }[] }).lines[0]!.product_price).toBe((unit * 2) / 100);

    const key = newKey();
    const ordered = await call(orderRoute, {
      token: member.token,
      json: { no: quotation.quotation_no, address_id: member.addressId, payment_method: 'bank_transfer', idempotency_key: key },
    });
    expect(ordered.status).toBe(201);
    const order = ordered.body.data as Record<string, unknown> & { lines: { product_price: number; amount: number }[] };
    expect(order.lines[0]).toMatchObject({ product_price: unit / 100, amount: 120 });
    expect(order.total_price).toBe(quotation.total_price);
    expect(order.shipping_price).toBe(shipping / 100);
    expect(order.status).toBe('pending_payment');
    expect(await stockOf(product.code)).toBe(380);

    // The same submit again answers the same order; a second order from it is refused.
    const replay = await call(orderRoute, {
      token: member.token,
      json: { no: quotation.quotation_no, address_id: member.addressId, payment_method: 'bank_transfer', idempotency_key: key },
    });
    expect(replay.status).toBe(200);
    expect((replay.body.data as { order_no: string }).order_no).toBe(order.order_no);
    const second = await call(orderRoute, {
      token: member.token,
      json: { no: quotation.quotation_no, address_id: member.addressId, payment_method: 'bank_transfer', idempotency_key: newKey() },
    });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('quotation_used');
    expect(await stockOf(product.code)).toBe(380);

    const list = await call(listRoute, { method: 'GET', token: member.token });
    expect((list.body.data as { quotation_no: string; order_no: string | null }[]).find((item) => item.quotation_no === quotation.quotation_no)?.order_no).toBe(order.order_no);
  });

  it('checks stock again when ordering, and refuses a quotation past its date', async () => {
    const member = await createMember();
    const product = await productWithStock(30);
    const quotation = await createQuotation(member.id, { lines: [{ product_code: product.code, amount: 20 }], delivery_code: 'ems', buyer_name: 'คุณเอ', buyer_company: '', buyer_address: '', buyer_tax_id: '', buyer_phone: '' });
    const db = await getDb();
    await db.update(products).set({ stock: 5 }).where(eq(products.id, product.id));
    await expect(
      orderFromQuotation(member, quotation.quotationNo, { addressId: member.addressId, paymentMethod: 'promptpay', idempotencyKey: newKey() }),
    ).rejects.toSatisfy(expectCode('out_of_stock'));
    expect(await stockOf(product.code)).toBe(5);
    const [row] = await db.select().from(quotations).where(eq(quotations.quotationNo, quotation.quotationNo));
    expect(row?.orderId).toBeNull();

    await db.update(products).set({ stock: 30 }).where(eq(products.id, product.id));
    const later = new Date(Date.now() + 31 * 86_400_000);
    await expect(
      orderFromQuotation(member, quotation.quotationNo, { addressId: member.addressId, paymentMethod: 'promptpay', idempotencyKey: newKey() }, later),
    ).rejects.toSatisfy(expectCode('quotation_expired'));
  });

  it('keeps a member out of another member’s quotation, and refuses bad input with Thai messages', async () => {
    const owner = await createMember();
    const stranger = await createMember();
    const product = await productWithStock(10);
    const quotation = await createQuotation(owner.id, { lines: [{ product_code: product.code, amount: 2 }], delivery_code: 'ems', buyer_name: 'คุณบี', buyer_company: '', buyer_address: '', buyer_tax_id: '', buyer_phone: '' });
    expect((await quotationPdf(quotation.quotationNo, stranger.token)).status).toBe(404);
    const steal = await call(orderRoute, {
      token: stranger.token,
      json: { no: quotation.quotationNo, address_id: stranger.addressId, payment_method: 'promptpay', idempotency_key: newKey() },
    });
    expect(steal.status).toBe(404);
    const noName = await call(createRoute, { token: owner.token, json: { lines: [{ product_code: product.code, amount: 1 }], delivery_code: 'ems', buyer_name: '' } });
    expect(noName.status).toBe(400);
    expect(JSON.stringify(noName.body)).toContain('กรุณากรอกชื่อผู้ขอใบเสนอราคา');
    const unknown = await call(createRoute, { token: owner.token, json: { lines: [{ product_code: 'NO-SUCH-CODE', amount: 1 }], delivery_code: 'ems', buyer_name: 'คุณบี' } });
    expect(unknown.status).toBe(409);
    expect(unknown.body.code).toBe('product_unavailable');
    const anonymous = await call(createRoute, { json: {} });
    expect(anonymous.status).toBe(401);
    const badNo = await call(orderRoute, { token: owner.token, json: { no: '../../etc', address_id: owner.addressId, payment_method: 'promptpay', idempotency_key: newKey() } });
    expect(badNo.status).toBe(400);
  });

  it('gives one order when two orders from one quotation are sent at the same moment', async () => {
    const member = await createMember();
    const product = await productWithStock(50);
    const quotation = await createQuotation(member.id, { lines: [{ product_code: product.code, amount: 5 }], delivery_code: 'ems', buyer_name: 'คุณดี', buyer_company: '', buyer_address: '', buyer_tax_id: '', buyer_phone: '' });
    const results = await Promise.allSettled(
      [newKey(), newKey(), newKey()].map((key) =>
        orderFromQuotation(member, quotation.quotationNo, { addressId: member.addressId, paymentMethod: 'promptpay', idempotencyKey: key }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((result) => result.status === 'rejected')) {
      expect((result as PromiseRejectedResult).reason).toSatisfy(expectCode('quotation_used'));
    }
    expect(await stockOf(product.code)).toBe(45);
  });

  it('is valid for the number of days the shop sets', async () => {
    const db = await getDb();
    await db.update(company).set({ quotationValidDays: 7 });
    invalidateCompany();
    try {
      const member = await createMember();
      const product = await productWithStock(10);
      const now = new Date();
      const quotation = await createQuotation(member.id, { lines: [{ product_code: product.code, amount: 1 }], delivery_code: 'pickup', buyer_name: 'คุณซี', buyer_company: '', buyer_address: '', buyer_tax_id: '', buyer_phone: '' }, now);
      expect(new Date(quotation.validUntil).getTime() - now.getTime()).toBe(7 * 86_400_000);
    } finally {
      await db.update(company).set({ quotationValidDays: 30 });
      invalidateCompany();
    }
  });
});
