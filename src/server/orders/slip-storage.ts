import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { env } from '../env.ts';
import { badRequest } from '../http/errors.ts';
import { storage } from '../storage/storage.ts';

/**
 * Payment slips: checked by their first bytes (a name or a Content-Type proves nothing), stored in the
 * PRIVATE part of the shop's storage (DATA_DIR/uploads/private/slips, or the S3 bucket's private/ prefix,
 * so every instance reads the same slips) with a random name, and read back only through an endpoint that
 * checks who asks. The stored name (`<32 hex>.<ext>`) is what orders.slip_path keeps.
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

export const slipTooLarge = () => badRequest('slip_too_large', 'ไฟล์สลิปต้องมีขนาดไม่เกิน 5 MB');
export const slipNotImage = () => badRequest('slip_invalid_type', 'ไฟล์สลิปต้องเป็นรูปภาพ JPEG, PNG หรือ WebP เท่านั้น');

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

/** Writes the slip and returns its stored name. */
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
