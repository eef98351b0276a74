import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { orderSlipChecks, orders, slipReferences } from '../../src/server/db/schema';
import { changeOrderStatus, getOrder, uploadSlip } from '../../src/server/orders/order.service';
import { countReviewBySlipCheck, slipFilterCondition } from '../../src/server/payments/slip.repo';
import { AppError } from '../../src/server/http/errors';
import { listOrdersForAdmin } from '../../src/server/orders/admin-orders.service';
import { adminOrderListUrl, parseAdminOrderQuery } from '../../src/lib/admin-orders';
import { POST as slipRoute } from '../../src/pages/api/order-slip';
import { POST as orderGetRoute } from '../../src/pages/api/order-get';
import { call, createMember, productWithStock, type TestMember, placeTestOrder } from '../fixtures/orders';
import { newSlipRef, phonePhoto, slipPayload, slipPicture } from '../fixtures/slips';

async function unpaidOrder(member: TestMember) {
  const product = await productWithStock(10);
  const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 1 }]);
  return order;
}

async function slipFiles(): Promise<number> {
  try {
    return (await readdir(path.resolve(process.env.DATA_DIR as string, 'slips'))).length;
  } catch {
    return 0;
  }
}

async function orderRow(orderNo: string) {
  const db = await getDb();
  const [row] = await db.select().from(orders).where(eq(orders.orderNo, orderNo));
  return row!;
}

describe('slip QR verification', () => {
  it('reads the slip QR on upload and stores the bank and the reference with the slip', async () => {
    const member = await createMember();
    const order = await unpaidOrder(member);
    const ref = newSlipRef();
    const form = new FormData();
    form.set('no', order.orderNo);
    form.set('slip', new File([new Uint8Array(await slipPicture(slipPayload(ref)))], 'slip.png', { type: 'image/png' }));
    const uploaded = await call(slipRoute, { token: member.token, form });
    expect(uploaded.status).toBe(200);
    const data = uploaded.body.data as Record<string, unknown>;
    expect(data.status).toBe('payment_review');
    expect(data.slip_check).toMatchObject({
      status: 'verified',
      bank: '004',
      bank_name: 'ธนาคารกสิกรไทย (KBANK)',
      reference: ref.transRef,
      warning: null,
    });
    const db = await getDb();
    const row = await orderRow(order.orderNo);
    const [check] = await db.select().from(orderSlipChecks).where(eq(orderSlipChecks.orderId, row.id));
    expect(check).toMatchObject({ status: 'verified', bank: '004', reference: ref.transRef });
    const claims = await db.select().from(slipReferences).where(eq(slipReferences.reference, ref.transRef));
    expect(claims).toHaveLength(1);
    expect(claims[0]!.orderId).toBe(row.id);
    // The member reads it back on their order.
    const read = await call(orderGetRoute, { token: member.token, json: { no: order.orderNo } });
    expect((read.body.data as { slip_check: { reference: string } }).slip_check.reference).toBe(ref.transRef);
  });

  it('refuses the same reference on another order with a Thai message and stores nothing', async () => {
    const first = await createMember();
    const fraud = await createMember();
    const paid = await unpaidOrder(first);
    const target = await unpaidOrder(fraud);
    const slip = await slipPicture(slipPayload(newSlipRef()));
    await uploadSlip(first, paid.orderNo, slip);
    const files = await slipFiles();
    const before = await orderRow(target.orderNo);

    const form = new FormData();
    form.set('no', target.orderNo);
    form.set('slip', new File([new Uint8Array(slip)], 'old-slip.png', { type: 'image/png' }));
    const refused = await call(slipRoute, { token: fraud.token, form });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('slip_reused');
    expect(String(refused.body.message)).toContain('สลิปนี้เคยถูกใช้ชำระเงินกับคำสั่งซื้ออื่นแล้ว');
    // The other order's number is not told to this member.
    expect(String(refused.body.message)).not.toContain(paid.orderNo);

    expect(await slipFiles()).toBe(files);
    const after = await orderRow(target.orderNo);
    expect(after).toMatchObject({ status: 'pending_payment', slipPath: null, slipUploadedAt: null });
    expect(after.updatedAt).toEqual(before.updatedAt);
    const db = await getDb();
    expect(await db.select().from(orderSlipChecks).where(eq(orderSlipChecks.orderId, after.id))).toHaveLength(0);
    expect(await db.select().from(slipReferences).where(eq(slipReferences.orderId, after.id))).toHaveLength(0);
    // Even as a phone photo of the same slip.
    await expect(uploadSlip(fraud, target.orderNo, await phonePhoto(slip))).rejects.toSatisfy(
      (error: unknown) => error instanceof AppError && error.code === 'slip_reused',
    );
  });

  it('takes the same slip again for the same order as the same slip, not a new one', async () => {
    const member = await createMember();
    const order = await unpaidOrder(member);
    const slip = await slipPicture(slipPayload(newSlipRef()));
    await uploadSlip(member, order.orderNo, slip);
    const first = await orderRow(order.orderNo);
    const files = await slipFiles();
    const again = await uploadSlip(member, order.orderNo, await phonePhoto(slip, { angle: -6, width: 600 }));
    expect(again.status).toBe('payment_review');
    const second = await orderRow(order.orderNo);
    expect(second.slipPath).toBe(first.slipPath);
    expect(second.slipUploadedAt).toEqual(first.slipUploadedAt);
    expect(await slipFiles()).toBe(files);
    expect(again.events.filter((event) => event.note === 'แนบสลิปการโอนเงิน')).toHaveLength(1);
  });

  it('still reads a slip photographed by a phone: turned and scaled down, as JPEG', async () => {
    const member = await createMember();
    const order = await unpaidOrder(member);
    const ref = newSlipRef();
    const photo = await phonePhoto(await slipPicture(slipPayload(ref)), { angle: 17, width: 480 });
    expect(photo[0]).toBe(0xff); // JPEG
    const view = await uploadSlip(member, order.orderNo, photo);
    expect(view.slipCheck).toMatchObject({ status: 'verified', bank: '004', reference: ref.transRef });
  });

  it('accepts a picture without a readable QR and marks it for a manual check', async () => {
    const member = await createMember();
    const order = await unpaidOrder(member);
    const view = await uploadSlip(member, order.orderNo, await slipPicture(null));
    expect(view.status).toBe('payment_review');
    expect(view.slipCheck).toMatchObject({ status: 'no_qr', label: 'ตรวจสอบด้วยตนเอง', bank: null, reference: null });
    // A file that only starts like a PNG is no picture at all: refused with the Thai type message (it
    // cannot be written again as a picture), never a 500, and the order still waits for a slip.
    const broken = await unpaidOrder(member);
    const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    await expect(uploadSlip(member, broken.orderNo, PNG)).rejects.toMatchObject({ status: 400, code: 'slip_invalid_type' });
  });

  it('warns staff when the QR in the picture is not a slip-verify QR, and filters the review tab', async () => {
    const member = await createMember();
    const order = await unpaidOrder(member);
    // A PromptPay payment QR (the shop's own), photographed instead of the slip.
    const view = await uploadSlip(member, order.orderNo, await slipPicture('00020101021129370016A000000677010111011300668123456785802TH53037646304FE29'));
    expect(view.slipCheck?.status).toBe('warning');
    expect(view.slipCheck?.warning).toContain('ไม่ใช่ QR ตรวจสอบสลิป');

    const db = await getDb();
    const warned = await db.select({ no: orders.orderNo }).from(orders).where(slipFilterCondition('warning'));
    expect(warned.map((row) => row.no)).toContain(order.orderNo);
    const noQr = await db.select({ no: orders.orderNo }).from(orders).where(slipFilterCondition('no_qr'));
    expect(noQr.map((row) => row.no)).not.toContain(order.orderNo);
    const counts = await countReviewBySlipCheck(db);
    expect(counts.warning).toBeGreaterThanOrEqual(1);
    expect(counts.no_qr).toBeGreaterThanOrEqual(1);
    // Staff read the same through the order.
    const staff = await createMember({ scopes: ['admin'] });
    const seen = await getOrder({ type: 'staff', id: staff.id }, order.orderNo);
    expect(seen.slipCheck?.status).toBe('warning');
    // The back office's review tab filters by it and says it on the row.
    const review = (slip: string | undefined) => listOrdersForAdmin(parseAdminOrderQuery(new URLSearchParams({ tab: 'review', ...(slip ? { slip } : {}) })));
    const warnedTab = await review('warning');
    expect(warnedTab.rows.find((row) => row.orderNo === order.orderNo)?.slipCheck).toBe('warning');
    expect(warnedTab.rows.every((row) => row.slipCheck === 'warning')).toBe(true);
    expect(warnedTab.slipCounts?.warning).toBe(counts.warning);
    expect((await review('no_qr')).rows.map((row) => row.orderNo)).not.toContain(order.orderNo);
    expect((await review('bogus')).rows.map((row) => row.orderNo)).toContain(order.orderNo);
    expect(adminOrderListUrl({ tab: 'review', slip: 'no_qr' })).toBe('/admin/orders?tab=review&slip=no_qr');
    expect(adminOrderListUrl({ tab: 'all', slip: 'no_qr' })).toBe('/admin/orders');
  });

  it('lets only one of two orders have a slip uploaded to both at the same moment', async () => {
    const a = await createMember();
    const b = await createMember();
    const orderA = await unpaidOrder(a);
    const orderB = await unpaidOrder(b);
    const slip = await slipPicture(slipPayload(newSlipRef()));
    const results = await Promise.allSettled([uploadSlip(a, orderA.orderNo, slip), uploadSlip(b, orderB.orderNo, slip)]);
    const passed = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    expect(passed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toSatisfy((error: unknown) => error instanceof AppError && error.code === 'slip_reused');
    const statuses = [(await orderRow(orderA.orderNo)).status, (await orderRow(orderB.orderNo)).status].sort();
    expect(statuses).toEqual(['payment_review', 'pending_payment']);
  });

  it('after a rejected slip the same slip may come back to its own order, with a warning for staff', async () => {
    const member = await createMember();
    const staff = await createMember({ scopes: ['admin'] });
    const order = await unpaidOrder(member);
    const slip = await slipPicture(slipPayload(newSlipRef()));
    await uploadSlip(member, order.orderNo, slip);
    await changeOrderStatus({ type: 'staff', id: staff.id }, order.orderNo, { action: 'reject_slip', note: 'ยอดไม่ตรง' });
    const back = await uploadSlip(member, order.orderNo, slip);
    expect(back.status).toBe('payment_review');
    expect(back.slipCheck).toMatchObject({ status: 'warning' });
    expect(back.slipCheck?.warning).toContain('ถูกปฏิเสธ');
  });
});
