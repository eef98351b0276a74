import sharp from 'sharp';
import jsQR from 'jsqr';
import { parse } from 'promptparse';
import { slipVerify, trueMoneySlipVerify } from 'promptparse/validate';
import { bankName } from '../../lib/thai-banks.ts';
import { errorFields, log } from '../log.ts';
import { withDecodeSlot } from '../storage/decode-slots.ts';

/**
 * What a slip's "slip verify" mini QR says (docs/design.md section 14). The pixels come from sharp (any JPEG,
 * PNG or WebP, EXIF orientation applied, greyscale), jsQR finds and decodes the code, promptparse checks
 * the payload's structure and CRC and gives the sending bank and the transaction reference.
 *
 * - `verified`: a slip-verify payload, bank and reference read;
 * - `warning`: a QR was read but something is off (not a slip-verify QR, or its checksum had to be
 *   wrong): the reference, when there is one, is still guarded, and staff look carefully;
 * - `no_qr`: nothing readable: the slip is accepted and marked for a manual check (ตรวจสอบด้วยตนเอง).
 */
export type SlipCheckStatus = 'verified' | 'warning' | 'no_qr';

export interface SlipReading {
  status: SlipCheckStatus;
  /** Bank code as on the slip (e.g. 004), 'TRUEMONEY' for TrueMoney wallet slips. */
  bank: string | null;
  reference: string | null;
  warning: string | null;
  /** The raw QR text, kept for staff when it was not a slip-verify payload (cut to 512 chars). */
  payload: string | null;
}

/** Longest sides the decoder tries: big phone photos are scaled down first (speed), then smaller still (noise). */
const DECODE_SIDES = [1400, 800] as const;

async function luminance(bytes: Uint8Array, maxSide: number): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const { data, info } = await withDecodeSlot(() =>
    sharp(bytes, { limitInputPixels: 40_000_000 })
      .rotate() // EXIF orientation of phone photos
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The first QR text found in the picture, or null. Never throws on a broken picture. */
export async function findQrText(bytes: Uint8Array): Promise<string | null> {
  try {
    for (const side of DECODE_SIDES) {
      // jsQR locates the finder patterns at any angle, so a turned photo needs no turned copies.
      const { data, width, height } = await luminance(bytes, side);
      const found = jsQR(data, width, height, { inversionAttempts: 'attemptBoth' });
      if (found?.data) return found.data;
    }
  } catch (error) {
    // A picture sharp cannot read still passed the type check: staff look at it by hand.
    log.info('slip picture could not be decoded for a QR', errorFields(error));
  }
  return null;
}

/**
 * Reads the payload: slip-verify (banks; promptparse pads the short CRC some bank apps write), then
 * TrueMoney's variant. A slip-verify structure whose CRC is wrong still gives bank and reference (they are
 * guarded like any other) with a warning; any other QR is a warning with its text kept for staff.
 */
export function parseSlipPayload(text: string): SlipReading {
  const payload = text.trim();
  const slip = slipVerify(payload, true);
  if (slip) return { status: 'verified', bank: slip.sendingBank, reference: slip.transRef, warning: null, payload: null };
  const trueMoney = trueMoneySlipVerify(payload);
  if (trueMoney?.transactionId) {
    return { status: 'verified', bank: 'TRUEMONEY', reference: trueMoney.transactionId, warning: null, payload: null };
  }
  const loose = parse(payload, false, true);
  const bank = loose?.getTagValue('00', '01');
  const reference = loose?.getTagValue('00', '02');
  if (loose?.getTagValue('00', '00') === '000001' && bank && reference) {
    return {
      status: 'warning',
      bank,
      reference,
      warning: 'รหัสตรวจสอบ (CRC) ของ QR ในสลิปไม่ถูกต้อง สลิปอาจถูกแก้ไข โปรดตรวจสอบยอดเงินกับบัญชีธนาคาร',
      payload: payload.slice(0, 512),
    };
  }
  return {
    status: 'warning',
    bank: null,
    reference: null,
    warning: 'QR ในรูปไม่ใช่ QR ตรวจสอบสลิปของธนาคาร (อาจเป็น QR รับเงิน ไม่ใช่สลิป)',
    payload: payload.slice(0, 512),
  };
}

export async function readSlipQr(bytes: Uint8Array): Promise<SlipReading> {
  const text = await findQrText(bytes);
  if (text === null) return { status: 'no_qr', bank: null, reference: null, warning: null, payload: null };
  const reading = parseSlipPayload(text);
  if (reading.status === 'verified' && reading.bank && reading.bank !== 'TRUEMONEY' && !bankName(reading.bank)) {
    return { ...reading, status: 'warning', warning: `ไม่รู้จักรหัสธนาคารผู้โอน ${reading.bank}` };
  }
  return reading;
}
