import { exportedCatalogCsv } from '../fixtures/catalog-csv';
import { and, eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { auditLog, backInStockRequests, mailOutbox, productVariants } from '../../src/server/db/schema';
import type { AuditActor } from '../../src/server/audit/audit.service';
import { adjustStock } from '../../src/server/catalog-admin/stock.service';
import { bulkSetVariants } from '../../src/server/catalog-admin/variant-editor.service';
import { applyImport } from '../../src/server/catalog-admin/csv-import.service';
import { changeOrderStatus } from '../../src/server/orders/order-status.service';
import {
  cancelByToken,
  confirmByToken,
  mostWaitedVariants,
  requestOfToken,
  subscribeMember,
  waitingCounts,
} from '../../src/server/back-in-stock/back-in-stock.service';
import { renderBackInStockMail } from '../../src/server/back-in-stock/back-in-stock-mails';
import { getCompany } from '../../src/server/company/company.service';
import { BACK_IN_STOCK } from '../../src/lib/back-in-stock';
import * as visitorRoute from '../../src/pages/api/back-in-stock';
import * as statusRoute from '../../src/pages/api/user/back-in-stock/index';
import * as cancelRoute from '../../src/pages/api/user/back-in-stock/[code]';
import { TestClient } from '../fixtures/api-client';
import { createMember, placeTestOrder, productWithVariants, type TestMember } from '../fixtures/orders';

/**
 * Issue 31 part 4, docs/decisions/220: `แจ้งเตือนเมื่อมีสินค้า` per variant. Members in one click, visitors
 * through a double opt-in mail; a restock (0 → above 0) by any path mails each confirmed request once,
 * through the outbox, with one audit row; a fulfilled request is not mailed again; racing restocks mail once.
 */
const staff: AuditActor = { id: null, email: 'stock-keeper@example.test', role: 'staff', via: 'web' };

function as(member: TestMember | null, ip?: string): TestClient {
  const client = new TestClient(ip);
  if (member) client.bearer = member.token;
  return client;
}

const subscribe = (member: TestMember | null, body: unknown, ip?: string) => as(member, ip).call<{ data: { subscribed: boolean; message: string; already?: boolean } }>(visitorRoute, 'POST', '/api/back-in-stock', { body });
const status = (member: TestMember | null, code: string) => as(member).call<{ data: { subscribed: boolean } }>(statusRoute, 'GET', `/api/user/back-in-stock?variant=${encodeURIComponent(code)}`);
const cancel = (member: TestMember | null, code: string) =>
  as(member).call<{ data: { subscribed: boolean; message: string } }>(cancelRoute, 'DELETE', `/api/user/back-in-stock/${encodeURIComponent(code)}`, { params: { code } });

let ipCounter = 0;
/** A fresh address per visitor request, so the per-address limit is only met where a test means it. */
const freshIp = () => `203.0.113.${(ipCounter += 1) % 250}`;

async function mailsFor(variantCode: string, kind = 'back_in_stock') {
  const db = await getDb();
  return db
    .select({ to: mailOutbox.toAddress, payload: mailOutbox.payload })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), sql`${mailOutbox.payload}->>'variantCode' = ${variantCode}`));
}

async function restockAudits(productCode: string) {
  const db = await getDb();
  return db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'product.restock_notified'), eq(auditLog.entityId, productCode)));
}

async function tokenOf(email: string, variantCode: string): Promise<string> {
  const [mail] = (await mailsFor(variantCode, 'back_in_stock_confirm')).filter((row) => row.to === email).slice(-1);
  return String(mail?.payload.token ?? '');
}

describe('asking to hear when a variant is back', () => {
  it('a member subscribes in one click, is told when already waiting, and cancels', async () => {
    const { variants } = await productWithVariants([0, 3]);
    const [soldOut, inStock] = variants;
    const member = await createMember();
    const first = await subscribe(member, { variant: soldOut!.code });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    expect(first.body.data).toEqual({ variant: soldOut!.code, subscribed: true, already: false, message: BACK_IN_STOCK.subscribed });
    expect(first.body.data.message).toBe('เราจะแจ้งทางอีเมลเมื่อสินค้ามีอีกครั้ง');
    expect((await subscribe(member, { variant: soldOut!.code })).body.data).toMatchObject({ already: true, message: BACK_IN_STOCK.already });
    expect((await status(member, soldOut!.code)).body.data).toMatchObject({ subscribed: true });
    expect(await waitingCounts([soldOut!.id, inStock!.id])).toEqual(new Map([[soldOut!.id, 1]]));

    // In stock: nothing to wait for. Unknown: not found. Both in Thai.
    const available = await subscribe(member, { variant: inStock!.code });
    expect(available.status).toBe(409);
    expect(available.body).toEqual({ code: 'variant_in_stock', message: BACK_IN_STOCK.inStock });
    const unknown = await subscribe(member, { variant: 'NO-SUCH-VARIANT' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('ไม่พบสินค้านี้');

    expect((await cancel(member, soldOut!.code)).body.data).toEqual({ variant: soldOut!.code, subscribed: false, message: BACK_IN_STOCK.cancelled });
    expect((await status(member, soldOut!.code)).body.data).toMatchObject({ subscribed: false });
    expect(await waitingCounts([soldOut!.id])).toEqual(new Map());
    // Status and cancel are a member's: a visitor is asked to log in.
    expect((await status(null, soldOut!.code)).status).toBe(401);
    expect((await cancel(null, soldOut!.code)).status).toBe(401);
  });

  it('a visitor confirms through a mail; opening the link changes nothing, the button does; the cancel link deletes', async () => {
    const { product, variants } = await productWithVariants([0, 0]);
    const [variant, other] = variants;
    const email = `visitor-${Date.now()}@example.test`;
    const answer = await subscribe(null, { variant: variant!.code, email: `  ${email.toUpperCase()} ` }, freshIp());
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ variant: variant!.code, subscribed: false, message: BACK_IN_STOCK.confirmSent });
    const confirmMails = await mailsFor(variant!.code, 'back_in_stock_confirm');
    expect(confirmMails.map((mail) => mail.to)).toEqual([email]);
    const token = await tokenOf(email, variant!.code);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The confirmation mail: the product's name and the confirm link.
    const rendered = await renderBackInStockMail('back_in_stock_confirm', { variantCode: variant!.code, token }, await getCompany());
    expect(rendered?.subject).toContain('ยืนยันการแจ้งเตือนเมื่อมีสินค้า');
    expect(rendered?.text).toContain(`/back-in-stock/confirm?token=${token}`);

    // Not confirmed yet: not counted, and a restock does not mail it.
    expect(await waitingCounts([variant!.id])).toEqual(new Map());
    expect((await requestOfToken(token))?.confirmed).toBe(false);
    expect((await requestOfToken(token))?.confirmed).toBe(false);
    await adjustStock(staff, product.code, 2, 'รับเข้า', variant!.code);
    expect(await mailsFor(variant!.code)).toEqual([]);
    await adjustStock(staff, product.code, -2, 'ตรวจนับ', variant!.code);

    const confirmed = await confirmByToken(token);
    expect(confirmed).toMatchObject({ variantCode: variant!.code, confirmed: true, waiting: true, inStock: false });
    expect(await waitingCounts([variant!.id])).toEqual(new Map([[variant!.id, 1]]));
    // Asking again while waiting sends no second confirmation.
    await subscribe(null, { variant: variant!.code, email }, freshIp());
    expect(await mailsFor(variant!.code, 'back_in_stock_confirm')).toHaveLength(1);
    // A token that is not one, or not ours.
    expect(await confirmByToken('x'.repeat(43))).toBeNull();
    expect(await requestOfToken('../etc')).toBeNull();

    // The other shade: confirmed while it is in stock again, the request is done at once.
    await subscribe(null, { variant: other!.code, email }, freshIp());
    const otherToken = await tokenOf(email, other!.code);
    await adjustStock(staff, product.code, 1, 'รับเข้า', other!.code);
    expect(await confirmByToken(otherToken)).toMatchObject({ confirmed: true, waiting: false, inStock: true });

    expect(await cancelByToken(token)).toMatchObject({ variantCode: variant!.code, waiting: false });
    expect(await requestOfToken(token)).toBeNull();
    expect(await waitingCounts([variant!.id])).toEqual(new Map());
  });

  it('refuses bad input with a Thai 4xx, and limits a visitor’s requests per e-mail', async () => {
    const { variants } = await productWithVariants([0, 1]);
    const code = variants[0]!.code;
    const cases: [unknown, number, string][] = [
      [{ variant: code }, 400, 'กรุณากรอกอีเมล'],
      [{ variant: code, email: 'not-an-email' }, 400, 'รูปแบบอีเมลไม่ถูกต้อง'],
      [{ variant: '../x', email: 'a@example.test' }, 400, 'ไม่พบสินค้านี้'],
      [{ email: 'a@example.test' }, 400, 'กรุณาระบุรหัสสินค้า'],
      [[], 400, 'ข้อมูลที่ส่งมาไม่ถูกต้อง'],
      [{ variant: variants[1]!.code, email: 'a@example.test' }, 409, BACK_IN_STOCK.inStock],
    ];
    for (const [body, expected, message] of cases) {
      const answer = await subscribe(null, body, freshIp());
      expect(answer.status, JSON.stringify(body)).toBe(expected);
      expect(answer.body.message).toBe(message);
    }
    const email = `limited-${Date.now()}@example.test`;
    for (let i = 0; i < 5; i++) expect((await subscribe(null, { variant: code, email }, freshIp())).status).toBe(200);
    const limited = await subscribe(null, { variant: code, email }, freshIp());
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/บ่อยเกินไป/);
  });
});

describe('a restock mails each confirmed request once', () => {
  async function waitingFor(variantCode: string) {
    const members = [await createMember(), await createMember()];
    for (const member of members) await subscribeMember(member.id, variantCode);
    return members;
  }

  it('through the back office stock adjustment, with one audit row; the mail names the variant and links to it', async () => {
    const { product, variants } = await productWithVariants([0, 5]);
    const variant = variants[0]!;
    const members = await waitingFor(variant.code);
    expect((await mostWaitedVariants(50)).find((row) => row.variantCode === variant.code)).toMatchObject({ productCode: product.code, waiting: 2 });

    await adjustStock(staff, product.code, 4, 'รับสินค้าจากผู้ผลิต', variant.code);
    const mails = await mailsFor(variant.code);
    expect(mails.map((mail) => mail.to).sort()).toEqual(members.map((member) => member.email).sort());
    expect(await waitingCounts([variant.id])).toEqual(new Map());
    expect((await mostWaitedVariants(50)).some((row) => row.variantCode === variant.code)).toBe(false);
    expect(await restockAudits(product.code)).toEqual([{ after: { variant: variant.code, stock: 4, mailed: 2 } }]);

    const rendered = await renderBackInStockMail('back_in_stock', { variantCode: variant.code, token: String(mails[0]!.payload.token) }, await getCompany());
    expect(rendered?.subject).toBe(`สินค้าที่คุณรอกลับมาแล้ว: ${product.name} สีเฉดที่1`);
    expect(rendered?.text).toContain(`/product/${product.code}?variant=${variant.code}`);
    expect(rendered?.text).toContain(`/back-in-stock/cancel?token=${String(mails[0]!.payload.token)}`);
    expect(rendered?.headers?.['List-Unsubscribe']).toContain('/back-in-stock/cancel?token=');

    // More stock on top of some is no restock; sold out and back again mails nobody already mailed.
    await adjustStock(staff, product.code, 3, 'รับเพิ่ม', variant.code);
    await adjustStock(staff, product.code, -7, 'ตรวจนับ', variant.code);
    await adjustStock(staff, product.code, 2, 'รับเข้า', variant.code);
    expect(await mailsFor(variant.code)).toHaveLength(2);
    expect(await restockAudits(product.code)).toHaveLength(1);

    // A member who asks again after the mail waits anew, and the next restock mails only them.
    await adjustStock(staff, product.code, -2, 'ตรวจนับ', variant.code);
    await subscribeMember(members[0]!.id, variant.code);
    await adjustStock(staff, product.code, 1, 'รับเข้า', variant.code);
    expect((await mailsFor(variant.code)).map((mail) => mail.to).filter((to) => to === members[0]!.email)).toHaveLength(2);
    expect(await mailsFor(variant.code)).toHaveLength(3);
  });

  it('through the variant editor’s stock', async () => {
    const { product, variants } = await productWithVariants([0, 2]);
    const members = await waitingFor(variants[0]!.code);
    await bulkSetVariants(staff, product.code, [variants[0]!.code], { stock: 6 });
    expect((await mailsFor(variants[0]!.code)).map((mail) => mail.to).sort()).toEqual(members.map((member) => member.email).sort());
  });

  it('through the CSV import', async () => {
    const { product, variants } = await productWithVariants([0, 2]);
    const members = await waitingFor(variants[0]!.code);
    const rows = parse(await exportedCatalogCsv(), { bom: true }) as string[][];
    const header = rows[0]!;
    const mine = rows.filter((cells) => cells[header.indexOf('code')] === product.code);
    const restocked = mine.find((cells) => cells[header.indexOf('variant_code')] === variants[0]!.code)!;
    restocked[header.indexOf('stock')] = '9';
    const report = await applyImport(staff, new TextEncoder().encode(stringify([header, ...mine], { bom: true })));
    expect(report.errors).toEqual([]);
    expect((await mailsFor(variants[0]!.code)).map((mail) => mail.to).sort()).toEqual(members.map((member) => member.email).sort());
  });

  it('through a cancelled order’s stock return', async () => {
    const { variants } = await productWithVariants([1, 2]);
    const buyer = await createMember();
    const placed = await placeTestOrder(buyer, [{ product_code: variants[0]!.code, amount: 1 }]);
    const db = await getDb();
    const [sold] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variants[0]!.id));
    expect(sold?.stock).toBe(0);
    const members = await waitingFor(variants[0]!.code);
    await changeOrderStatus({ type: 'member', id: buyer.id }, placed.order.orderNo, { action: 'cancel', note: 'เปลี่ยนใจ' });
    expect((await mailsFor(variants[0]!.code)).map((mail) => mail.to).sort()).toEqual(members.map((member) => member.email).sort());
  });

  it('once when two restocks race', async () => {
    const { product, variants } = await productWithVariants([0, 2]);
    const members = await waitingFor(variants[0]!.code);
    await Promise.all([adjustStock(staff, product.code, 3, 'รับเข้า ก', variants[0]!.code), adjustStock(staff, product.code, 5, 'รับเข้า ข', variants[0]!.code)]);
    expect((await mailsFor(variants[0]!.code)).map((mail) => mail.to).sort()).toEqual(members.map((member) => member.email).sort());
    expect(await restockAudits(product.code)).toHaveLength(1);
    const db = await getDb();
    const rows = await db.select({ notifiedAt: backInStockRequests.notifiedAt }).from(backInStockRequests).where(eq(backInStockRequests.variantId, variants[0]!.id));
    expect(rows.every((row) => row.notifiedAt !== null)).toBe(true);
  });
});
