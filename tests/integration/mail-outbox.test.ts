/**
 * The mail outbox against a real SMTP server started here (smtp-server): retries with back-off,
 * failure after the last try, resend, an order that never waits on SMTP, and the HTML mail itself.
 * The kill -9 case needs a server process: tests/server/mail-restart.test.ts.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '../../src/server/db/client';
import { mailOutbox } from '../../src/server/db/schema';
import { listFailedMails, resendMail } from '../../src/server/mail/outbox';
import { changeOrderStatus } from '../../src/server/orders/order.service';
import { requestReset } from '../../src/server/auth/reset.service';
import { formatBahtExact } from '../../src/lib/money';
import { statusLabels } from '../../src/lib/orders';
import { createMember, productWithStock, type TestMember, placeTestOrder } from '../fixtures/orders';
import { emlPart, emlSubject } from '../fixtures/outbox';

interface Received {
  to: string[];
  raw: string;
  at: number;
}

const received: Received[] = [];
/** Addresses whose next N deliveries the server refuses with a temporary 451. */
const refuseNext = new Map<string, number>();
/** Addresses the server always refuses. */
const refuseAlways = new Set<string>();
/** Addresses whose delivery the server holds, unanswered, until the test lets it go. */
const held = new Map<string, Promise<void>>();
let attemptsSeen = 0;

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onRcptTo(address, _session, callback) {
    const to = address.address.toLowerCase();
    attemptsSeen += 1;
    const hold = held.get(to);
    if (hold) {
      held.delete(to);
      void hold.then(() => callback());
      return;
    }
    const left = refuseNext.get(to) ?? 0;
    if (left > 0 || refuseAlways.has(to)) {
      refuseNext.set(to, left - 1);
      const error = Object.assign(new Error('ลองใหม่ภายหลัง (test server busy)'), { responseCode: 451 });
      callback(error);
      return;
    }
    callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = (smtp.server.address() as AddressInfo).port;
// Read when the configuration is first parsed (the setup file's beforeAll, after this module loads).
process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
process.env.MAIL_POLL_SECONDS = '0.1';
process.env.MAIL_RETRY_BASE_SECONDS = '0.3';
process.env.MAIL_MAX_ATTEMPTS = '3';

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

beforeEach(() => {
  refuseNext.clear();
  refuseAlways.clear();
  held.clear();
});

async function arrival(to: string, ms = 15_000): Promise<Received> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const mail = received.find((entry) => entry.to.includes(to.toLowerCase()));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no mail to ${to} within ${ms} ms`);
}

async function mailRowsTo(to: string) {
  const db = await getDb();
  return db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
}

/** The row once the worker has recorded the delivery (it does so after the SMTP server's answer). */
async function sentRow(to: string) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const [row] = await mailRowsTo(to);
    if (row?.status === 'sent' || Date.now() > deadline) return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function place(member: TestMember, code: string, paymentMethod: 'promptpay' | 'bank_transfer' | 'cod' = 'promptpay') {
  return placeTestOrder(member, [{ product_code: code, amount: 2 }], { paymentMethod });
}

describe('mail outbox over SMTP', () => {
  it('keeps trying: the server refuses twice, the mail arrives on the third try with back-off', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    refuseNext.set(member.email.toLowerCase(), 2);
    const started = Date.now();
    const { order } = await place(member, product.code);
    const mail = await arrival(member.email);
    const row = await sentRow(member.email);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, kind: 'order_placed', lastError: null });
    // Waited 0.3 s then 0.6 s between the tries.
    expect(mail.at - started).toBeGreaterThanOrEqual(900);
    expect(emlSubject(mail.raw)).toBe(`ได้รับคำสั่งซื้อ ${order.orderNo} แล้ว`);
  });

  it('the HTML mail has the order number, the Thai lines, the total, the QR, the logo, a text part, and no script', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    const { order } = await place(member, product.code);
    const mail = await arrival(member.email);
    const html = emlPart(mail.raw, 'text/html');
    const text = emlPart(mail.raw, 'text/plain');
    expect(html).not.toBeNull();
    expect(html).toContain(order.orderNo);
    expect(html).toContain(product.name.replace(/&/g, '&amp;'));
    expect(html).toContain(formatBahtExact(order.totalSatang));
    expect(html).toContain('lang="th"');
    expect(html).toContain('src="cid:shop-logo"');
    expect(html).toContain('src="cid:promptpay-qr"');
    expect(html).toMatch(/\/order\/payment\?no=/);
    expect(html).not.toMatch(/<script|javascript:|onerror=|onload=/i);
    expect(mail.raw).toMatch(/Content-ID: <promptpay-qr>/i);
    expect(mail.raw).toMatch(/Content-ID: <shop-logo>/i);
    expect(text).toContain(order.orderNo);
    expect(text).toContain(`ยอดรวม: ${formatBahtExact(order.totalSatang)}`);
  });

  it('the shipped mail carries the tracking number and a tracking link', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 1 }], { deliveryCode: 'ems' });
    await changeOrderStatus({ type: 'staff', id: null }, order.orderNo, { action: 'confirm_payment' });
    await changeOrderStatus({ type: 'staff', id: null }, order.orderNo, { action: 'ship', trackingNo: 'EF123456789TH' });
    const deadline = Date.now() + 15_000;
    let shipped: Received | undefined;
    while (!shipped && Date.now() < deadline) {
      shipped = received.find((entry) => entry.to.includes(member.email.toLowerCase()) && emlSubject(entry.raw).endsWith(statusLabels.shipped));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(shipped).toBeDefined();
    const html = emlPart(shipped!.raw, 'text/html') ?? '';
    expect(html).toContain('href="https://track.thailandpost.co.th/?trackNumber=EF123456789TH"');
    expect(html).toContain('ติดตามพัสดุ');
    expect(html).not.toContain('cid:promptpay-qr');
    expect(emlPart(shipped!.raw, 'text/plain')).toContain('เลขพัสดุ: EF123456789TH');
    // The status in the words of the shop's pages (issue 32, screen 10).
    expect(emlPart(shipped!.raw, 'text/plain')).toContain(`สถานะคำสั่งซื้อ: ${statusLabels.shipped}`);
  });

  it('bank transfer mails list the accounts instead of a QR', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    await place(member, product.code, 'bank_transfer');
    const mail = await arrival(member.email);
    const html = emlPart(mail.raw, 'text/html') ?? '';
    expect(html).toContain('123-4-56789-0');
    expect(html).not.toContain('cid:promptpay-qr');
    expect(emlPart(mail.raw, 'text/plain')).toContain('123-4-56789-0');
  });

  it('marks a mail failed after the last try, lists it, and sends it when resent', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    refuseAlways.add(member.email.toLowerCase());
    await place(member, product.code);
    const deadline = Date.now() + 15_000;
    let failed = await listFailedMails(500);
    while (!failed.some((mail) => mail.to === member.email) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      failed = await listFailedMails(500);
    }
    const entry = failed.find((mail) => mail.to === member.email);
    expect(entry).toMatchObject({ status: 'failed', attempts: 3, kind: 'order_placed' });
    expect(entry?.lastError).toMatch(/451/);
    refuseAlways.clear();
    const resent = await resendMail(entry!.id);
    expect(resent).toMatchObject({ status: 'pending', attempts: 0 });
    await arrival(member.email);
    expect(await sentRow(member.email)).toMatchObject({ status: 'sent', attempts: 1 });
    await expect(resendMail(999_999_999)).rejects.toMatchObject({ status: 404 });
  });

  it('placing an order never waits on SMTP: a mail server that hangs changes nothing for the shopper', async () => {
    const member = await createMember();
    const product = await productWithStock(5);
    // Ordering, not timing: the order is answered while the mail server still holds its answer.
    let releasedAt: number | null = null;
    let releaseServer = () => {};
    held.set(member.email.toLowerCase(), new Promise<void>((resolve) => {
      releaseServer = () => {
        releasedAt ??= Date.now();
        resolve();
      };
    }));
    // Never leave the test server hanging: were placing to wait on SMTP, this would release it late.
    const lastResort = setTimeout(() => releaseServer(), 20_000);
    const before = attemptsSeen;
    const { order, created } = await place(member, product.code);
    expect(releasedAt).toBeNull();
    expect(created).toBe(true);
    expect(order.status).toBe('pending_payment');
    // The worker is talking to the hanging server meanwhile; the mail still arrives once it answers.
    const deadline = Date.now() + 15_000;
    while (attemptsSeen === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(attemptsSeen).toBeGreaterThan(before);
    expect(received.some((entry) => entry.to.includes(member.email.toLowerCase()))).toBe(false);
    clearTimeout(lastResort);
    releaseServer();
    const mail = await arrival(member.email);
    expect(mail.at).toBeGreaterThanOrEqual(releasedAt!);
  });

  it('a refused order writes no mail; a reset mail goes out once and its link is not kept', async () => {
    const member = await createMember();
    const product = await productWithStock(1);
    await expect(
      placeTestOrder(member, [{ product_code: product.code, amount: 5 }]),
    ).rejects.toMatchObject({ code: 'out_of_stock' });
    expect(await mailRowsTo(member.email)).toEqual([]);

    await requestReset(member.email, '198.51.100.200');
    const mail = await arrival(member.email);
    expect(emlPart(mail.raw, 'text/plain')).toMatch(/\/resetpassword\?token=/);
    expect(emlPart(mail.raw, 'text/html')).toMatch(/href="http[^"]+\/resetpassword\?token=/);
    const row = await sentRow(member.email);
    expect(row?.payload).not.toHaveProperty('link');
    await expect(resendMail(row!.id)).rejects.toMatchObject({ code: 'mail_not_resendable' });
  });
});
