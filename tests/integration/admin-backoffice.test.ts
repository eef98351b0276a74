import { and, count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as actionRoute from '../../src/pages/admin/orders/[no]/action';
import * as noteRoute from '../../src/pages/admin/orders/[no]/note';
import * as resendRoute from '../../src/pages/admin/orders/[no]/resend-mail';
import * as bulkShipRoute from '../../src/pages/admin/orders/bulk-ship';
import * as bulkConfirmRoute from '../../src/pages/admin/orders/bulk-confirm';
import * as labelsRoute from '../../src/pages/admin/orders/labels.pdf';
import * as packingRoute from '../../src/pages/admin/orders/packing-slips.pdf';
import * as giftCardsRoute from '../../src/pages/admin/orders/gift-cards.pdf';
import * as giftCardRoute from '../../src/pages/admin/orders/[no]/gift-card.pdf';
import * as pickListRoute from '../../src/pages/admin/orders/pick-list.pdf';
import * as importApplyRoute from '../../src/pages/admin/orders/import-tracking/apply';
import * as grantRoute from '../../src/pages/admin/staff/grant';
import * as revokeRoute from '../../src/pages/admin/staff/revoke';
import * as policyRoute from '../../src/pages/admin/staff/policy';
import * as disableRoute from '../../src/pages/admin/members/[id]/disable';
import * as loginRoute from '../../src/pages/api/auth/login';
import * as statusUpdateRoute from '../../src/pages/api/order-status-update';
import { getDb } from '../../src/server/db/client';
import { addresses, auditLog, backOfficePolicy, mailOutbox, members, memberTwoFactor, orders, products, sessions } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/auth/password';
import { uploadSlip, type OrderMember } from '../../src/server/orders/order.service';
import { previewTrackingImport } from '../../src/server/orders/tracking-import.service';
import { dashboard } from '../../src/server/admin/dashboard.service';
import { listOrdersForAdmin } from '../../src/server/orders/admin-orders.service';
import { parseAdminOrderQuery } from '../../src/lib/admin-orders';
import { statusLabels } from '../../src/lib/orders';
import { TestClient, type CallOptions } from '../fixtures/api-client';
import { call, createMember, productWithStock, stockOf, type TestMember, placeTestOrder } from '../fixtures/orders';
import { pdfPages } from '../fixtures/pdf-text';
import { pdfBarcodes } from '../fixtures/pdf-barcodes';
import { latestMailTo, settleOutbox } from '../fixtures/outbox';
import { smallSlip } from '../fixtures/slips';

const PASSWORD = 'ดอกไม้บานที่เชียงใหม่';
const PNG = await smallSlip();

type RoleName = 'anonymous' | 'member' | 'editor' | 'staff' | 'owner';
const people = {} as Record<Exclude<RoleName, 'anonymous'>, TestMember>;
let shopper: TestMember;

function client(who: RoleName): TestClient {
  const c = new TestClient();
  if (who !== 'anonymous') c.bearer = people[who].token;
  return c;
}

function form(fields: Record<string, string | string[]>): CallOptions {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) for (const one of [value].flat()) params.append(key, one);
  return { rawBody: params.toString(), contentType: 'application/x-www-form-urlencoded', headers: { accept: 'application/json' } };
}

async function auditCount(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(auditLog);
  return Number(row?.n ?? 0);
}

async function statusOf(orderNo: string) {
  const db = await getDb();
  const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.orderNo, orderNo));
  return row?.status;
}

async function newOrder(buyer: TestMember, options: { recipient?: string; method?: 'promptpay' | 'cod'; delivery?: string; amount?: number } = {}) {
  const db = await getDb();
  if (options.recipient) await db.update(addresses).set({ recipientName: options.recipient }).where(eq(addresses.id, buyer.addressId));
  const product = await productWithStock(50);
  const { order } = await placeTestOrder(buyer, [{ product_code: product.code, amount: options.amount ?? 2 }], { deliveryCode: options.delivery ?? 'ems', paymentMethod: options.method ?? 'promptpay' });
  return { order, product };
}

beforeAll(async () => {
  const db = await getDb();
  people.member = await createMember();
  people.editor = await createMember({ scopes: ['editor'] });
  people.staff = await createMember({ scopes: ['staff'] });
  people.owner = await createMember({ scopes: ['owner'] });
  shopper = await createMember();
  const hash = await hashPassword(PASSWORD);
  await db.update(members).set({ passwordHash: hash }).where(sql`${members.id} in (${people.owner.id}, ${people.staff.id}, ${shopper.id})`);
});

describe('every back-office endpoint, every role', () => {
  interface Route {
    name: string;
    module: Record<string, unknown>;
    method: 'GET' | 'POST';
    path: (orderNo: string) => string;
    params?: (orderNo: string) => Record<string, string>;
    body?: (orderNo: string) => Record<string, string | string[]>;
    /** Roles that get past the guard. */
    allowed: RoleName[];
  }
  const orderRoles: RoleName[] = ['staff', 'owner'];
  const routes: Route[] = [
    { name: 'order action', module: actionRoute, method: 'POST', path: (no) => `/admin/orders/${no}/action`, params: (no) => ({ no }), body: () => ({ action: 'cancel', reason: 'ทดสอบ' }), allowed: orderRoles },
    { name: 'staff note', module: noteRoute, method: 'POST', path: (no) => `/admin/orders/${no}/note`, params: (no) => ({ no }), body: () => ({ note: 'โน้ต' }), allowed: orderRoles },
    { name: 'resend mail', module: resendRoute, method: 'POST', path: (no) => `/admin/orders/${no}/resend-mail`, params: (no) => ({ no }), allowed: orderRoles },
    { name: 'bulk ship', module: bulkShipRoute, method: 'POST', path: () => '/admin/orders/bulk-ship', body: (no) => ({ no }), allowed: orderRoles },
    { name: 'bulk confirm', module: bulkConfirmRoute, method: 'POST', path: () => '/admin/orders/bulk-confirm', body: (no) => ({ no }), allowed: orderRoles },
    { name: 'labels', module: labelsRoute, method: 'GET', path: (no) => `/admin/orders/labels.pdf?no=${no}`, allowed: orderRoles },
    { name: 'packing slips', module: packingRoute, method: 'GET', path: (no) => `/admin/orders/packing-slips.pdf?no=${no}`, allowed: orderRoles },
    { name: 'gift cards', module: giftCardsRoute, method: 'GET', path: (no) => `/admin/orders/gift-cards.pdf?no=${no}`, allowed: orderRoles },
    { name: 'gift card', module: giftCardRoute, method: 'GET', path: (no) => `/admin/orders/${no}/gift-card.pdf`, params: (no) => ({ no }), allowed: orderRoles },
    { name: 'pick list', module: pickListRoute, method: 'GET', path: (no) => `/admin/orders/pick-list.pdf?no=${no}`, allowed: orderRoles },
    { name: 'import tracking', module: importApplyRoute, method: 'POST', path: () => '/admin/orders/import-tracking/apply', body: (no) => ({ csv: `${no},EF123456789TH` }), allowed: orderRoles },
    { name: 'grant role', module: grantRoute, method: 'POST', path: () => '/admin/staff/grant', body: () => ({ email: people.member.email, role: 'owner', password: PASSWORD }), allowed: ['owner'] },
    { name: 'revoke role', module: revokeRoute, method: 'POST', path: () => '/admin/staff/revoke', body: () => ({ member_id: people.staff.id, password: PASSWORD }), allowed: ['owner'] },
    { name: '2FA policy', module: policyRoute, method: 'POST', path: () => '/admin/staff/policy', body: () => ({ require_two_factor: 'true', password: PASSWORD }), allowed: ['owner'] },
    { name: 'disable member', module: disableRoute, method: 'POST', path: () => `/admin/members/${shopper.id}/disable`, params: () => ({ id: shopper.id }), body: () => ({ disabled: 'true', reason: 'ทดสอบ' }), allowed: orderRoles },
  ];
  const refused: { role: RoleName; status: number }[] = [
    { role: 'anonymous', status: 404 },
    { role: 'member', status: 404 },
    { role: 'editor', status: 403 },
  ];

  for (const route of routes) {
    for (const role of ['anonymous', 'member', 'editor', 'staff', 'owner'] as RoleName[]) {
      if (route.allowed.includes(role)) continue;
      const expected = refused.find((entry) => entry.role === role)?.status ?? 403;
      it(`${route.name}: ${role} gets ${expected} and nothing changes`, async () => {
        const { order } = await newOrder(shopper);
        const before = await auditCount();
        const options: CallOptions = route.body ? form(route.body(order.orderNo)) : { headers: { accept: 'application/json' } };
        if (route.params) options.params = route.params(order.orderNo);
        const response = await client(role).call(route.module as never, route.method, route.path(order.orderNo), options);
        expect(response.status, JSON.stringify(response.body)).toBe(expected);
        expect(response.headers.get('content-type') ?? '').not.toContain('pdf');
        expect(await auditCount()).toBe(before);
        expect(await statusOf(order.orderNo)).toBe('pending_payment');
        const db = await getDb();
        const [still] = await db.select({ scopes: members.scopes }).from(members).where(eq(members.id, people.staff.id));
        expect(still?.scopes).toContain('staff');
        const [enabled] = await db.select({ n: count() }).from(sessions).where(eq(sessions.memberId, shopper.id));
        expect(Number(enabled?.n)).toBeGreaterThan(0);
      });
    }
  }

  it('the shop API refuses a member other moves than cancelling their own order, and a stranger any', async () => {
    const { order } = await newOrder(shopper);
    const stranger = client('member');
    const moved = await stranger.call(statusUpdateRoute, 'POST', '/api/order-status-update', { body: { no: order.orderNo, action: 'confirm_payment' } });
    expect(moved.status).toBe(404);
    const editor = await client('editor').call(statusUpdateRoute, 'POST', '/api/order-status-update', { body: { no: order.orderNo, action: 'confirm_payment' } });
    expect(editor.status).toBe(404);
    expect(await statusOf(order.orderNo)).toBe('pending_payment');
  });
});

describe('orders in the back office', () => {
  it('confirms a slip, refuses a stale second click with a Thai message, ships with a checked tracking number, and audits each change', async () => {
    const { order } = await newOrder(shopper);
    await uploadSlip(shopper as OrderMember, order.orderNo, PNG);
    const staff = client('staff');
    const params = { no: order.orderNo };
    const confirm = await staff.call(actionRoute, 'POST', `/admin/orders/${order.orderNo}/action`, {
      ...form({ action: 'confirm_payment', expected_status: 'payment_review' }),
      params,
    });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    expect(await statusOf(order.orderNo)).toBe('paid');

    // A second staff member still looking at the old page.
    const again = await client('owner').call(actionRoute, 'POST', `/admin/orders/${order.orderNo}/action`, {
      ...form({ action: 'confirm_payment', expected_status: 'payment_review' }),
      params,
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('status_changed');
    expect(again.body.message).toContain(statusLabels.paid);

    const badTracking = await staff.call(actionRoute, 'POST', `/admin/orders/${order.orderNo}/action`, {
      ...form({ action: 'ship', expected_status: 'paid', carrier: 'ไปรษณีย์ไทย EMS', tracking_no: '12345' }),
      params,
    });
    expect(badTracking.status).toBe(400);
    expect(badTracking.body.message).toMatch(/เลขพัสดุ/);
    expect(await statusOf(order.orderNo)).toBe('paid');

    const shipped = await staff.call(actionRoute, 'POST', `/admin/orders/${order.orderNo}/action`, {
      ...form({ action: 'ship', expected_status: 'paid', carrier: 'ไปรษณีย์ไทย EMS', tracking_no: 'ef123456789th' }),
      params,
    });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
    expect((shipped.body.data as { tracking_no: string }).tracking_no).toBe('EF123456789TH');

    const db = await getDb();
    const trail = await db.select().from(auditLog).where(eq(auditLog.entityId, order.orderNo)).orderBy(auditLog.id);
    expect(trail.map((row) => row.action)).toEqual(['order.confirm_payment', 'order.ship']);
    expect(trail[0]).toMatchObject({ actorId: people.staff.id, actorRole: 'staff', via: 'api', before: { status: 'payment_review' }, after: { status: 'paid' } });
    expect(trail[1]).toMatchObject({ before: { status: 'paid', trackingNo: null }, after: { status: 'shipped', trackingNo: 'EF123456789TH' } });
  });

  it('a plain form post answers 303 back to the order with a one-time message', async () => {
    const { order } = await newOrder(shopper);
    const staff = client('staff');
    const response = await staff.call(actionRoute, 'POST', `/admin/orders/${order.orderNo}/action`, {
      rawBody: new URLSearchParams({ action: 'reject_slip', expected_status: 'pending_payment', reason: 'ยอดไม่ตรง' }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      params: { no: order.orderNo },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin/orders/${order.orderNo}`);
    const flash = response.cookies.get('admin_flash');
    expect(flash).toBeDefined();
    expect(JSON.parse(Buffer.from(flash!.value, 'base64url').toString('utf8')).text).toMatch(/ไม่สามารถปฏิเสธสลิป/);
  });

  it('a rejected slip sends the order back to the member with the reason in its timeline', async () => {
    const { order } = await newOrder(shopper);
    await uploadSlip(shopper as OrderMember, order.orderNo, PNG);
    const rejected = await client('staff').call(actionRoute, 'POST', `/admin/orders/${order.orderNo}/action`, {
      ...form({ action: 'reject_slip', expected_status: 'payment_review', reason: 'ยอดเงินในสลิปไม่ตรงกับคำสั่งซื้อ' }),
      params: { no: order.orderNo },
    });
    expect(rejected.status).toBe(200);
    const noReason = await client('staff').call(actionRoute, 'POST', `/admin/orders/${order.orderNo}/action`, {
      ...form({ action: 'cancel', expected_status: 'pending_payment' }),
      params: { no: order.orderNo },
    });
    expect(noReason.status).toBe(400);
    const { getOrder } = await import('../../src/server/orders/order.service');
    const seen = await getOrder({ type: 'member', id: shopper.id }, order.orderNo);
    expect(seen.status).toBe('pending_payment');
    expect(seen.hasSlip).toBe(false);
    expect(seen.events.at(-1)).toMatchObject({ toStatus: 'pending_payment', note: 'ยอดเงินในสลิปไม่ตรงกับคำสั่งซื้อ' });
  });

  it('two staff confirming and cancelling one order at the same moment leave one consistent result', async () => {
    for (let round = 0; round < 3; round++) {
      const { order, product } = await newOrder(shopper, { amount: 3 });
      const stockAfterOrder = await stockOf(product.code);
      const params = { no: order.orderNo };
      const [confirm, cancel] = await Promise.all([
        client('staff').call(actionRoute, 'POST', `/admin/orders/${order.orderNo}/action`, { ...form({ action: 'confirm_payment', expected_status: 'pending_payment' }), params }),
        client('owner').call(actionRoute, 'POST', `/admin/orders/${order.orderNo}/action`, { ...form({ action: 'cancel', expected_status: 'pending_payment', reason: 'ลูกค้าขอยกเลิก' }), params }),
      ]);
      const statuses = [confirm.status, cancel.status].sort();
      expect(statuses).toEqual([200, 409]);
      const final = await statusOf(order.orderNo);
      const db = await getDb();
      const trail = await db.select().from(auditLog).where(eq(auditLog.entityId, order.orderNo));
      expect(trail).toHaveLength(1);
      if (confirm.status === 200) {
        expect(final).toBe('paid');
        expect(await stockOf(product.code)).toBe(stockAfterOrder);
        expect(trail[0]!.action).toBe('order.confirm_payment');
      } else {
        expect(final).toBe('cancelled');
        expect(await stockOf(product.code)).toBe(stockAfterOrder + 3);
        expect(trail[0]!.action).toBe('order.cancel');
      }
    }
  });

  it('prints labels for two orders as one PDF with both receivers and order numbers', async () => {
    const first = await newOrder(shopper, { recipient: 'นางสาวน้ำผึ้ง ใจดี' });
    const second = await newOrder(shopper, { recipient: 'นายสมศักดิ์ รักไทย', method: 'cod' });
    const { response } = await call(labelsRoute.GET, {
      method: 'GET',
      path: `/admin/orders/labels.pdf?no=${first.order.orderNo}&no=${second.order.orderNo}`,
      token: people.staff.token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const text = (await pdfPages(new Uint8Array(await response.arrayBuffer()))).join('\n');
    for (const expected of ['นางสาวน้ำผึ้ง ใจดี', first.order.orderNo, 'นายสมศักดิ์ รักไทย', second.order.orderNo]) expect(text).toContain(expected);
  });

  it('labels and packing slips read back with pdf.js', async () => {
    const { shippingLabelsPdf } = await import('../../src/server/documents/order-documents');
    const { packingSlipsPdf } = await import('../../src/server/documents/packing-documents');
    const { ordersForDocuments } = await import('../../src/server/orders/admin-orders.service');
    const { getCompany } = await import('../../src/server/company/company.service');
    const first = await newOrder(shopper, { recipient: 'นางสาวน้ำผึ้ง ใจดี' });
    const second = await newOrder(shopper, { recipient: 'นายสมศักดิ์ รักไทย', method: 'cod' });
    const views = await ordersForDocuments([first.order.orderNo, second.order.orderNo]);
    const labels = await pdfPages(await shippingLabelsPdf(views, await getCompany()));
    expect(labels).toHaveLength(2);
    expect(labels[0]).toContain('นางสาวน้ำผึ้ง ใจดี');
    expect(labels[0]).toContain(first.order.orderNo);
    expect(labels[1]).toContain('นายสมศักดิ์ รักไทย');
    expect(labels[1]).toContain(second.order.orderNo);
    expect(labels[1]).toContain('เก็บเงินปลายทาง');
    // Two small orders share one A4 page, each with its lines, its total and its receiver.
    const slips = await pdfPages(await packingSlipsPdf(views, await getCompany()));
    expect(slips).toHaveLength(1);
    for (const view of views) {
      expect(slips[0]).toContain(view.orderNo);
      expect(slips[0]).toContain(view.lines[0]!.productCode);
    }
    expect(slips[0]!.match(/รวม 1 รายการ 2 ชิ้น/g)).toHaveLength(2);
    expect(slips[0]).toContain('นางสาวน้ำผึ้ง ใจดี');
    expect(slips[0]).toContain('เก็บเงินปลายทาง');
    await expect(ordersForDocuments(['YL00000000000'])).rejects.toMatchObject({ status: 404 });
  });

  it('packing slips: as many small orders on a page as fit, a long order goes on over the next page', async () => {
    const { packingSlipsPdf } = await import('../../src/server/documents/packing-documents');
    const { ordersForDocuments } = await import('../../src/server/orders/admin-orders.service');
    const { getCompany } = await import('../../src/server/company/company.service');
    const small = [];
    for (let n = 0; n < 6; n++) small.push((await newOrder(shopper)).order.orderNo);
    const views = await ordersForDocuments(small);
    const pages = await pdfPages(await packingSlipsPdf(views, await getCompany()));
    // Six one-line orders take two pages (at most four on one), never six; each order is on exactly one page.
    expect(pages.length).toBeLessThanOrEqual(2);
    for (const no of small) expect(pages.filter((page) => page.includes(no))).toHaveLength(1);
    expect(pages[0]!.split('ใบรายการสินค้า (Packing slip)').length - 1).toBeGreaterThanOrEqual(3);

    // An order of 60 lines is longer than a page: it goes on, its number repeated on the next page.
    const long = views[0]!;
    const lines = Array.from({ length: 60 }, (_, n) => ({ ...long.lines[0]!, productCode: `LONG-${String(n).padStart(2, '0')}`, amount: 1 }));
    const longPages = await pdfPages(await packingSlipsPdf([{ ...long, lines }, views[1]!], await getCompany()));
    expect(longPages.length).toBeGreaterThanOrEqual(2);
    expect(longPages[1]).toContain(`ใบรายการสินค้า (ต่อ) ${long.orderNo}`);
    const all = longPages.join('\n');
    for (const line of lines) expect(all).toContain(line.productCode);
    expect(all).toContain('รวม 60 รายการ 60 ชิ้น');
  });

  it('the pick list sums the lines of the selected orders by product, and says which order takes how many', async () => {
    const db = await getDb();
    const shared = await productWithStock(50);
    const other = await productWithStock(50);
    const first = await placeTestOrder(shopper, [{ product_code: shared.code, amount: 2 }, { product_code: other.code, amount: 1 }], { deliveryCode: 'ems', paymentMethod: 'promptpay' });
    const second = await placeTestOrder(shopper, [{ product_code: shared.code, amount: 3 }], { deliveryCode: 'ems', paymentMethod: 'cod' });
    const [sharedRow] = await db.select({ name: products.name }).from(products).where(eq(products.code, shared.code));
    const a = first.order.orderNo;
    const b = second.order.orderNo;
    const { response } = await call(pickListRoute.GET, { method: 'GET', path: `/admin/orders/pick-list.pdf?no=${a}&no=${b}`, token: people.staff.token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="pick-list-2.pdf"');
    const [page] = await pdfPages(new Uint8Array(await response.arrayBuffer()));
    expect(page).toContain('ใบหยิบสินค้า (Pick list)');
    expect(page).toContain(sharedRow!.name);
    expect(page).toMatch(new RegExp(`${shared.code}.*\\b5\\b.*${a} \\(2\\),\\s*${b}\\s*\\(3\\)`, 's'));
    expect(page).toMatch(new RegExp(`${other.code}.*\\b1\\b.*${a} \\(1\\)`, 's'));
    expect(page).toContain('รวม 2 รายการ 6 ชิ้น จาก 2 คำสั่งซื้อ');

    // Bad input: no order, an unknown one, a malformed one: a Thai message and 4xx, never a PDF.
    for (const [query, status, code] of [
      ['', 400, 'no_orders'],
      ['?no=YL00000000000', 404, 'order_not_found'],
      ['?no=%3Cscript%3E', 400, 'order_no_invalid'],
    ] as const) {
      const refused = await call(pickListRoute.GET, { method: 'GET', path: `/admin/orders/pick-list.pdf${query}`, token: people.staff.token, headers: { accept: 'application/json' } });
      expect(refused.status, query).toBe(status);
      expect(refused.body.code).toBe(code);
      expect(refused.response.headers.get('content-type') ?? '').not.toContain('pdf');
    }
  });

  it('a label carries the tracking number as the large barcode under the carrier, the order number as the small one', async () => {
    const { shippingLabelsPdf } = await import('../../src/server/documents/order-documents');
    const { ordersForDocuments } = await import('../../src/server/orders/admin-orders.service');
    const { getCompany } = await import('../../src/server/company/company.service');
    const placed = await newOrder(shopper, { recipient: 'นางสาวน้ำผึ้ง ใจดี' });
    const [view] = await ordersForDocuments([placed.order.orderNo]);
    const shipped = { ...view!, carrier: 'ไปรษณีย์ไทย EMS', trackingNo: 'EF123456789TH' };
    const bytes = await shippingLabelsPdf([view!, shipped], await getCompany());
    // Read back as a scanner would: the barcodes in drawing order, the larger first on a shipped label.
    expect(await pdfBarcodes(bytes)).toEqual([[placed.order.orderNo], ['EF123456789TH', placed.order.orderNo]]);
    const [unshippedText, shippedText] = await pdfPages(bytes);
    expect(shippedText).toContain('ไปรษณีย์ไทย EMS');
    expect(shippedText).toContain('EF123456789TH');
    expect(shippedText).toContain(placed.order.orderNo);
    expect(unshippedText).not.toContain('EF123456789TH');
  });

  it('imports tracking numbers after a preview that says why each refused row is refused', async () => {
    const ready = await newOrder(shopper);
    const unpaid = await newOrder(shopper);
    const staff = client('staff');
    await staff.call(actionRoute, 'POST', '/x', { ...form({ action: 'confirm_payment' }), params: { no: ready.order.orderNo } });
    const csv = [
      'order_no,tracking_no,carrier',
      `${ready.order.orderNo},EF111111111TH,ไปรษณีย์ไทย`,
      `${unpaid.order.orderNo},EF222222222TH,ไปรษณีย์ไทย`,
      'YL99999999999,EF333333333TH,',
      `${ready.order.orderNo},EF444444444TH,`,
      `"broken,ok`,
    ].join('\n');
    await expect(previewTrackingImport(csv)).rejects.toMatchObject({ status: 400, code: 'csv_invalid' });
    const good = csv.split('\n').slice(0, 5).join('\n') + '\n,EF5\n';
    const preview = await previewTrackingImport(good);
    expect(preview.map((row) => row.problem === null)).toEqual([true, false, false, false, false]);
    expect(preview[1]!.problem).toContain('รอชำระเงิน');
    expect(preview[2]!.problem).toBe('ไม่พบคำสั่งซื้อนี้');
    expect(preview[3]!.problem).toContain('ซ้ำ');
    expect(preview[4]!.problem).toBe('ไม่มีเลขที่คำสั่งซื้อ');
    const applied = await staff.call(importApplyRoute, 'POST', '/admin/orders/import-tracking/apply', form({ csv: good }));
    expect(applied.status).toBe(200);
    expect((applied.body.data as { shipped: string[] }).shipped).toEqual([ready.order.orderNo]);
    expect(await statusOf(ready.order.orderNo)).toBe('shipped');
    expect(await statusOf(unpaid.order.orderNo)).toBe('pending_payment');
  });

  it('lists orders by tab with counts, search by name or phone, and dates', async () => {
    const { order } = await newOrder(shopper, { recipient: 'คุณค้นหา เจอแน่' });
    const byName = await listOrdersForAdmin(parseAdminOrderQuery(new URLSearchParams({ q: 'ค้นหา เจอ' })));
    expect(byName.rows.map((row) => row.orderNo)).toContain(order.orderNo);
    const byNo = await listOrdersForAdmin(parseAdminOrderQuery(new URLSearchParams({ q: order.orderNo.toLowerCase(), tab: 'to-pay' })));
    expect(byNo.rows.map((row) => row.orderNo)).toEqual([order.orderNo]);
    expect(byNo.counts['to-pay']).toBe(1);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const future = await listOrdersForAdmin(parseAdminOrderQuery(new URLSearchParams({ from: tomorrow })));
    expect(future.total).toBe(0);
    const junk = parseAdminOrderQuery(new URLSearchParams({ page: '-4', from: 'yesterday', tab: 'nope' }));
    expect(junk).toMatchObject({ page: 1, from: undefined, tab: 'all' });
  });

  it('the dashboard counts paid sales and orders waiting', async () => {
    const before = await dashboard();
    const { order } = await newOrder(shopper, { method: 'cod' });
    const after = await dashboard();
    expect(after.waiting.toShip).toBe(before.waiting.toShip + 1);
    expect(after.sales.today).toBe(before.sales.today + order.totalSatang);
    expect(after.days).toHaveLength(30);
    expect(after.bestSellers.length).toBeGreaterThan(0);
  });
});

describe('more order tools', () => {
  it('bulk ship takes orders that need no tracking number and says why the others were refused', async () => {
    const pickup = await newOrder(shopper, { method: 'cod', delivery: 'pickup' });
    const ems = await newOrder(shopper, { method: 'cod' });
    const unpaid = await newOrder(shopper);
    const response = await client('staff').call(bulkShipRoute, 'POST', '/admin/orders/bulk-ship', form({ no: [pickup.order.orderNo, ems.order.orderNo, unpaid.order.orderNo] }));
    expect(response.status).toBe(200);
    const data = response.body.data as { done: string[]; refused: { orderNo: string; reason: string }[] };
    expect(data.done).toEqual([pickup.order.orderNo]);
    expect(data.refused.map((entry) => entry.orderNo)).toEqual([ems.order.orderNo, unpaid.order.orderNo]);
    expect(data.refused[0]!.reason).toContain('เลขพัสดุ');
    expect(data.refused[1]!.reason).toContain('รอชำระเงิน');
    expect(await statusOf(pickup.order.orderNo)).toBe('shipped');
    expect(await statusOf(ems.order.orderNo)).toBe('paid');
  });

  it('a staff note is kept with the order and audited; a resent mail reaches the member', async () => {
    const { order } = await newOrder(shopper, { method: 'cod' });
    const staff = client('staff');
    const empty = await staff.call(noteRoute, 'POST', '/x', { ...form({ note: '   ' }), params: { no: order.orderNo } });
    expect(empty.status).toBe(400);
    const noted = await staff.call(noteRoute, 'POST', '/x', { ...form({ note: 'ลูกค้าโทรมาขอส่งช่วงบ่าย' }), params: { no: order.orderNo } });
    expect(noted.status).toBe(200);
    const { adminOrderDetail } = await import('../../src/server/orders/admin-orders.service');
    const detail = await adminOrderDetail(order.orderNo);
    expect(detail.notes).toMatchObject([{ note: 'ลูกค้าโทรมาขอส่งช่วงบ่าย', authorEmail: people.staff.email }]);
    expect(detail.actions).toEqual(['ship', 'cancel']);
    const member = await (await import('../../src/server/orders/order.service')).getOrder({ type: 'member', id: shopper.id }, order.orderNo);
    expect(JSON.stringify(member)).not.toContain('ช่วงบ่าย');

    const resent = await staff.call(resendRoute, 'POST', '/x', { ...form({}), params: { no: order.orderNo } });
    expect(resent.status).toBe(200);
    expect(resent.body.data).toEqual({ mail: 'placed' });
    await settleOutbox();
    // The order's first mail and the one sent again: two rows of the outbox, both sent.
    const placedMails = await (await getDb())
      .select({ status: mailOutbox.status })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'order_placed'), sql`${mailOutbox.payload}->>'orderNo' = ${order.orderNo}`));
    expect(placedMails.map((row) => row.status)).toEqual(['sent', 'sent']);
    const mail = latestMailTo(process.env.DATA_DIR!, shopper.email, order.orderNo);
    expect(mail?.text).toContain(order.orderNo);
    expect(mail?.text).toContain('เก็บเงินเมื่อสินค้าถึงมือคุณ');
    const db = await getDb();
    const trail = await db.select().from(auditLog).where(eq(auditLog.entityId, order.orderNo));
    expect(trail.map((row) => row.action).sort()).toEqual(['order.note', 'order.resend_mail']);
  });

  it('the audit list filters by action, actor, entity and pages on the server', async () => {
    const { listAudit, auditQuerySchema } = await import('../../src/server/audit/audit.repo');
    const db = await getDb();
    const byAction = await listAudit(db, auditQuerySchema.parse({ action: 'order.' }));
    expect(byAction.total).toBeGreaterThan(0);
    expect(byAction.rows.every((row) => row.action.startsWith('order.'))).toBe(true);
    const byActor = await listAudit(db, auditQuerySchema.parse({ actor: people.owner.email }));
    expect(byActor.rows.every((row) => row.actorEmail === people.owner.email)).toBe(true);
    const junk = auditQuerySchema.parse({ page: 'x', from: '2026-13-45x', via: 'mail' });
    expect(junk).toMatchObject({ page: 1, from: undefined, via: undefined });
    const members = await (await import('../../src/server/admin/members-admin.service')).listMembers({ q: shopper.email.slice(0, 12), page: 1 });
    expect(members.rows.map((row) => row.id)).toContain(shopper.id);
  });
});

describe('staff roles', () => {
  it('an owner grants a role only with the right password; a staff member cannot; the last owner stays', async () => {
    const target = await createMember();
    const owner = client('owner');
    const wrong = await owner.call(grantRoute, 'POST', '/admin/staff/grant', form({ email: target.email, role: 'staff', password: 'ผิด' }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('wrong_password');
    const byStaff = await client('staff').call(grantRoute, 'POST', '/admin/staff/grant', form({ email: target.email, role: 'owner', password: PASSWORD }));
    expect(byStaff.status).toBe(403);
    const granted = await owner.call(grantRoute, 'POST', '/admin/staff/grant', form({ email: target.email.toUpperCase(), role: 'staff', password: PASSWORD }));
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    const db = await getDb();
    const [row] = await db.select({ scopes: members.scopes }).from(members).where(eq(members.id, target.id));
    expect(row?.scopes).toEqual(['staff']);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.entityId, target.id));
    expect(audit).toMatchObject({ action: 'staff.grant', actorId: people.owner.id, before: { role: null }, after: { role: 'staff' } });

    const lastOwner = await owner.call(revokeRoute, 'POST', '/admin/staff/revoke', form({ member_id: people.owner.id, password: PASSWORD }));
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.code).toBe('last_owner');
    const demote = await owner.call(grantRoute, 'POST', '/admin/staff/grant', form({ email: people.owner.email, role: 'staff', password: PASSWORD }));
    expect(demote.status).toBe(409);

    const revoked = await owner.call(revokeRoute, 'POST', '/admin/staff/revoke', form({ member_id: target.id, password: PASSWORD }));
    expect(revoked.status).toBe(200);
    const junk = await owner.call(revokeRoute, 'POST', '/admin/staff/revoke', form({ member_id: 'not-a-uuid', password: PASSWORD }));
    expect(junk.status).toBe(404);
  });

  it('a disabled member cannot log in and loses their sessions; it is in the audit trail', async () => {
    const victim = await createMember();
    const db = await getDb();
    await db.update(members).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(members.id, victim.id));
    const staff = client('staff');
    const disabled = await staff.call(disableRoute, 'POST', `/admin/members/${victim.id}/disable`, { ...form({ disabled: 'true', reason: 'สั่งซื้อแล้วไม่รับของ' }), params: { id: victim.id } });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    const [left] = await db.select({ n: count() }).from(sessions).where(eq(sessions.memberId, victim.id));
    expect(Number(left?.n)).toBe(0);
    const login = await new TestClient('203.0.113.77').call(loginRoute, 'POST', '/api/auth/login', { body: { login: victim.email, password: PASSWORD } });
    expect(login.status).toBe(403);
    expect(login.body.code).toBe('account_disabled');
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.entityId, victim.id));
    expect(audit).toMatchObject({ action: 'member.disable', before: { disabled: false }, after: { disabled: true }, note: 'สั่งซื้อแล้วไม่รับของ' });
    const ownerDisable = await staff.call(disableRoute, 'POST', `/admin/members/${people.owner.id}/disable`, { ...form({ disabled: 'true', reason: 'x' }), params: { id: people.owner.id } });
    expect(ownerDisable.status).toBe(403);
    const enabled = await staff.call(disableRoute, 'POST', `/admin/members/${victim.id}/disable`, { ...form({ disabled: 'false' }), params: { id: victim.id } });
    expect(enabled.status).toBe(200);
    const again = await new TestClient('203.0.113.78').call(loginRoute, 'POST', '/api/auth/login', { body: { login: victim.email, password: PASSWORD } });
    expect(again.status).toBe(200);
  });
});

describe('staff sign-in', () => {
  it('a staff session ends after 8 hours idle; a member session does not', async () => {
    const { resolveSession, STAFF_IDLE_MS } = await import('../../src/server/auth/session.service');
    const staffer = await createMember({ scopes: ['staff'] });
    const plain = await createMember();
    const db = await getDb();
    const longAgo = new Date(Date.now() - STAFF_IDLE_MS - 60_000);
    await db.update(sessions).set({ lastSeenAt: longAgo }).where(sql`${sessions.memberId} in (${staffer.id}, ${plain.id})`);
    expect(await resolveSession(staffer.token)).toBeNull();
    expect((await resolveSession(plain.token))?.member.id).toBe(plain.id);
    const recent = await createMember({ scopes: ['owner'] });
    await db.update(sessions).set({ lastSeenAt: new Date(Date.now() - STAFF_IDLE_MS + 60_000) }).where(eq(sessions.memberId, recent.id));
    expect((await resolveSession(recent.token))?.member.id).toBe(recent.id);
  });

  it('TOTP: set up with a code from the app, then login needs the second step; codes and recovery codes work once', async () => {
    const { Secret, TOTP } = await import('otpauth');
    const two = await import('../../src/server/auth/two-factor.service');
    const { resolveSession } = await import('../../src/server/auth/session.service');
    const staffer = await createMember({ scopes: ['staff'] });
    const db = await getDb();
    await db.update(members).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(members.id, staffer.id));
    const actor = { id: staffer.id, email: staffer.email, role: 'staff', via: 'web' as const };
    const setup = await two.beginTwoFactorSetup(staffer);
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.qr).toContain('<svg');
    const now = Date.now();
    const code = (at: number) => TOTP.generate({ secret: Secret.fromBase32(setup.secret), timestamp: at });
    await expect(two.enableTwoFactor(actor, staffer.id, '000000', now)).rejects.toMatchObject({ status: 400 });
    const recovery = await two.enableTwoFactor(actor, staffer.id, code(now), now);
    expect(recovery).toHaveLength(10);
    const [stored] = await db.select().from(memberTwoFactor).where(eq(memberTwoFactor.memberId, staffer.id));
    expect(stored?.recoveryCodeHashes).toHaveLength(10);
    for (const hash of stored!.recoveryCodeHashes) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.recoveryCodeHashes.join(',')).not.toContain(recovery[0]!.replace('-', ''));

    const login = await new TestClient('203.0.113.90').call(loginRoute, 'POST', '/api/auth/login', { body: { login: staffer.email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body.data).toEqual({ user: null, two_factor_required: true });
    const token = login.cookies.get('shop_session')!.value;
    expect(await resolveSession(token)).toBeNull();
    // The code used at setup cannot be replayed (and the refusal says it was used); the next one can.
    await expect(two.completeSecondStep(token, code(now))).rejects.toMatchObject({ status: 400, code: 'code_used' });
    await two.completeSecondStep(token, code(now + 30_000));
    expect((await resolveSession(token))?.member.id).toBe(staffer.id);

    const second = await new TestClient('203.0.113.91').call(loginRoute, 'POST', '/api/auth/login', { body: { login: staffer.email, password: PASSWORD } });
    const token2 = second.cookies.get('shop_session')!.value;
    expect((await two.completeSecondStep(token2, recovery[0]!)).used).toBe('recovery');
    const third = await new TestClient('203.0.113.92').call(loginRoute, 'POST', '/api/auth/login', { body: { login: staffer.email, password: PASSWORD } });
    const token3 = third.cookies.get('shop_session')!.value;
    for (let attempt = 1; attempt < two.MAX_SECOND_STEP_ATTEMPTS; attempt++) {
      await expect(two.completeSecondStep(token3, recovery[0]!)).rejects.toMatchObject({ code: 'code_invalid' });
    }
    await expect(two.completeSecondStep(token3, recovery[1]!)).resolves.toMatchObject({ used: 'recovery' });
    const trail = await db.select().from(auditLog).where(eq(auditLog.entityId, staffer.id));
    expect(trail.map((row) => row.action)).toContain('staff.two_factor_enable');
  });

  it('when the owner requires two-step sign-in, staff without it are refused until they set it up', async () => {
    const owner = client('owner');
    const on = await owner.call(policyRoute, 'POST', '/admin/staff/policy', form({ require_two_factor: 'true', password: PASSWORD }));
    expect(on.status).toBe(200);
    try {
      const { order } = await newOrder(shopper);
      const refused = await client('staff').call(noteRoute, 'POST', `/admin/orders/${order.orderNo}/note`, { ...form({ note: 'x' }), params: { no: order.orderNo } });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('two_factor_required');
    } finally {
      // The owner has no TOTP either: the policy endpoint is refused too, so it is switched off in the database.
      const db = await getDb();
      await db.update(backOfficePolicy).set({ requireTwoFactor: false });
    }
  });
});
