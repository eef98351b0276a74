import { describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { storePicture, srcsetFor } from '../../src/server/storage/images';
import { storage } from '../../src/server/storage/storage';
import { AppError } from '../../src/server/http/errors';
import { pictureSrcset, storedWidths } from '../../src/lib/pictures';
import { GET as media } from '../../src/pages/media/[...key]';
import type { APIContext } from 'astro';

const folder = () => path.resolve(process.env.DATA_DIR as string, 'uploads', 'public', 'gallery');

async function storedFiles(): Promise<string[]> {
  try {
    return await readdir(folder());
  } catch {
    return [];
  }
}

async function refused(bytes: Uint8Array, code: string): Promise<void> {
  const before = await storedFiles();
  await expect(storePicture(bytes, 'gallery')).rejects.toSatisfy(
    (error: unknown) => error instanceof AppError && error.status === 400 && error.code === code && /[\u0E00-\u0E7F]/.test(error.message),
  );
  expect(await storedFiles()).toEqual(before);
}

describe('storePicture', () => {
  it('refuses a file that is not a picture, whatever its name says, and stores nothing', async () => {
    await refused(new TextEncoder().encode('<?php echo "hi"; ?>'), 'picture_invalid_type');
    await refused(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'picture_invalid_type');
  });

  it('refuses a 60-megapixel PNG before decoding it', async () => {
    const huge = await sharp({ create: { width: 8000, height: 7500, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(huge.length).toBeLessThan(15 * 1024 * 1024);
    await refused(new Uint8Array(huge), 'picture_too_many_pixels');
  });

  it('refuses a 20 MB file', async () => {
    const small = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).jpeg().toBuffer();
    const padded = new Uint8Array(20 * 1024 * 1024);
    padded.set(small);
    await refused(padded, 'picture_too_large');
  });

  it('strips EXIF (camera, GPS…) and stores WebP at 320/640/1280, never wider than the original', async () => {
    const photo = await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#39b54a' } })
      .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'บ้านเลขที่ 99' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const stored = await storePicture(new Uint8Array(photo), 'gallery');
    expect(stored).toMatchObject({ width: 1280, height: 960, widths: [320, 640, 1280] });
    expect(stored.url).toMatch(/^\/media\/gallery\/[a-f0-9]{24}-1280\.webp$/);
    for (const width of stored.widths) {
      const object = await storage().get('public', stored.key.replace(/-1280\.webp$/, `-${width}.webp`));
      const metadata = await sharp(object!.bytes).metadata();
      expect(metadata).toMatchObject({ format: 'webp', width });
      expect(metadata.exif).toBeUndefined();
    }
    // The shop derives the same srcset from the URL alone.
    expect(pictureSrcset(stored.url)).toBe(srcsetFor(stored.url, stored.widths));

    const small = await storePicture(new Uint8Array(await sharp({ create: { width: 500, height: 250, channels: 3, background: '#f00' } }).png().toBuffer()), 'gallery');
    expect(small).toMatchObject({ width: 500, height: 250, widths: [320, 500] });
    expect(storedWidths(small.url)).toEqual([320, 500]);
    const tiny = await storePicture(new Uint8Array(await sharp({ create: { width: 200, height: 200, channels: 3, background: '#00f' } }).webp().toBuffer()), 'gallery');
    expect(tiny.widths).toEqual([200]);
  });

  it('the same picture uploaded twice is stored once (content-hashed names) and served for a year', async () => {
    const bytes = new Uint8Array(await sharp({ create: { width: 700, height: 700, channels: 3, background: '#abc' } }).png().toBuffer());
    const first = await storePicture(bytes, 'gallery');
    const count = (await storedFiles()).length;
    const second = await storePicture(bytes, 'gallery');
    expect(second.url).toBe(first.url);
    expect((await storedFiles()).length).toBe(count);
    const response = await media({ params: { key: first.key } } as unknown as APIContext);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toContain('max-age=31536000');
  });
});

describe('pictures decoded at once', () => {
  it('twelve uploads and slips at the same time decode at most two at a time, and all are stored or read', async () => {
    const { decodeSlots, PICTURE_DECODE_SLOTS } = await import('../../src/server/storage/decode-slots');
    const { findQrText } = await import('../../src/server/payments/slip-qr');
    const pictures = await Promise.all(
      Array.from({ length: 12 }, (_, n) => sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: n * 20, g: 90, b: 200 - n * 10 } } }).png().toBuffer()),
    );
    decodeSlots.resetPeak();
    // What libvips itself works on, sampled while the uploads run: no more than the slots allow.
    let busiest = 0;
    const sampler = setInterval(() => (busiest = Math.max(busiest, sharp.counters().process)), 1);
    try {
      const stored = await Promise.all([
        ...pictures.map((png) => storePicture(new Uint8Array(png), 'gallery')),
        ...pictures.slice(0, 4).map((png) => findQrText(new Uint8Array(png))),
      ]);
      expect(stored.slice(0, 12).every((picture) => picture !== null && typeof picture === 'object' && picture.width === 1280)).toBe(true);
    } finally {
      clearInterval(sampler);
    }
    expect(PICTURE_DECODE_SLOTS).toBe(2);
    expect(decodeSlots.peak()).toBe(PICTURE_DECODE_SLOTS);
    expect(busiest).toBeLessThanOrEqual(PICTURE_DECODE_SLOTS);
    expect(decodeSlots.inUse()).toBe(0);
    expect(decodeSlots.waiting()).toBe(0);
  });
});
