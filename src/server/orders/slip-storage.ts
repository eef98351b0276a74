import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import { env } from '../env.ts';
import { badRequest } from '../http/errors.ts';
import { storage } from '../storage/storage.ts';
import { withDecodeSlot } from '../storage/decode-slots.ts';
import { MAX_PICTURE_PIXELS } from '../storage/images.ts';

/**
 * Payment slips: checked by their first bytes (a name or a Content-Type proves nothing), stored in the
 * PRIVATE part of the shop's storage (DATA_DIR/uploads/private/slips, or the S3 bucket's private/ prefix,
 * so every instance reads the same slips) with a random name, and read back only through an endpoint that
 * checks who asks. The stored name (`<32 hex>.<ext>`) is what orders.slip_path keeps.
 *
 * What is stored is never the uploaded file (docs/decisions/195): the picture is decoded in a decode slot
 * (refused above 40 megapixels before decoding), turned upright, and written again as WebP, so no EXIF,
 * GPS position, ICC profile or anything hidden after the image data is kept. The QR is read from the
 * upload before that and its reading is stored with the order, so the original is not kept anywhere.
 */
export const MAX_SLIP_BYTES = 5 * 1024 * 1024;

export type SlipType = { ext: 'jpg' | 'png' | 'webp'; contentType: 'image/jpeg' | 'image/png' | 'image/webp' };

export function sniffImage(bytes: Uint8Array): SlipType | null {
  const at = (offset: number, ...values: number[]) => values.every((value, index) => bytes[offset + index] === value);
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return { ext: 'jpg', contentType: 'image/jpeg' };
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { ext: 'png', contentType: 'image/png' };
  // RIFF....WEBP
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return { ext: 'webp', contentType: 'image/webp' };
  return null;
}

/** The longest side a stored slip keeps: a phone's full-height screenshot (1080 × 2400) fits whole. */
export const SLIP_MAX_SIDE = 2400;

export const slipTooLarge = () => badRequest('slip_too_large', 'ไฟล์สลิปต้องมีขนาดไม่เกิน 5 MB');
export const slipNotImage = () => badRequest('slip_invalid_type', 'ไฟล์สลิปต้องเป็นรูปภาพ JPEG, PNG หรือ WebP เท่านั้น');

export const slipTooManyPixels = () =>
  badRequest('slip_too_many_pixels', 'รูปสลิปมีความละเอียดเกินกำหนด (ไม่เกิน 40 ล้านพิกเซล) กรุณาส่งภาพหน้าจอสลิปจากแอปธนาคาร หรือย่อรูปก่อนแนบ');

/** Refuses anything that is not a JPEG, PNG or WebP of at most 5 MB; nothing is written here. */
export function checkSlip(bytes: Uint8Array): SlipType {
  if (bytes.length === 0) throw badRequest('slip_missing', 'กรุณาเลือกไฟล์สลิปการโอนเงิน');
  if (bytes.length > MAX_SLIP_BYTES) throw slipTooLarge();
  const type = sniffImage(bytes);
  if (!type) throw slipNotImage();
  return type;
}

/** Where slips lived before they moved onto the storage module; still read so older orders keep their slip. */
function legacySlipFile(name: string): string {
  return path.join(path.resolve(env().DATA_DIR, 'slips'), name);
}

function slipKey(name: string): string {
  if (!/^[a-f0-9]{32}\.(jpg|png|webp)$/.test(name)) throw new Error('bad slip name');
  return `slips/${name}`;
}

/** Reads the header only: a picture claiming more than 40 megapixels is refused before it is decoded. */
async function checkSlipPixels(bytes: Uint8Array): Promise<void> {
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw slipNotImage();
  }
  if (!metadata.width || !metadata.height) throw slipNotImage();
  if (metadata.width * metadata.height * Math.max(1, metadata.pages ?? 1) > MAX_PICTURE_PIXELS) throw slipTooManyPixels();
}

/**
 * The slip as it is kept: decoded (in a decode slot, like every picture), turned upright by its EXIF
 * orientation, scaled into SLIP_MAX_SIDE, and written as WebP with no metadata at all (sharp keeps
 * none unless asked). A file that only looks like a picture is refused here, before anything is stored.
 */
export function cleanSlip(bytes: Uint8Array): Promise<{ bytes: Uint8Array; type: SlipType; width: number; height: number }> {
  return withDecodeSlot(async () => {
    await checkSlipPixels(bytes);
    try {
      const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS, failOn: 'error' })
        .autoOrient()
        .resize({ width: SLIP_MAX_SIDE, height: SLIP_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .toColourspace('srgb')
        .webp({ quality: 90 })
        .toBuffer({ resolveWithObject: true });
      return { bytes: new Uint8Array(data), type: { ext: 'webp', contentType: 'image/webp' }, width: info.width, height: info.height };
    } catch {
      throw slipNotImage();
    }
  });
}

/** Writes the (cleaned) slip and returns its stored name. */
export async function storeSlip(bytes: Uint8Array, type: SlipType): Promise<string> {
  const name = `${randomBytes(16).toString('hex')}.${type.ext}`;
  await storage().put('private', slipKey(name), bytes, type.contentType);
  return name;
}

export async function readSlip(name: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  const stored = await storage().get('private', slipKey(name));
  const bytes = stored?.bytes ?? new Uint8Array(await readFile(legacySlipFile(name)));
  return { bytes, contentType: sniffImage(bytes)?.contentType ?? 'application/octet-stream' };
}

export async function removeSlip(name: string): Promise<void> {
  await storage().delete('private', slipKey(name));
  await rm(legacySlipFile(name), { force: true });
}
