import generatePayload from 'promptpay-qr';
import QRCode from 'qrcode';

/**
 * A PromptPay "Thai QR" payload (EMVCo merchant-presented, tag 29 with the PromptPay AID, amount in
 * tag 54, CRC-16/CCITT in tag 63) for the shop's PromptPay id (phone, tax id or e-wallet id) and the
 * exact amount, so the banking app fills both in. `promptpay-qr` builds the TLV; the unit test decodes
 * it with an independent parser.
 */
export function promptPayPayload(promptpayId: string, amountSatang: number): string {
  if (!/^\d{10,15}$/.test(promptpayId.replace(/[^0-9]/g, ''))) throw new Error('PromptPay id must be 10–15 digits');
  if (!Number.isInteger(amountSatang) || amountSatang <= 0) throw new Error('amount must be a positive number of satang');
  return generatePayload(promptpayId, { amount: amountSatang / 100 });
}

/** The payload drawn as an SVG (crisp at any size, no image request, no external service). */
export async function qrSvg(payload: string): Promise<string> {
  return QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
}
