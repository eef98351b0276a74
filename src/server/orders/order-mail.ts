import QRCode from 'qrcode';
import { env } from '../env.ts';
import type { MailAttachment, MailMessage } from '../mail/mailer.ts';
import type { OrderMailKind } from '../mail/outbox.ts';
import { button, colours, logoAttachment, paragraph, renderLayout, safeUrl } from '../mail/templates.ts';
import { escapeHtml } from '../../lib/html.ts';
import { formatBahtExact } from '../../lib/money.ts';
import { paymentMethodLabels, statusLabels, type OrderView } from '../../lib/orders.ts';
import type { CompanyInfo } from '../../lib/types.ts';
import { promptPayPayload } from './promptpay.ts';

export type { OrderMailKind };

const subjects: Record<OrderMailKind, (no: string) => string> = {
  placed: (no) => `ได้รับคำสั่งซื้อ ${no} แล้ว`,
  paid: (no) => `ยืนยันการชำระเงินคำสั่งซื้อ ${no}`,
  shipped: (no) => `คำสั่งซื้อ ${no} ${statusLabels.shipped}`,
  cancelled: (no) => `คำสั่งซื้อ ${no} ถูกยกเลิก`,
};

const titles: Record<OrderMailKind, string> = {
  placed: 'ขอบคุณสำหรับคำสั่งซื้อ',
  paid: 'เราได้รับการชำระเงินแล้ว',
  shipped: 'สินค้าของคุณจัดส่งแล้ว',
  cancelled: 'คำสั่งซื้อถูกยกเลิก',
};

function siteUrl(): string {
  return env().PUBLIC_SITE_URL.replace(/\/$/, '');
}

/** What the shopper must do to pay, for a placed order still waiting for payment. */
function paymentAsk(order: OrderView, kind: OrderMailKind, company: CompanyInfo): { promptpay: string | null; banks: CompanyInfo['bankAccounts'] } {
  const waiting = kind === 'placed' && order.status === 'pending_payment' && order.totalSatang > 0;
  if (!waiting) return { promptpay: null, banks: [] };
  if (order.paymentMethod === 'promptpay' && company.promptpayId && company.paymentMethods.promptpay) {
    return { promptpay: promptPayPayload(company.promptpayId, order.totalSatang), banks: [] };
  }
  if (order.paymentMethod === 'bank_transfer') return { promptpay: null, banks: company.bankAccounts };
  return { promptpay: null, banks: [] };
}

function headLines(order: OrderView, kind: OrderMailKind, site: string): string[] {
  const head: Record<OrderMailKind, string[]> = {
    placed:
      order.paymentMethod === 'cod'
        ? ['ขอบคุณสำหรับคำสั่งซื้อ เราจะจัดส่งสินค้าโดยเร็วและเก็บเงินเมื่อสินค้าถึงมือคุณ']
        : ['ขอบคุณสำหรับคำสั่งซื้อ กรุณาชำระเงินและแนบสลิปภายในเวลาที่กำหนด', `ชำระเงิน: ${site}/order/payment?no=${order.orderNo}`],
    paid: ['เราได้รับการชำระเงินแล้ว และกำลังเตรียมจัดส่งสินค้า'],
    shipped: [
      `สินค้าของคุณจัดส่งแล้วทาง ${order.carrier ?? order.deliveryName}`,
      ...(order.trackingNo ? [`เลขพัสดุ: ${order.trackingNo}`] : []),
      ...(order.trackingUrl ? [`ติดตามพัสดุ: ${order.trackingUrl}`] : []),
    ],
    cancelled: [order.status === 'expired' ? `คำสั่งซื้อนี้${statusLabels.expired}และถูกยกเลิกแล้ว` : 'คำสั่งซื้อนี้ถูกยกเลิกแล้ว'],
  };
  // The status in the words of the shop's pages (issue 32, screen 10), so a mail and My Purchase agree.
  return [...head[kind], `สถานะคำสั่งซื้อ: ${statusLabels[order.status]}`];
}

/** The plain-text alternative (and what a text-only mail client shows). */
export function orderMailText(order: OrderView, kind: OrderMailKind, company?: CompanyInfo): string {
  const site = siteUrl();
  const lines = order.lines.map((line) => `- ${line.productName} × ${line.amount} = ${formatBahtExact(line.lineTotalSatang)}`);
  const banks = company ? paymentAsk(order, kind, company).banks : [];
  return [
    `เลขที่คำสั่งซื้อ: ${order.orderNo}`,
    ...headLines(order, kind, site),
    ...(banks.length > 0 ? ['', 'โอนเงินเข้าบัญชี:', ...banks.map((bank) => `${bank.bank} ${bank.accountNo} ${bank.accountName}${bank.branch ? ` สาขา${bank.branch}` : ''}`)] : []),
    '',
    ...lines,
    `ค่าจัดส่ง: ${formatBahtExact(order.shippingFeeSatang)}`,
    ...(order.discountSatang > 0 ? [`ส่วนลด: -${formatBahtExact(order.discountSatang)}`] : []),
    `ยอดรวม: ${formatBahtExact(order.totalSatang)} (รวมภาษีมูลค่าเพิ่ม ${formatBahtExact(order.vatSatang)})`,
    `วิธีชำระเงิน: ${paymentMethodLabels[order.paymentMethod]}`,
    '',
    `ดูสถานะคำสั่งซื้อ: ${site}/order/delivery?no=${order.orderNo}`,
  ].join('\n');
}

function money(label: string, satang: number, strong = false): string {
  const style = strong ? 'font-weight:600;font-size:17px;' : '';
  return `<tr><td style="padding:4px 0;${style}">${escapeHtml(label)}</td><td style="padding:4px 0;text-align:right;white-space:nowrap;${style}">${escapeHtml(formatBahtExact(satang))}</td></tr>`;
}

/** The order mail: HTML (MJML), the plain-text alternative, the logo and the PromptPay QR inline. */
export async function renderOrderMail(order: OrderView, kind: OrderMailKind, company: CompanyInfo): Promise<Omit<MailMessage, 'to'>> {
  const site = siteUrl();
  const attachments: MailAttachment[] = [logoAttachment()];
  const ask = paymentAsk(order, kind, company);
  const name = order.address.recipientName;
  const rows = order.lines
    .map(
      (line) =>
        `<tr style="border-bottom:1px solid ${colours.line}"><td style="padding:8px 0">${escapeHtml(line.productName)}<br /><span style="color:${colours.muted};font-size:13px">${escapeHtml(line.productCode)} · ${escapeHtml(formatBahtExact(line.unitPriceSatang))} × ${line.amount}</span></td><td style="padding:8px 0;text-align:right;white-space:nowrap;vertical-align:top">${escapeHtml(formatBahtExact(line.lineTotalSatang))}</td></tr>`,
    )
    .join('');
  const totals = [
    money('ราคาสินค้า', order.subtotalSatang),
    ...(order.discountSatang > 0 ? [money(`ส่วนลด${order.promotionCode ? ` (${order.promotionCode})` : ''}`, -order.discountSatang)] : []),
    money(`ค่าจัดส่ง (${order.deliveryName})`, order.shippingFeeSatang),
    money('ยอดรวมทั้งสิ้น', order.totalSatang, true),
  ].join('');
  const sections: string[] = [
    paragraph(`สวัสดีคุณ${name}`),
    ...headLines(order, kind, site)
      .filter((line) => !/^(ชำระเงิน|ติดตามพัสดุ): /.test(line))
      .map((line) => paragraph(line)),
    `<mj-text font-size="15px" color="${colours.muted}">เลขที่คำสั่งซื้อ <strong style="color:${colours.text}">${escapeHtml(order.orderNo)}</strong> · ${escapeHtml(paymentMethodLabels[order.paymentMethod])}</mj-text>`,
  ];
  if (kind === 'shipped' && order.trackingUrl) sections.push(button('ติดตามพัสดุ', order.trackingUrl));
  if (ask.promptpay) {
    const png = await QRCode.toBuffer(ask.promptpay, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 480 });
    attachments.push({ filename: `promptpay-${order.orderNo}.png`, content: png, contentType: 'image/png', cid: 'promptpay-qr' });
    sections.push(
      `<mj-text align="center" font-weight="600">สแกนเพื่อชำระ ${escapeHtml(formatBahtExact(order.totalSatang))} ด้วยพร้อมเพย์</mj-text>`,
      `<mj-image src="cid:promptpay-qr" alt="QR พร้อมเพย์ ยอด ${escapeHtml(formatBahtExact(order.totalSatang))}" width="240px" height="240px" />`,
    );
  }
  if (ask.banks.length > 0) {
    sections.push(
      `<mj-text font-weight="600">โอนเงิน ${escapeHtml(formatBahtExact(order.totalSatang))} เข้าบัญชี</mj-text>`,
      `<mj-table>${ask.banks
        .map((bank) => `<tr><td style="padding:4px 0">${escapeHtml(bank.bank)}${bank.branch ? ` สาขา${escapeHtml(bank.branch)}` : ''}<br /><strong>${escapeHtml(bank.accountNo)}</strong> ${escapeHtml(bank.accountName)}</td></tr>`)
        .join('')}</mj-table>`,
    );
  }
  if (kind === 'placed' && order.paymentMethod !== 'cod' && order.status === 'pending_payment') {
    sections.push(button('ชำระเงินและแนบสลิป', `${site}/order/payment?no=${encodeURIComponent(order.orderNo)}`));
    if (order.expiresAt) {
      const until = new Intl.DateTimeFormat('th-TH', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Asia/Bangkok' }).format(new Date(order.expiresAt));
      sections.push(paragraph(`กรุณาชำระเงินภายใน ${until} น.`, `font-size="14px" color="${colours.muted}"`));
    }
  }
  sections.push(`<mj-table>${rows}</mj-table>`, `<mj-table>${totals}</mj-table>`);
  sections.push(paragraph(`ราคารวมภาษีมูลค่าเพิ่ม ${formatBahtExact(order.vatSatang)}`, `font-size="13px" color="${colours.muted}"`));
  const address = order.address;
  sections.push(
    `<mj-text font-size="14px"><strong>ที่อยู่จัดส่ง</strong><br />${escapeHtml(address.recipientName)} · ${escapeHtml(address.phone)}<br />${escapeHtml(address.line1)} ${escapeHtml(address.subdistrict)} ${escapeHtml(address.district)} ${escapeHtml(address.province)} ${escapeHtml(address.postcode)}</mj-text>`,
  );
  sections.push(
    `<mj-text font-size="14px"><a href="${escapeHtml(safeUrl(`${site}/order/delivery?no=${encodeURIComponent(order.orderNo)}`))}" style="color:${colours.greenDark}">ดูสถานะคำสั่งซื้อ</a></mj-text>`,
  );
  const html = await renderLayout({
    title: titles[kind],
    preheader: `${subjects[kind](order.orderNo)} · ยอดรวม ${formatBahtExact(order.totalSatang)}`,
    company,
    site,
    body: sections.join('\n'),
  });
  return { subject: subjects[kind](order.orderNo), text: orderMailText(order, kind, company), html, attachments };
}
