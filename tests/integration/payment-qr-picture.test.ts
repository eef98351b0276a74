import { eq } from 'drizzle-orm';
import { parse, checksum } from 'promptparse';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { products } from '../../src/server/db/schema';
import { changeOrderStatus, getOrder, paymentDetails } from '../../src/server/orders/order.service';
import { orderForPage } from '../../src/server/orders/order-page';
import { GET as paymentQrRoute } from '../../src/pages/order/payment-qr.png';
import { call, createMember, placeTestOrder, productWithStock, type TestMember } from '../fixtures/orders';
import { readQr } from '../fixtures/qr-picture';

/** Issue 29: the PromptPay QR of /order/payment as a PNG the shopper saves and scans from the bank app. */

let buyer: TestMember;
let otherMember: TestMember;
let staff: TestMember;

/** An unpaid PromptPay order of exactly `satang` (picked up at the shop: no delivery fee). */
async function unpaidOrderOf(member: TestMember, satang: number) {
  const db = await getDb();
  const product = await productWithStock(50);
  await db.update(products).set({ priceSatang: satang }).where(eq(products.id, product.id));
  const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 1 }], { deliveryCode: 'pickup', paymentMethod: 'promptpay' });
  expect(order.totalSatang).toBe(satang);
  return order;
}

const pictureOf = (orderNo: string, token?: string) =>
  call(paymentQrRoute, { method: 'GET', path: `/order/payment-qr.png?no=${encodeURIComponent(orderNo)}`, ...(token ? { token } : {}) });

beforeAll(async () => {
  buyer = await createMember();
  otherMember = await createMember();
  staff = await createMember({ scopes: ['staff'] });
});

describe('GET /order/payment-qr.png', () => {
  it("answers the order's member with a PNG of exactly the page's payload: the amount and a valid CRC", async () => {
    const order = await unpaidOrderOf(buyer, 123_456);
    const { status, response } = await pictureOf(order.orderNo, buyer.token);
    expect(status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${order.orderNo}.png"`);
    expect(response.headers.get('cache-control')).toContain('no-store');
    const png = new Uint8Array(await response.arrayBuffer());
    expect((await sharp(png).metadata()).format).toBe('png');

    const payload = await readQr(png);
    const page = await paymentDetails(await getOrder({ type: 'member', id: buyer.id }, order.orderNo));
    expect(page.payload).not.toBeNull();
    expect(payload).toBe(page.payload);
    const qr = parse(payload!);
    expect(qr!.validate('63')).toBe(true);
    expect(checksum(payload!.slice(0, -4), true)).toBe(payload!.slice(-4).toUpperCase());
    expect(qr!.getTagValue('54')).toBe('1234.56');
  });

  it('prints the caption under the QR: dark pixels below the code', async () => {
    const order = await unpaidOrderOf(buyer, 9_900);
    const png = new Uint8Array(await (await pictureOf(order.orderNo, buyer.token)).response.arrayBuffer());
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    // The QR is square at the top; the caption lines sit in the band below it.
    const captionTop = info.width;
    let dark = 0;
    for (let i = captionTop * info.width; i < data.length; i++) if (data[i]! < 128) dark++;
    expect(info.height).toBeGreaterThan(info.width + 40);
    expect(dark).toBeGreaterThan(500);
  });

  it("is a 404 for another member and for a visitor, as the order's other documents", async () => {
    const order = await unpaidOrderOf(buyer, 5_000);
    const other = await pictureOf(order.orderNo, otherMember.token);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('order_not_found');
    const visitor = await pictureOf(order.orderNo);
    expect(visitor.status).toBe(404);
    expect(visitor.body.code).toBe('order_not_found');
  });

  it('answers staff for any order, as the receipt does', async () => {
    const order = await unpaidOrderOf(buyer, 5_000);
    const { status, response } = await pictureOf(order.orderNo, staff.token);
    expect(status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });

  it('is a Thai 404 once the order is paid, and a Thai 400 for a malformed number', async () => {
    const order = await unpaidOrderOf(buyer, 5_000);
    await changeOrderStatus({ type: 'staff', id: staff.id }, order.orderNo, { action: 'confirm_payment' });
    const paid = await pictureOf(order.orderNo, buyer.token);
    expect(paid.status).toBe(404);
    expect(paid.body.code).toBe('payment_qr_not_available');
    expect(paid.body.message).toMatch(/[\u0E00-\u0E7F]/);
    const malformed = await pictureOf('<ไม่ใช่เลข>', buyer.token);
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/[\u0E00-\u0E7F]/);
  });
});

describe('the PromptPay id in full on /order/payment', () => {
  /** The payment page's Astro global, enough for orderForPage: the member's token and the URL. */
  function paymentPageAs(member: TestMember, orderNo: string) {
    const url = new URL(`/order/payment?no=${orderNo}`, 'http://shop.test');
    const request = new Request(url, { headers: { authorization: `Bearer ${member.token}` } });
    const cookies = { get: () => undefined, has: () => false, set: () => {}, delete: () => {} };
    return { url, request, cookies, response: { headers: new Headers() } } as never;
  }

  it("is the buyer's only: staff opening a customer's order are told it is not their own", async () => {
    const order = await unpaidOrderOf(buyer, 5_000);
    expect(await orderForPage(paymentPageAs(buyer, order.orderNo))).toMatchObject({ own: true, staff: false });
    expect(await orderForPage(paymentPageAs(staff, order.orderNo))).toMatchObject({ own: false, staff: true });
  });
});
