import { createRequire } from 'node:module';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { getCompany } from '../company/company.service.ts';
import { notFound } from '../http/errors.ts';
import { formatBahtExact } from '../../lib/money.ts';
import type { Actor } from './order-actors.ts';
import { getOrder } from './order-read.ts';
import { orderPromptPayPayload } from './order.service.ts';

/**
 * The PromptPay QR of an order as a picture to save (issue 29): a shopper paying on the phone that shows
 * the QR cannot scan it, but every Thai bank app scans a QR from a saved picture. The amount and the
 * order number are printed under the QR so the picture still says what it pays among the phone's photos.
 */

const QR_SIZE = 600;
const SIDE_MARGIN = 40;
const CAPTION_GAP = 8;
const BOTTOM_MARGIN = 36;

const require = createRequire(import.meta.url);
// sharp draws text through Pango and the fonts the machine has; a server often has no Thai face at all
// (the text would come out as boxes), so the caption is set in Sarabun from the package the PDFs use.
const captionFont = require.resolve('@expo-google-fonts/sarabun/600SemiBold/Sarabun_600SemiBold.ttf');

/** Pango markup: the caption is our own words and an order number, escaped all the same. */
function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The payload's QR with the caption lines centred under it, as a PNG. */
export async function qrPicture(payload: string, captionLines: string[]): Promise<Buffer> {
  const qr = await QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: QR_SIZE });
  const caption = await sharp({
    text: {
      text: `<span foreground="#000000">${captionLines.map(escapeMarkup).join('\n')}</span>`,
      font: 'Sarabun SemiBold 34',
      fontfile: captionFont,
      align: 'centre',
      dpi: 72,
      rgba: true,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  const width = Math.max(QR_SIZE, caption.info.width + 2 * SIDE_MARGIN);
  const height = QR_SIZE + CAPTION_GAP + caption.info.height + BOTTOM_MARGIN;
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([
      { input: qr, top: 0, left: Math.round((width - QR_SIZE) / 2) },
      { input: caption.data, top: QR_SIZE + CAPTION_GAP, left: Math.round((width - caption.info.width) / 2) },
    ])
    .png()
    .toBuffer();
}

/**
 * The saved-picture QR of an order the actor may see (a member: their own; staff: any, as with the other
 * order documents), named `<order-no>.png`; 404 for anyone else's order and for an order with no
 * PromptPay to pay (paid, cancelled, PromptPay off).
 */
export async function paymentQrPng(actor: Actor, orderNo: string): Promise<{ bytes: Buffer; filename: string }> {
  const order = await getOrder(actor, orderNo);
  const payload = orderPromptPayPayload(order, await getCompany());
  if (!payload) throw notFound('payment_qr_not_available', 'คำสั่งซื้อนี้ไม่มี QR พร้อมเพย์ให้ชำระแล้ว');
  const amount = formatBahtExact(order.totalSatang);
  return {
    bytes: await qrPicture(payload, [`ยอดชำระ ${amount}`, `คำสั่งซื้อ ${order.orderNo}`]),
    filename: `${order.orderNo}.png`,
  };
}
