import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { auditLog, orderLines, orders } from '../../src/server/db/schema';
import { getCompany } from '../../src/server/company/company.service';
import { changeOrderStatus, checkoutOptions } from '../../src/server/orders/order.service';
import { orderDocumentPdf } from '../../src/server/documents/receipt.service';
import { packingSlipsPdf } from '../../src/server/documents/packing-documents';
import { giftCardsPdf } from '../../src/server/documents/gift-card.pdf';
import { ordersForDocuments } from '../../src/server/orders/admin-orders.service';
import { includedVat } from '../../src/lib/money';
import { graphemeCount, containsLink } from '../../src/lib/gift-wrap';
import * as settingsRoute from '../../src/pages/admin/settings/[section]';
import * as ordersRoute from '../../src/pages/api/orders';
import * as quoteRoute from '../../src/pages/api/order-quote';
import * as cardRoute from '../../src/pages/admin/orders/[no]/gift-card.pdf';
import * as cardsRoute from '../../src/pages/admin/orders/gift-cards.pdf';
import { TestClient } from '../fixtures/api-client';
import { storage } from '../../src/server/storage/storage';
import { adminCallers, expectRoleMatrix, flashOf, form, formData, type AdminCallers } from '../fixtures/admin';
import { hugePng } from '../fixtures/slips';
import { createMember, newKey, productWithStock, type TestMember } from '../fixtures/orders';
import { pdfPages } from '../fixtures/pdf-text';

/**
 * Gift wrapping and the message card (issue 31 part 6, decision 221): the owner's settings, the price in
 * the quote and the order (per line, once per line; the card once), in the total and its VAT; the
 * message's limits (graphemes, no links); refusals in Thai; the wrappings' pictures (real uploads through
 * sharp into the storage); and what the receipt, the packing slip and the card PDF say, read back with
 * pdf.js and poppler (the card's emoji face, decision 228). Runs on PGlite and, with TEST_DATABASE_URL,
 * on PostgreSQL.
 */

let callers: AdminCallers;
let buyer: TestMember;
const squash = (text: string) => text.replace(/\s+/g, '');

function as(member: TestMember): TestClient {
  const client = new TestClient();
  client.bearer = member.token;
  return client;
}

const demoGift = {
  wrapCode: ['kraft', 'giftbox', 'cloth'],
  wrapName: ['ห่อกระดาษคราฟต์', 'กล่องของขวัญ', 'ถุงผ้าลายดอก'],
  wrapPrice: ['30', '79', '45'],
  wrapActive: ['1', '1', '0'],
};
const giftForm = (overrides: Record<string, string | string[]> = {}) => ({ ...form({ ...demoGift, giftCardPrice: '15', ...overrides }), params: { section: 'gift' } });
/** The form as a browser sends it: multipart, one file part per row (empty when nothing was chosen). */
const giftUpload = (files: (File | null)[], overrides: Record<string, string | string[]> = {}) => {
  const data = formData({ ...demoGift, giftCardPrice: '15', ...overrides });
  for (const file of files) data.append('wrapPicture', file ?? new File([], '', { type: 'application/octet-stream' }));
  return { form: data, params: { section: 'gift' } };
};
const STORED_WRAPPING = /^\/media\/wrappings\/[a-f0-9]{24}-\d+\.webp$/;

type OrderJson = {
  order_no: string;
  total_price: number;
  vat_price: number;
  shipping_price: number;
  subtotal_price: number;
  lines: { product_code: string; gift_wrap: { code: string; name: string; price: number } | null }[];
  gift: { wrap: { code: string; name: string; price: number } | null; wrap_price: number; message: string; card_price: number; hide_prices: boolean };
};

async function place(member: TestMember, body: Record<string, unknown>) {
  return as(member).call<{ data: OrderJson; message: string; code: string }>(ordersRoute, 'POST', '/api/orders', {
    body: { delivery_code: 'kerry', payment_method: 'promptpay', address_id: member.addressId, ...body },
    headers: { 'Idempotency-Key': newKey() },
  });
}

beforeAll(async () => {
  callers = await adminCallers();
  buyer = await createMember();
  // The card costs 15 baht in this file (the demo gives it free).
  const saved = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftForm());
  expect(flashOf(saved)?.kind).toBe('success');
});

afterAll(async () => {
  await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftForm({ giftCardPrice: '0' }));
});

describe('gift wrapping settings', () => {
  it('the owner alone keeps them; a new row gets a code of its own; audited with before and after; bad input in Thai', async () => {
    const results = await expectRoleMatrix(
      callers,
      settingsRoute,
      'POST',
      '/admin/settings/gift',
      () => giftForm({ wrapCode: [...demoGift.wrapCode, ''], wrapName: [...demoGift.wrapName, 'ริบบิ้นผ้าไหม'], wrapPrice: [...demoGift.wrapPrice, '25.50'], wrapActive: [...demoGift.wrapActive, '1'] }),
      ['owner'],
    );
    expect(results.owner.status).toBe(303);
    expect(results.owner.headers.get('location')).toBe('/admin/settings#gift');
    const company = await getCompany();
    expect(company.giftWrapOptions).toContainEqual({ code: 'wrap-1', name: 'ริบบิ้นผ้าไหม', priceSatang: 2550, active: true });
    expect(company.giftWrapOptions.find((option) => option.code === 'kraft')).toMatchObject({ code: 'kraft', name: 'ห่อกระดาษคราฟต์', priceSatang: 3000, active: true });
    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'settings.update_gift')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit?.actorRole).toBe('owner');
    expect(JSON.stringify(audit?.after)).toContain('ริบบิ้นผ้าไหม');

    const bad = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftForm({ wrapPrice: ['-5', '79', '45'] }));
    expect(flashOf(bad)).toMatchObject({ kind: 'danger' });
    expect(flashOf(bad)!.text).toContain('ราคาห่อของขวัญต้องไม่ติดลบ');
    // Back to the file's settings: the ribbon row left out is removed.
    await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftForm());
    expect((await getCompany()).giftWrapOptions.map((option) => option.code)).toEqual(['kraft', 'giftbox', 'cloth']);
  });
});

describe('wrapping pictures', () => {
  const png = async (background: string) =>
    new File([new Uint8Array(await sharp({ create: { width: 900, height: 700, channels: 3, background } }).withExif({ IFD0: { Artist: 'ผู้ถ่ายภาพ' } }).jpeg().toBuffer())], 'wrap.jpg', { type: 'image/jpeg' });
  const optionsNow = async () => (await getCompany()).giftWrapOptions;
  const quoteKraft = async (productCode: string) =>
    (await as(buyer).call<{ data: OrderJson }>(quoteRoute, 'POST', '/api/order-quote', { body: { lines: [{ product_code: productCode, amount: 2 }], delivery_code: 'kerry', gift: { wrap_code: 'kraft' } } })).body.data;

  it('the owner alone uploads one per wrapping (a new row too): cleaned into WebP in the storage, shown at checkout, audited; the quote unchanged', async () => {
    const product = await productWithStock(20);
    const before = await quoteKraft(product.code);
    const kraftPicture = await png('#c8a165');
    const results = await expectRoleMatrix(
      callers,
      settingsRoute,
      'POST',
      '/admin/settings/gift',
      () => giftUpload([kraftPicture, null, null], {}),
      ['owner'],
    );
    expect(results.owner.status).toBe(303);
    expect(flashOf(results.owner)).toEqual({ kind: 'success', text: 'บันทึกการห่อของขวัญแล้ว' });
    const kraft = (await optionsNow()).find((option) => option.code === 'kraft')!;
    expect(kraft).toMatchObject({ name: 'ห่อกระดาษคราฟต์', priceSatang: 3000, active: true, picture: expect.stringMatching(STORED_WRAPPING) });
    const stored = await storage().get('public', kraft.picture!.replace('/media/', ''));
    const metadata = await sharp(stored!.bytes).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 900, height: 700 });
    expect(metadata.exif).toBeUndefined();

    const db = await getDb();
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'settings.update_gift')).orderBy(desc(auditLog.id)).limit(1);
    expect(audit?.actorRole).toBe('owner');
    expect(JSON.stringify(audit?.after)).toContain(kraft.picture);

    // A new row with its picture: its own code and picture; the others keep theirs.
    const ribbon = await png('#d62839');
    const added = await callers.clients.owner.call(
      settingsRoute,
      'POST',
      '/admin/settings/gift',
      giftUpload([null, null, null, ribbon], { wrapCode: [...demoGift.wrapCode, ''], wrapName: [...demoGift.wrapName, 'ริบบิ้นผ้าไหม'], wrapPrice: [...demoGift.wrapPrice, '25'], wrapActive: [...demoGift.wrapActive, '1'] }),
    );
    expect(flashOf(added)?.kind).toBe('success');
    const withRibbon = await optionsNow();
    expect(withRibbon.find((option) => option.code === 'wrap-1')).toMatchObject({ name: 'ริบบิ้นผ้าไหม', priceSatang: 2500, picture: expect.stringMatching(STORED_WRAPPING) });
    expect(withRibbon.find((option) => option.code === 'kraft')?.picture).toBe(kraft.picture);

    const offered = await checkoutOptions(buyer.id);
    expect(offered.giftWrapOptions.find((option) => option.code === 'kraft')?.picture).toBe(kraft.picture);
    const after = await quoteKraft(product.code);
    expect(after).toEqual(before);
    expect(JSON.stringify(after)).not.toContain('/media/wrappings/');
  });

  it('kept through a price edit and a form that sends no file; replaced by a new one; removed when ticked', async () => {
    const first = (await optionsNow()).find((option) => option.code === 'kraft')!.picture;
    expect(first).toMatch(STORED_WRAPPING);
    const edited = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftUpload([null, null, null], { wrapPrice: ['35', '79', '45'] }));
    expect(flashOf(edited)?.kind).toBe('success');
    expect((await optionsNow()).find((option) => option.code === 'kraft')).toMatchObject({ priceSatang: 3500, picture: first });
    // A script's url-encoded post has no files at all: the pictures stay.
    await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftForm());
    expect((await optionsNow()).find((option) => option.code === 'kraft')).toMatchObject({ priceSatang: 3000, picture: first });

    await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftUpload([await png('#264653'), null, null]));
    const replaced = (await optionsNow()).find((option) => option.code === 'kraft')!.picture;
    expect(replaced).toMatch(STORED_WRAPPING);
    expect(replaced).not.toBe(first);

    const giftboxPicture = (await optionsNow()).find((option) => option.code === 'giftbox')?.picture;
    const removed = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftUpload([null, null, null], { wrapPictureRemove: 'kraft' }));
    expect(flashOf(removed)?.kind).toBe('success');
    const now = await optionsNow();
    expect(now.find((option) => option.code === 'kraft')).toEqual({ code: 'kraft', name: 'ห่อกระดาษคราฟต์', priceSatang: 3000, active: true });
    expect(now.find((option) => option.code === 'giftbox')?.picture).toBe(giftboxPicture);
  });

  it('not a picture, a pixel bomb, a file too large, an address typed in its place: a Thai 400 and nothing changed', async () => {
    await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftUpload([await png('#2a9d8f'), null, null]));
    const saved = await optionsNow();
    // The same post also renames the gift box: refused with the picture, so that is not saved either.
    const renamed = { wrapName: ['ห่อกระดาษคราฟต์', 'กล่องของขวัญใหม่', 'ถุงผ้าลายดอก'] };
    // Too large: over 15 MB is refused by the pipeline; here the body itself already passes the size a
    // caller may send without declaring it (this harness sends no Content-Length), so it is the body limit's 413.
    const refusals: [File, number, string, string][] = [
      [new File(['<?php echo 1; ?>'], 'wrap.png', { type: 'image/png' }), 400, 'picture_invalid_type', 'ไฟล์นี้ไม่ใช่รูปภาพที่รองรับ'],
      [new File([hugePng(30_000, 30_000)], 'bomb.png', { type: 'image/png' }), 400, 'picture_too_many_pixels', 'รูปภาพมีความละเอียดเกินกำหนด'],
      [new File([new Uint8Array(15 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' }), 413, 'body_too_large', 'มีขนาดใหญ่เกิน'],
    ];
    for (const [file, status, code, text] of refusals) {
      const asJson = await callers.clients.owner.call<{ code: string; message: string }>(settingsRoute, 'POST', '/admin/settings/gift', {
        ...giftUpload([null, file, null], renamed),
        headers: { accept: 'application/json' },
      });
      expect(asJson.status, code).toBe(status);
      expect(asJson.body.code).toBe(code);
      expect(asJson.body.message).toContain(text);
      expect(await optionsNow()).toEqual(saved);
      if (status !== 400) continue;
      const asForm = await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftUpload([null, file, null], renamed));
      expect(asForm.status).toBe(303);
      expect(flashOf(asForm)?.kind).toBe('danger');
      expect(flashOf(asForm)!.text).toContain(text);
      expect(await optionsNow()).toEqual(saved);
    }
    // A picture's address typed where the file goes is no file: ignored, never saved.
    const typed = formData({ ...demoGift, giftCardPrice: '15', wrapPicture: ['/media/products/aaaaaaaaaaaaaaaaaaaaaaaa-320.webp', '', ''] });
    await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', { form: typed, params: { section: 'gift' } });
    expect(await optionsNow()).toEqual(saved);
  });
});

describe('pricing', () => {
  it('one wrapping for the whole order is charged once, the card once; both in the total and its VAT like delivery', async () => {
    const product = await productWithStock(20);
    const quote = await as(buyer).call<{ data: OrderJson }>(quoteRoute, 'POST', '/api/order-quote', {
      body: { lines: [{ product_code: product.code, amount: 3 }], delivery_code: 'kerry', gift: { wrap_code: 'kraft', message: 'สุขสันต์วันเกิด' } },
    });
    expect(quote.status).toBe(200);
    expect(quote.body.data.gift).toMatchObject({ wrap: { code: 'kraft', name: 'ห่อกระดาษคราฟต์', price: 30 }, wrap_price: 30, card_price: 15 });
    const expected = quote.body.data.subtotal_price + quote.body.data.shipping_price + 30 + 15;
    expect(quote.body.data.total_price).toBeCloseTo(expected, 2);

    const placed = await place(buyer, { lines: [{ product_code: product.code, amount: 3 }], gift: { wrap_code: 'kraft', message: 'สุขสันต์วันเกิด' } });
    expect(placed.status).toBe(201);
    const order = placed.body.data;
    expect(order.total_price).toBeCloseTo(expected, 2);
    const db = await getDb();
    const [row] = await db.select().from(orders).where(eq(orders.orderNo, order.order_no));
    expect(row).toMatchObject({ giftWrap: { code: 'kraft', name: 'ห่อกระดาษคราฟต์', priceSatang: 3000 }, giftWrapSatang: 3000, giftCardSatang: 1500, giftMessage: 'สุขสันต์วันเกิด', giftHidePrices: false });
    expect(row!.totalSatang).toBe(row!.subtotalSatang - row!.discountSatang + row!.shippingFeeSatang + 3000 + 1500);
    expect(row!.vatSatang).toBe(includedVat(row!.totalSatang));
  });

  it('per line: each wrapped line is charged once whatever its amount; names and prices kept as sold', async () => {
    const first = await productWithStock(20);
    const second = await productWithStock(20);
    const third = await productWithStock(20);
    const placed = await place(buyer, {
      lines: [
        { product_code: first.code, amount: 4 },
        { product_code: second.code, amount: 1 },
        { product_code: third.code, amount: 2 },
      ],
      gift: { line_wraps: { [first.code]: 'giftbox', [second.code]: 'kraft' } },
    });
    expect(placed.status).toBe(201);
    const order = placed.body.data;
    expect(order.gift).toMatchObject({ wrap: null, wrap_price: 109, card_price: 0, message: '' });
    expect(order.lines.find((line) => line.product_code === first.code)?.gift_wrap).toEqual({ code: 'giftbox', name: 'กล่องของขวัญ', price: 79 });
    expect(order.lines.find((line) => line.product_code === third.code)?.gift_wrap).toBeNull();
    const db = await getDb();
    const [row] = await db.select().from(orders).where(eq(orders.orderNo, order.order_no));
    expect(row!.totalSatang).toBe(row!.subtotalSatang + row!.shippingFeeSatang + 10_900);
    expect(row!.vatSatang).toBe(includedVat(row!.totalSatang));
    const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, row!.id));
    expect(lines.filter((line) => line.giftWrap !== null)).toHaveLength(2);

    // A later price change does not move an order placed before it.
    await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftForm({ wrapPrice: ['30', '99', '45'] }));
    const [view] = await ordersForDocuments([order.order_no]);
    expect(view!.gift.wrapSatang).toBe(10_900);
    expect(view!.lines.find((line) => line.productCode === first.code)?.giftWrap?.priceSatang).toBe(7900);
    await callers.clients.owner.call(settingsRoute, 'POST', '/admin/settings/gift', giftForm());
  });
});

describe('the card message and refusals', () => {
  it('counts graphemes, so an emoji is one character; refuses links', () => {
    expect(graphemeCount('🎁')).toBe(1);
    expect(graphemeCount('👨‍👩‍👧')).toBe(1);
    expect(graphemeCount('น้ำใจ')).toBe(3); // a consonant with its marks is one (น้ำ), as Intl.Segmenter reads Thai
    for (const link of ['https://x.test', 'ดูที่ www.yimlamai', 'ไป example.com นะ', 'line.me/ti/p/abc', 'bit.ly/3abc', 'ร้าน.co.th']) expect(containsLink(link), link).toBe(true);
    for (const plain of ['สุขสันต์วันเกิดนะ 🎂', 'รักนะ... จากแม่', 'ราคา 1.5 บาท']) expect(containsLink(plain), plain).toBe(false);
  });

  it('200 emoji fit; 201 characters, a link, an inactive or unknown wrapping, both ways at once, hidden prices with COD: Thai 400 and no order', async () => {
    const product = await productWithStock(50);
    const lines = [{ product_code: product.code, amount: 1 }];
    const emoji = '🎁'.repeat(200);
    expect(emoji.length).toBe(400);
    const fits = await place(buyer, { lines, gift: { message: emoji } });
    expect(fits.status).toBe(201);
    expect(fits.body.data.gift.message).toBe(emoji);

    const db = await getDb();
    const before = (await db.select({ id: orders.id }).from(orders).where(eq(orders.memberId, buyer.id))).length;
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ message: 'ก'.repeat(201) }, 'validation_failed', 'ไม่เกิน 200 ตัวอักษร'],
      [{ message: 'สุขสันต์วันเกิด ดูรูปที่ www.photos.test' }, 'validation_failed', 'ใส่ลิงก์'],
      [{ message: 'https://evil.test' }, 'validation_failed', 'ใส่ลิงก์'],
      [{ wrap_code: 'cloth' }, 'gift_wrap_unavailable', 'แบบห่อของขวัญที่เลือกไม่มีให้บริการแล้ว'],
      [{ wrap_code: 'nope' }, 'gift_wrap_unavailable', 'ไม่มีให้บริการแล้ว'],
      [{ wrap_code: 'kraft', line_wraps: { [product.code]: 'kraft' } }, 'validation_failed', 'อย่างใดอย่างหนึ่ง'],
      [{ line_wraps: { 'NOT-IN-ORDER': 'kraft' } }, 'gift_wrap_line_unknown', 'ไม่พบสินค้า'],
    ];
    for (const [gift, code, words] of refusals) {
      const refused = await place(buyer, { lines, gift });
      expect(refused.status, JSON.stringify(gift)).toBe(400);
      expect(refused.body.code, JSON.stringify(gift)).toBe(code);
      expect(JSON.stringify(refused.body), JSON.stringify(gift)).toContain(words);
    }
    const cod = await place(buyer, { lines, payment_method: 'cod', gift: { hide_prices: true } });
    expect(cod.status).toBe(400);
    expect(cod.body.code).toBe('gift_hide_prices_cod');
    expect((await db.select({ id: orders.id }).from(orders).where(eq(orders.memberId, buyer.id))).length).toBe(before);

    const quoteRefused = await as(buyer).call<{ code: string }>(quoteRoute, 'POST', '/api/order-quote', { body: { lines, gift: { wrap_code: 'cloth' } } });
    expect(quoteRefused.status).toBe(400);
    expect(quoteRefused.body.code).toBe('gift_wrap_unavailable');
  });
});

describe('documents', () => {
  it('the receipt has a line for the wrapping and the card; the packing slip says what to wrap and leaves prices out when asked', async () => {
    const product = await productWithStock(20);
    const other = await productWithStock(20);
    const hidden = await place(buyer, {
      lines: [{ product_code: product.code, amount: 2 }, { product_code: other.code, amount: 1 }],
      gift: { line_wraps: { [product.code]: 'giftbox' }, message: 'ถึงน้องฟ้า ขอให้มีความสุขมาก ๆ 🎉', hide_prices: true },
    });
    expect(hidden.status).toBe(201);
    const shown = await place(buyer, { lines: [{ product_code: other.code, amount: 1 }], gift: { wrap_code: 'kraft' } });
    const staff = { type: 'staff' as const, id: callers.members.owner.id };
    await changeOrderStatus(staff, hidden.body.data.order_no, { action: 'confirm_payment' });

    const receipt = squash((await pdfPages(new Uint8Array((await orderDocumentPdf(null, hidden.body.data.order_no, 'receipt')).bytes))).join('\n'));
    expect(receipt).toContain(squash('ห่อของขวัญ (กล่องของขวัญ) แยกรายการ'));
    expect(receipt).toContain(squash('การ์ดข้อความ'));
    expect(receipt).toContain('79.00');
    expect(receipt).toContain('15.00');

    const [hiddenView, shownView] = await ordersForDocuments([hidden.body.data.order_no, shown.body.data.order_no]);
    const slipOf = async (view: typeof hiddenView) => squash((await pdfPages(await packingSlipsPdf([view!], await getCompany()))).join('\n'));
    const hiddenPart = await slipOf(hiddenView);
    const shownPart = await slipOf(shownView);
    expect(hiddenPart).toContain(squash('[ห่อ: กล่องของขวัญ]'));
    expect(hiddenPart).toContain(squash('ไม่ใส่ใบเสร็จหรือเอกสารที่มีราคาลงในกล่อง'));
    expect(hiddenPart).toContain(squash('ใส่การ์ดข้อความ'));
    expect(hiddenPart).not.toContain('฿');
    expect(hiddenPart).not.toContain(squash('ยอดสั่งซื้อ'));
    expect(shownPart).toContain(squash('ห่อของขวัญทั้งคำสั่งซื้อ: ห่อกระดาษคราฟต์'));
    expect(shownPart).toContain(squash('ยอดสั่งซื้อ ฿'));
  });

  it('the card PDF: A6, the message read back, one page per order with a message; staff only, Thai 404 without one', async () => {
    const product = await productWithStock(20);
    const withCard = await place(buyer, { lines: [{ product_code: product.code, amount: 1 }], gift: { message: 'สุขสันต์วันแม่ 💐\nรักแม่ที่สุด' } });
    const without = await place(buyer, { lines: [{ product_code: product.code, amount: 1 }] });
    const views = await ordersForDocuments([withCard.body.data.order_no, without.body.data.order_no]);
    const bytes = await giftCardsPdf(views, await getCompany());
    const pages = await pdfPages(bytes);
    expect(pages).toHaveLength(1);
    expect(squash(pages[0]!)).toContain(squash('สุขสันต์วันแม่'));
    expect(squash(pages[0]!)).toContain(squash('รักแม่ที่สุด'));
    expect(pages[0]).toContain(withCard.body.data.order_no);
    // A6 is 105 × 148 mm: 297.64 × 419.53 points.
    expect(Buffer.from(bytes).toString('latin1')).toMatch(/\/MediaBox \[0 0 297\.6\d* 419\.5\d*\]/);

    const owner = callers.clients.owner;
    const one = await owner.call(cardRoute, 'GET', `/admin/orders/${withCard.body.data.order_no}/gift-card.pdf`, { params: { no: withCard.body.data.order_no } });
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('application/pdf');
    const none = await owner.call<{ message: string }>(cardRoute, 'GET', `/admin/orders/${without.body.data.order_no}/gift-card.pdf`, { params: { no: without.body.data.order_no }, headers: { accept: 'application/json' } });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('คำสั่งซื้อที่เลือกไม่มีข้อความบนการ์ด');
    const bulk = await callers.clients.staff.call(cardsRoute, 'GET', `/admin/orders/gift-cards.pdf?no=${withCard.body.data.order_no}&no=${without.body.data.order_no}`);
    expect(bulk.status).toBe(200);
    expect(bulk.headers.get('content-type')).toBe('application/pdf');
  });

  it('the card prints emoji in the Noto Emoji face beside the Thai: read back by poppler, no missing glyph, a new emoji left off', async () => {
    const product = await productWithStock(20);
    const message = 'สุขสันต์วันเกิดนะ 🎂🎉 รักเสมอ ❤️ 👍🏽';
    const placed = await place(buyer, { lines: [{ product_code: product.code, amount: 1 }], gift: { message } });
    expect(placed.status).toBe(201);
    const bytes = await giftCardsPdf(await ordersForDocuments([placed.body.data.order_no]), await getCompany());
    const folder = mkdtempSync(path.join(tmpdir(), 'gift-card-'));
    const file = path.join(folder, 'card.pdf');
    writeFileSync(file, bytes);
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).toMatch(/\+NotoEmoji-Regular\s+CID TrueType\s+Identity-H\s+yes yes yes/);
    expect(fonts).toMatch(/\+Sarabun-Regular\s/);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    for (const word of ['สุขสันต์วันเกิดนะ', 'รักเสมอ', placed.body.data.order_no]) expect(squash(text)).toContain(word);
    // The emoji glyphs map back to their characters (the skin-toned thumb reads back as its base emoji).
    for (const emoji of ['🎂', '🎉', '❤', '👍']) expect(text).toContain(emoji);
    expect(shownGlyphs(bytes).length).toBeGreaterThan(20);
    expect(shownGlyphs(bytes)).not.toContain('0000');
    // Small: only the glyphs used are embedded (the whole emoji face is over half a megabyte).
    expect(bytes.length).toBeLessThan(120_000);

    // U+1FAEC (not in this Noto Emoji) is left off; the text around it and a keycap print; no box.
    const newer = await place(buyer, { lines: [{ product_code: product.code, amount: 1 }], gift: { message: 'ขอบคุณ \u{1FAEC} 1️⃣ ค่ะ' } });
    const newerBytes = await giftCardsPdf(await ordersForDocuments([newer.body.data.order_no]), await getCompany());
    expect(shownGlyphs(newerBytes)).not.toContain('0000');
    const newerText = (await pdfPages(newerBytes))[0]!;
    expect(squash(newerText)).toContain('ขอบคุณ');
    expect(squash(newerText)).toContain('ค่ะ');
    expect(newerText).not.toContain('\u{1FAEC}');
  });
});

/**
 * The glyph ids a PDF's page content shows (pdfkit writes text as hex glyph ids in TJ arrays, in deflated
 * content streams); id 0 is a font's .notdef, the box a missing character prints as.
 */
function shownGlyphs(pdf: Uint8Array): string[] {
  const bytes = Buffer.from(pdf);
  const raw = bytes.toString('latin1');
  const glyphs: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    let content: string;
    try {
      content = inflateSync(bytes.subarray(start, raw.indexOf('endstream', start))).toString('latin1');
    } catch {
      continue;
    }
    if (!/\bTf\b/.test(content)) continue;
    for (const array of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) for (const hex of array[1]!.matchAll(/<([0-9a-fA-F]*)>/g)) glyphs.push(...(hex[1]!.match(/.{4}/g) ?? []));
  }
  return glyphs;
}
