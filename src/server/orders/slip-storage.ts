import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { env } from '../env.ts';
import { badRequest } from '../http/errors.ts';

/**
 * Payment slips: checked by their first bytes (a name or a Content-Type proves nothing), stored under
 * DATA_DIR/slips with a random name, never in public/, and read back only through an endpoint that
 * checks who asks.
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

function slipRoot(): string {
  return path.resolve(env().DATA_DIR, 'slips');
}

/** Writes the slip and returns its stored name (relative to DATA_DIR/slips). */
export async function storeSlip(bytes: Uint8Array, type: SlipType): Promise<string> {
  const root = slipRoot();
  await mkdir(root, { recursive: true });
  const name = `${randomBytes(16).toString('hex')}.${type.ext}`;
  await writeFile(path.join(root, name), bytes, { flag: 'wx', mode: 0o600 });
  return name;
}

function resolveStored(name: string): string {
  if (!/^[a-f0-9]{32}\.(jpg|png|webp)$/.test(name)) throw new Error('bad slip name');
  return path.join(slipRoot(), name);
}

export async function readSlip(name: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  const bytes = new Uint8Array(await readFile(resolveStored(name)));
  return { bytes, contentType: sniffImage(bytes)?.contentType ?? 'application/octet-stream' };
}

export async function removeSlip(name: string): Promise<void> {
  await rm(resolveStored(name), { force: true });
}
