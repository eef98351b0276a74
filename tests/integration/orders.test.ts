import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { company, orderEvents, orders, productPriceTiers, products, promotions } from '../../src/server/db/schema';
import { invalidateCompany } from '../../src/server/company/company.service';
import {
  changeOrderStatus,
  checkPromotion,
  expireUnpaidOrders,
  getOrder,
  listOrders,
  placeOrder,
  uploadSlip,
  type OrderMember,
} from '../../src/server/orders/order.service';
import { includedVat } from '../../src/lib/money';
import { unitPriceFor } from '../../src/lib/pricing';
import { statusLabels } from '../../src/lib/orders';
import { AppError } from '../../src/server/http/errors';
import { POST as placeOrderRoute } from '../../src/pages/api/orders';
import { POST as orderGetRoute } from '../../src/pages/api/order-get';
import { POST as orderListRoute } from '../../src/pages/api/order-list-get';
import { POST as statusRoute } from '../../src/pages/api/order-status-update';
import { GET as slipGetRoute, POST as slipRoute } from '../../src/pages/api/order-slip';
import { POST as checkPromotionRoute } from '../../src/pages/api/check-promotion';
import { emlSubject, emlText, settleOutbox } from '../fixtures/outbox';
import { call, createMember, newKey, productWithStock, stockOf, type TestMember } from '../fixtures/orders';
import { hugePng, slipPhotoWithGps, slipPicture, smallSlip } from '../fixtures/slips';
import { decodeSlots } from '../../src/server/storage/decode-slots';

const PNG = await smallSlip();

async function order(member: TestMember, lines: { product_code: string; amount: number }[], extra: Record<string, unknown> = {}) {
  return placeOrder(member as OrderMember, {
    idempotencyKey: newKey(),
    lines,
    addressId: member.addressId,
    deliveryCode: 'kerry',
    paymentMethod: 'promptpay',
    ...extra,
  });
}

async function slipFiles(): Promise<number> {
  try {
    return (await readdir(path.resolve(process.env.DATA_DIR as string, 'uploads', 'private', 'slips'))).length;
  } catch {
    return 0;
  }
}

function expectAppError(promise: Promise<unknown>, code: string) {
  return expect(promise).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.code === code);
}

describe('placing an order', () => {
  it('prices every line on the server and ignores what the client sent', async () => {
    const member = await createMember();
    const plain = await productWithStock(20);
    const tiered = await productWithStock(500, { withTiers: true });
    const db = await getDb();
    const tiers = await db.select().from(productPriceTiers).where(eq(productPriceTiers.productId, tiered.id));
    const bigAmount = Math.max(...tiers.map((tier) => tier.minQuantity));
    const result = await call(placeOrderRoute, {
      token: member.token,
      headers: { 'idempotency-key': newKey() },
      json: {
        lines: [
          { product_code: plain.code, amount: 2, product_price: 0.01 },
          { product_code: tiered.code, amount: bigAmount, product_price: 0.01 },
        ],
        address_id: member.addressId,
        delivery_code: 'ems',
        payment_method: 'promptpay',
        total_price: 1,
        subtotal_price: 1,
        shipping_price: 0,
      },
    });
    expect(result.status).toBe(201);
    const data = result.body.data as Record<string, number | string | unknown[]>;
    const tierUnit = unitPriceFor(tiered.priceSatang, tiers, bigAmount);
    expect(tierUnit).toBeLessThan(tiered.priceSatang);
    const subtotal = plain.priceSatang * 2 + tierUnit * bigAmount;
    const shipping = subtotal >= 150_000 ? 0 : 5000;
    expect(data.subtotal_price).toBe(subtotal / 100);
    expect(data.shipping_price).toBe(shipping / 100);
    expect(data.total_price).toBe((subtotal + shipping) / 100);
    expect(data.vat_price).toBe(includedVat(subtotal + shipping) / 100);
    expect(data.status).toBe('pending_payment');
    expect(String(data.order_no)).toMatch(/^YL\d{11}$/);
    expect(await stockOf(plain.code)).toBe(18);
    expect(await stockOf(tiered.code)).toBe(500 - bigAmount);
    const [event] = await db.select().from(orderEvents).innerJoin(orders, eq(orders.id, orderEvents.orderId)).where(eq(orders.orderNo, String(data.order_no)));
    expect(event?.order_events.toStatus).toBe('pending_payment');
    expect(event?.order_events.actorType).toBe('member');
  });

  it('answers the same order for the same key and never takes stock twice', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    const key = newKey();
    const input = { idempotencyKey: key, lines: [{ product_code: product.code, amount: 2 }], addressId: member.addressId, deliveryCode: 'flash', paymentMethod: 'promptpay' as const };
    const first = await placeOrder(member, input);
    const second = await placeOrder(member, input);
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.order.orderNo).toBe(first.order.orderNo);
    expect(await stockOf(product.code)).toBe(3);
    const missingKey = await call(placeOrderRoute, {
      token: member.token,
      json: { lines: [{ product_code: product.code, amount: 1 }], address_id: member.addressId, delivery_code: 'flash', payment_method: 'promptpay' },
    });
    expect(missingKey.status).toBe(400);
    expect(missingKey.body.code).toBe('idempotency_key_missing');
  });

  it('refuses more than the stock, an unknown delivery, another member’s address, and anonymous callers', async () => {
    const member = await createMember();
    const other = await createMember();
    const product = await productWithStock(3);
    await expectAppError(order(member, [{ product_code: product.code, amount: 4 }]), 'out_of_stock');
    await expectAppError(order(member, [{ product_code: product.code, amount: 1 }], { deliveryCode: 'rocket' }), 'delivery_invalid');
    await expectAppError(order(member, [{ product_code: product.code, amount: 1 }], { addressId: other.addressId }), 'address_invalid');
    // A payment method the shop switched off in its configuration.
    const db = await getDb();
    await db.update(company).set({ paymentMethods: { promptpay: true, bankTransfer: true, cod: false } });
    invalidateCompany();
    await expectAppError(order(member, [{ product_code: product.code, amount: 1 }], { paymentMethod: 'cod' }), 'payment_method_unavailable');
    await db.update(company).set({ paymentMethods: { promptpay: true, bankTransfer: true, cod: true } });
    invalidateCompany();
    expect(await stockOf(product.code)).toBe(3);
    const anonymous = await call(placeOrderRoute, { json: {} });
    expect(anonymous.status).toBe(401);
    expect(String(anonymous.body.message)).toMatch(/เข้าสู่ระบบ/);
  });

  it('puts cash on delivery straight to paid, to ship, with no expiry', async () => {
    const member = await createMember();
    const product = await productWithStock(4);
    const { order: placed } = await order(member, [{ product_code: product.code, amount: 1 }], { paymentMethod: 'cod' });
    expect(placed.status).toBe('paid');
    expect(placed.expiresAt).toBeNull();
    const tabs = await listOrders(member.id, 'to-ship', 1);
    expect(tabs.orders.map((o) => o.orderNo)).toEqual([placed.orderNo]);
    expect(tabs.counts['to-pay']).toBe(0);
  });
});

describe('promotions', () => {
  it('applies a valid code on the server and counts its use', async () => {
    const member = await createMember();
    const product = await productWithStock(50);
    const amount = Math.ceil(40_000 / product.priceSatang);
    const db = await getDb();
    const [before] = await db.select().from(promotions).where(eq(promotions.code, 'WELCOME10'));
    const { order: placed } = await order(member, [{ product_code: product.code, amount }], { promotionCode: 'welcome10' });
    const subtotal = product.priceSatang * amount;
    expect(placed.promotionCode).toBe('WELCOME10');
    expect(placed.discountSatang).toBe(Math.min(Math.floor(subtotal / 10), 20_000));
    expect(placed.totalSatang).toBe(subtotal - placed.discountSatang + placed.shippingFeeSatang);
    const [after] = await db.select().from(promotions).where(eq(promotions.code, 'WELCOME10'));
    expect(after!.usedCount).toBe(before!.usedCount + 1);
  });

  it('refuses codes past their dates, used up, below the minimum or for other categories', async () => {
    const member = await createMember();
    const product = await productWithStock(50);
    const lines = [{ product_code: product.code, amount: Math.ceil(80_000 / product.priceSatang) }];
    for (const [code, reason] of [
      ['SONGKRAN', 'promotion_ended'],
      ['NEWYEAR2027', 'promotion_not_started'],
      ['FLASH99', 'promotion_used_up'],
      ['NOSUCHCODE', 'promotion_not_found'],
    ] as const) {
      await expectAppError(checkPromotion(code, lines), reason);
      await expectAppError(order(member, lines, { promotionCode: code }), reason);
    }
    const cheap = await productWithStock(5, { maxPriceSatang: 29_000 });
    await expectAppError(checkPromotion('WELCOME10', [{ product_code: cheap.code, amount: 1 }]), 'promotion_min_order');
    const db = await getDb();
    const [party] = await db.select({ code: products.code }).from(products).where(sql`${products.categoryId} not in (select category_id from promotion_categories pc join promotions p on p.id = pc.promotion_id where p.code = 'PARTY15') and ${products.active}`).limit(1);
    await expectAppError(checkPromotion('PARTY15', [{ product_code: party!.code, amount: 50 }]), 'promotion_not_applicable');
    expect(await stockOf(product.code)).toBe(50);
    const answer = await call(checkPromotionRoute, { json: { code: 'SONGKRAN', lines } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'promotion_ended', message: 'โค้ดส่วนลดนี้หมดอายุแล้ว' });
    const good = await call(checkPromotionRoute, { json: { code: 'WELCOME10', lines } });
    expect(good.status).toBe(200);
    expect((good.body.data as { discount_price: number }).discount_price).toBeGreaterThan(0);
  });

  it('gives the last use of a limited code to exactly one of two racing checkouts', async () => {
    const db = await getDb();
    await db.update(promotions).set({ usageLimit: sql`${promotions.usedCount} + 1` }).where(eq(promotions.code, 'WELCOME10'));
    const product = await productWithStock(100);
    const amount = Math.ceil(40_000 / product.priceSatang);
    const [a, b] = await Promise.all([createMember(), createMember()]);
    const results = await Promise.allSettled([
      order(a!, [{ product_code: product.code, amount }], { promotionCode: 'WELCOME10' }),
      order(b!, [{ product_code: product.code, amount }], { promotionCode: 'WELCOME10' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((failed.reason as AppError).code).toBe('promotion_used_up');
    expect(await stockOf(product.code)).toBe(100 - amount);
    await db.update(promotions).set({ usageLimit: 1000 }).where(eq(promotions.code, 'WELCOME10'));
  });
});

describe('who may do what', () => {
  it('keeps member B out of member A’s order: read, pay, cancel, upload, slip', async () => {
    const a = await createMember();
    const b = await createMember();
    const product = await productWithStock(5);
    const { order: placed } = await order(a, [{ product_code: product.code, amount: 1 }]);
    const files = await slipFiles();
    const read = await call(orderGetRoute, { token: b.token, json: { no: placed.orderNo } });
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('order_not_found');
    const cancel = await call(statusRoute, { token: b.token, json: { no: placed.orderNo, action: 'cancel' } });
    expect(cancel.status).toBe(404);
    const pay = await call(statusRoute, { token: b.token, json: { no: placed.orderNo, action: 'confirm_payment' } });
    expect(pay.status).toBe(404);
    const form = new FormData();
    form.set('no', placed.orderNo);
    form.set('slip', new File([PNG], 'slip.png', { type: 'image/png' }));
    const upload = await call(slipRoute, { token: b.token, form });
    expect(upload.status).toBe(404);
    expect(await slipFiles()).toBe(files);
    const list = await call(orderListRoute, { token: b.token, json: { tab: 'all' } });
    expect(list.body.data).toEqual([]);
    // A member may not confirm their own payment either.
    const selfConfirm = await call(statusRoute, { token: a.token, json: { no: placed.orderNo, action: 'confirm_payment' } });
    expect(selfConfirm.status).toBe(403);
    const own = await call(orderGetRoute, { token: a.token, json: { no: placed.orderNo } });
    expect(own.status).toBe(200);
    expect((await getOrder({ type: 'member', id: a.id }, placed.orderNo)).status).toBe('pending_payment');
  });

  it('refuses a slip that is not an image or is too large, with a Thai message, storing nothing', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    const { order: placed } = await order(member, [{ product_code: product.code, amount: 1 }]);
    const files = await slipFiles();
    const fake = new FormData();
    fake.set('no', placed.orderNo);
    fake.set('slip', new File(['<html>not a picture</html>'], 'slip.png', { type: 'image/png' }));
    const notImage = await call(slipRoute, { token: member.token, form: fake });
    expect(notImage.status).toBe(400);
    expect(notImage.body).toMatchObject({ code: 'slip_invalid_type', message: 'ไฟล์สลิปต้องเป็นรูปภาพ JPEG, PNG หรือ WebP เท่านั้น' });
    const huge = new Uint8Array(5 * 1024 * 1024 + 1);
    huge.set(PNG);
    const big = new FormData();
    big.set('no', placed.orderNo);
    big.set('slip', new File([huge], 'slip.png', { type: 'image/png' }));
    const tooLarge = await call(slipRoute, { token: member.token, form: big });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body).toMatchObject({ code: 'slip_too_large', message: 'ไฟล์สลิปต้องมีขนาดไม่เกิน 5 MB' });
    expect(await slipFiles()).toBe(files);
    expect((await getOrder({ type: 'member', id: member.id }, placed.orderNo)).status).toBe('pending_payment');

    const good = new FormData();
    good.set('no', placed.orderNo);
    good.set('slip', new File([PNG], 'anything.bin'));
    const accepted = await call(slipRoute, { token: member.token, form: good });
    expect(accepted.status).toBe(200);
    expect((accepted.body.data as { status: string }).status).toBe('payment_review');
    expect(await slipFiles()).toBe(files + 1);
    // What comes back is the picture written again as WebP, the same size, never the uploaded bytes.
    const image = await call(slipGetRoute, { method: 'GET', path: `/api/order-slip?no=${placed.orderNo}`, token: member.token });
    expect(image.status).toBe(200);
    expect(image.response.headers.get('content-type')).toBe('image/webp');
    const served = new Uint8Array(await image.response.arrayBuffer());
    expect(served).not.toEqual(PNG);
    expect(await sharp(served).metadata()).toMatchObject({ format: 'webp', width: 120, height: 200 });
    const stranger = await createMember();
    const peek = await call(slipGetRoute, { method: 'GET', path: `/api/order-slip?no=${placed.orderNo}`, token: stranger.token });
    expect(peek.status).toBe(404);
  });

  it('keeps no EXIF or GPS position of a slip photo: it is written again, upright, within 2400 px', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    const { order: placed } = await order(member, [{ product_code: product.code, amount: 1 }]);
    const photo = await slipPhotoWithGps(await slipPicture(null));
    const uploaded = await sharp(photo).metadata();
    // The fixture really carries them: the camera's name and a GPS directory in its EXIF.
    expect(uploaded.exif?.includes(Buffer.from('FixturePhone'))).toBe(true);
    expect(photo.includes(Buffer.from('FixturePhone'))).toBe(true);
    const form = new FormData();
    form.set('no', placed.orderNo);
    form.set('slip', new File([new Uint8Array(photo)], 'IMG_0001.jpg', { type: 'image/jpeg' }));
    expect((await call(slipRoute, { token: member.token, form })).status).toBe(200);
    const image = await call(slipGetRoute, { method: 'GET', path: `/api/order-slip?no=${placed.orderNo}`, token: member.token });
    const served = Buffer.from(await image.response.arrayBuffer());
    const kept = await sharp(served).metadata();
    expect(kept).toMatchObject({ format: 'webp', width: 720, height: 1200 });
    expect(kept.exif).toBeUndefined();
    expect(kept.xmp).toBeUndefined();
    expect(kept.icc).toBeUndefined();
    expect(served.includes(Buffer.from('FixturePhone'))).toBe(false);

    // A taller picture is scaled into 2400 px on its longest side; the order of its sides is kept.
    const tall = (await order(member, [{ product_code: product.code, amount: 1 }])).order.orderNo;
    const bigSlip = await sharp({ create: { width: 1500, height: 3600, channels: 3, background: '#eef' } }).jpeg().toBuffer();
    const tallForm = new FormData();
    tallForm.set('no', tall);
    tallForm.set('slip', new File([new Uint8Array(bigSlip)], 'slip.jpg'));
    expect((await call(slipRoute, { token: member.token, form: tallForm })).status).toBe(200);
    const tallImage = await call(slipGetRoute, { method: 'GET', path: `/api/order-slip?no=${tall}`, token: member.token });
    expect(await sharp(Buffer.from(await tallImage.response.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 1000, height: 2400 });
  });

  it('refuses a 900-megapixel PNG before decoding it, in Thai, storing nothing, inside a decode slot', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    const { order: placed } = await order(member, [{ product_code: product.code, amount: 1 }]);
    const bomb = hugePng(30_000, 30_000);
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024); // small enough to pass the size limit
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ format: 'png', width: 30_000, height: 30_000 });
    const files = await slipFiles();
    decodeSlots.resetPeak();
    const form = new FormData();
    form.set('no', placed.orderNo);
    form.set('slip', new File([bomb], 'slip.png', { type: 'image/png' }));
    const refused = await call(slipRoute, { token: member.token, form });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'slip_too_many_pixels',
      message: 'รูปสลิปมีความละเอียดเกินกำหนด (ไม่เกิน 40 ล้านพิกเซล) กรุณาส่งภาพหน้าจอสลิปจากแอปธนาคาร หรือย่อรูปก่อนแนบ',
    });
    // The check ran in a decode slot, and gave it back.
    expect(decodeSlots.peak()).toBeGreaterThanOrEqual(1);
    expect(decodeSlots.inUse()).toBe(0);
    expect(await slipFiles()).toBe(files);
    expect((await getOrder({ type: 'member', id: member.id }, placed.orderNo)).status).toBe('pending_payment');

    // A file that only starts like a PNG is no picture: refused the same way as any other non-picture.
    const header = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const fake = new FormData();
    fake.set('no', placed.orderNo);
    fake.set('slip', new File([header], 'slip.png', { type: 'image/png' }));
    const notPicture = await call(slipRoute, { token: member.token, form: fake });
    expect(notPicture.status).toBe(400);
    expect(notPicture.body).toMatchObject({ code: 'slip_invalid_type' });
    expect(await slipFiles()).toBe(files);
  });

  it('moves an order through the whole machine as staff, recording each step', async () => {
    const member = await createMember();
    const staff = await createMember({ scopes: ['admin'] });
    const product = await productWithStock(5);
    const { order: placed } = await order(member, [{ product_code: product.code, amount: 1 }], { deliveryCode: 'kerry' });
    await uploadSlip(member, placed.orderNo, PNG);
    const reject = await call(statusRoute, { token: staff.token, json: { no: placed.orderNo, action: 'reject_slip', note: 'ยอดไม่ตรง' } });
    expect((reject.body.data as { status: string; has_slip: boolean })).toMatchObject({ status: 'pending_payment', has_slip: false });
    await uploadSlip(member, placed.orderNo, PNG);
    const confirm = await call(statusRoute, { token: staff.token, json: { no: placed.orderNo, action: 'confirm_payment' } });
    expect((confirm.body.data as { status: string }).status).toBe('paid');
    const memberCancel = await call(statusRoute, { token: member.token, json: { no: placed.orderNo, action: 'cancel' } });
    expect(memberCancel.status).toBe(409);
    const noTracking = await call(statusRoute, { token: staff.token, json: { no: placed.orderNo, action: 'ship' } });
    expect(noTracking.status).toBe(400);
    expect(noTracking.body.code).toBe('tracking_required');
    const ship = await call(statusRoute, { token: staff.token, json: { no: placed.orderNo, action: 'ship', tracking_no: 'KEX123456789TH' } });
    const shipped = ship.body.data as { status: string; carrier: string; tracking_url: string };
    expect(shipped.status).toBe('shipped');
    expect(shipped.carrier).toBe('Kerry Express');
    expect(shipped.tracking_url).toBe('https://th.kex-express.com/th/track/?track=KEX123456789TH');
    const deliver = await call(statusRoute, { token: staff.token, json: { no: placed.orderNo, action: 'deliver' } });
    expect((deliver.body.data as { status: string }).status).toBe('delivered');
    const again = await call(statusRoute, { token: staff.token, json: { no: placed.orderNo, action: 'cancel' } });
    expect(again.status).toBe(409);
    const view = await getOrder({ type: 'staff', id: staff.id }, placed.orderNo);
    expect(view.events.map((event) => event.toStatus)).toEqual([
      'pending_payment',
      'payment_review',
      'pending_payment',
      'payment_review',
      'paid',
      'shipped',
      'delivered',
    ]);
    expect(view.events.at(-1)?.actorType).toBe('staff');
    expect(await stockOf(product.code)).toBe(4);
  });
});

describe('stock comes back', () => {
  it('when a member cancels an unpaid order (and the promotion use too)', async () => {
    const member = await createMember();
    const product = await productWithStock(10);
    const amount = Math.ceil(40_000 / product.priceSatang);
    await getDb().then((db) => db.update(products).set({ stock: amount + 5 }).where(eq(products.id, product.id)));
    const db = await getDb();
    const [before] = await db.select().from(promotions).where(eq(promotions.code, 'WELCOME10'));
    const { order: placed } = await order(member, [{ product_code: product.code, amount }], { promotionCode: 'WELCOME10' });
    expect(await stockOf(product.code)).toBe(5);
    const cancelled = await call(statusRoute, { token: member.token, json: { no: placed.orderNo, action: 'cancel' } });
    expect((cancelled.body.data as { status: string }).status).toBe('cancelled');
    expect(await stockOf(product.code)).toBe(amount + 5);
    const [after] = await db.select().from(promotions).where(eq(promotions.code, 'WELCOME10'));
    expect(after!.usedCount).toBe(before!.usedCount);
    const twice = await call(statusRoute, { token: member.token, json: { no: placed.orderNo, action: 'cancel' } });
    expect(twice.status).toBe(409);
    expect(await stockOf(product.code)).toBe(amount + 5);
    expect((await listOrders(member.id, 'cancelled', 1)).orders).toHaveLength(1);
  });

  it('when an unpaid order expires, but not one whose slip waits for review', async () => {
    const member = await createMember();
    const product = await productWithStock(6);
    const { order: unpaid } = await order(member, [{ product_code: product.code, amount: 2 }]);
    const { order: reviewed } = await order(member, [{ product_code: product.code, amount: 1 }]);
    await uploadSlip(member, reviewed.orderNo, PNG);
    expect(await stockOf(product.code)).toBe(3);
    expect(await expireUnpaidOrders(new Date())).not.toContain(unpaid.orderNo);
    const expired = await expireUnpaidOrders(new Date(Date.now() + 25 * 3_600_000));
    expect(expired).toContain(unpaid.orderNo);
    expect(expired).not.toContain(reviewed.orderNo);
    expect(await stockOf(product.code)).toBe(5);
    const view = await getOrder({ type: 'member', id: member.id }, unpaid.orderNo);
    expect(view.status).toBe('expired');
    expect(view.events.at(-1)?.actorType).toBe('system');
    await expectAppError(changeOrderStatus({ type: 'member', id: member.id }, unpaid.orderNo, { action: 'cancel' }), 'invalid_transition');
    expect(await stockOf(product.code)).toBe(5);
  });
});

/** The .eml files the mailer wrote to DATA_DIR/outbox for one address, decoded. */
async function mailsTo(address: string): Promise<{ subject: string; body: string }[]> {
  const dir = path.resolve(process.env.DATA_DIR as string, 'outbox');
  const { readFile } = await import('node:fs/promises');
  const found: { subject: string; body: string }[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const raw = await readFile(path.join(dir, name), 'utf8');
    const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
    if (!head.includes(`To: ${address}`)) continue;
    found.push({ subject: emlSubject(raw), body: emlText(raw) });
  }
  return found;
}

describe('order mails', () => {
  it('tells the member when the order is placed, paid, shipped with tracking, and cancelled', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    const { order: shipped } = await order(member, [{ product_code: product.code, amount: 1 }], { deliveryCode: 'ems' });
    await changeOrderStatus({ type: 'staff', id: null }, shipped.orderNo, { action: 'confirm_payment' });
    await changeOrderStatus({ type: 'staff', id: null }, shipped.orderNo, { action: 'ship', trackingNo: 'EF123456789TH' });
    const { order: cancelled } = await order(member, [{ product_code: product.code, amount: 1 }]);
    await changeOrderStatus({ type: 'member', id: member.id }, cancelled.orderNo, { action: 'cancel' });
    // Mails were queued with each change; send what the background worker has not sent yet.
    await settleOutbox();
    const mails = await mailsTo(member.email);
    const subjects = mails.map((mail) => mail.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        `ได้รับคำสั่งซื้อ ${shipped.orderNo} แล้ว`,
        `ยืนยันการชำระเงินคำสั่งซื้อ ${shipped.orderNo}`,
        `คำสั่งซื้อ ${shipped.orderNo} ${statusLabels.shipped}`,
        `ได้รับคำสั่งซื้อ ${cancelled.orderNo} แล้ว`,
        `คำสั่งซื้อ ${cancelled.orderNo} ถูกยกเลิก`,
      ]),
    );
    const shipping = mails.find((mail) => mail.subject.endsWith(statusLabels.shipped));
    expect(shipping?.body).toContain('เลขพัสดุ: EF123456789TH');
    expect(shipping?.body).toContain('https://track.thailandpost.co.th/?trackNumber=EF123456789TH');
  });
});
