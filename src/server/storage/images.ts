import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { badRequest } from '../http/errors.ts';
import { publicUrl, storage } from './storage.ts';
import { withDecodeSlot } from './decode-slots.ts';

/**
 * Every uploaded picture goes through here (docs/design.md section 11): checked by its content (a name or a
 * Content-Type proves nothing), refused above a pixel limit before it is decoded (decompression bombs),
 * turned upright and stripped of EXIF (sharp drops metadata unless asked to keep it), and stored as WebP at
 * a few widths under content-hashed names, so the same picture uploaded twice is stored once and every
 * stored name can be cached for a year.
 */
export const MAX_PICTURE_BYTES = 15 * 1024 * 1024;
/** 40 megapixels: a 60 MP PNG (or a small file that claims to be huge) is refused before decoding. */
export const MAX_PICTURE_PIXELS = 40_000_000;
export const PICTURE_WIDTHS = [320, 640, 1280] as const;

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif']);

export type PictureFolder = 'products' | 'categories' | 'brands' | 'banners' | 'gallery' | 'pages' | 'wrappings' | 'reviews';

export interface StoredPicture {
  /** The key of the widest variant; the others share its stem (see srcsetFor). */
  key: string;
  url: string;
  width: number;
  height: number;
  /** Widths actually written (never wider than the original). */
  widths: number[];
}

export const pictureTooLarge = () => badRequest('picture_too_large', 'ไฟล์รูปภาพต้องมีขนาดไม่เกิน 15 MB');
export const pictureNotImage = () => badRequest('picture_invalid_type', 'ไฟล์นี้ไม่ใช่รูปภาพที่รองรับ (JPEG, PNG, WebP, GIF, AVIF หรือ HEIC)');
export const pictureTooManyPixels = () =>
  badRequest('picture_too_many_pixels', 'รูปภาพมีความละเอียดเกินกำหนด (ไม่เกิน 40 ล้านพิกเซล) กรุณาย่อรูปก่อนอัปโหลด');

/** Reads the header only: format and size, without decoding the pixels. */
export async function inspectPicture(bytes: Uint8Array): Promise<{ format: string; width: number; height: number }> {
  if (bytes.length === 0) throw badRequest('picture_missing', 'กรุณาเลือกไฟล์รูปภาพ');
  if (bytes.length > MAX_PICTURE_BYTES) throw pictureTooLarge();
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw pictureNotImage();
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format) || !metadata.width || !metadata.height) throw pictureNotImage();
  if (metadata.width * metadata.height * Math.max(1, metadata.pages ?? 1) > MAX_PICTURE_PIXELS) throw pictureTooManyPixels();
  return { format: metadata.format, width: metadata.width, height: metadata.height };
}

/**
 * Checks, cleans and stores a picture in the public storage; returns what an <img> needs. One picture at
 * a time per decode slot (decode-slots.ts), so parallel uploads cannot hold many bitmaps at once.
 */
export function storePicture(bytes: Uint8Array, folder: PictureFolder): Promise<StoredPicture> {
  return withDecodeSlot(() => decodeAndStore(bytes, folder));
}

async function decodeAndStore(bytes: Uint8Array, folder: PictureFolder): Promise<StoredPicture> {
  await inspectPicture(bytes);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 24);
  let upright: { data: Buffer; info: OutputInfo };
  try {
    upright = await sharp(bytes, { limitInputPixels: MAX_PICTURE_PIXELS, failOn: 'error' })
      .autoOrient()
      .toColourspace('srgb')
      .png({ compressionLevel: 0 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw pictureNotImage();
  }
  const { width, height } = upright.info;
  const widths: number[] = PICTURE_WIDTHS.filter((candidate) => candidate < width);
  widths.push(Math.min(width, PICTURE_WIDTHS[PICTURE_WIDTHS.length - 1]!));
  const unique = [...new Set(widths)].sort((a, b) => a - b);
  const driver = storage();
  for (const variantWidth of unique) {
    const key = `${folder}/${hash}-${variantWidth}.webp`;
    if (await driver.exists('public', key)) continue;
    const webp = await sharp(upright.data).resize({ width: variantWidth, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
    await driver.put('public', key, new Uint8Array(webp), 'image/webp');
  }
  const widest = unique[unique.length - 1]!;
  const key = `${folder}/${hash}-${widest}.webp`;
  return { key, url: publicUrl(key), width: widest, height: Math.round((height * widest) / width), widths: unique };
}

/** `srcset` for a stored picture URL (`/media/<folder>/<hash>-<width>.webp`); empty for any other URL. */
export function srcsetFor(url: string, widths: readonly number[]): string {
  const match = /^(\/media\/[a-z]+\/[a-f0-9]{24})-\d+\.webp$/.exec(url);
  if (!match) return '';
  return widths.map((width) => `${match[1]}-${width}.webp ${width}w`).join(', ');
}
