import sharp from 'sharp';
import { log } from '../log.ts';
import { storage } from '../storage/storage.ts';
import { storePicture, type PictureFolder, type StoredPicture } from '../storage/images.ts';
import { demoImageKinds, demoImageSvg } from './demo-image.ts';

/**
 * The demo catalog's pictures go through the same path as an uploaded picture (sharp: checked, WebP at a
 * few widths, content-hashed names, served from /media with width, height and srcset). Rasterising one
 * picture costs about 37 ms on the 2-core machine, and the test suites seed the 360-product demo many
 * times, so the demo shares a handful of pictures (VARIANTS per drawing) instead of one per product, and
 * remembers them in a small manifest in the storage: a warm seed reads one object and draws nothing.
 * See docs/decisions/101-shared-demo-pictures.md.
 */
export const DEMO_PICTURE_VARIANTS = 2;
const MANIFEST_KEY = 'demo/pictures-v1.json';

export type DemoPictures = Map<string, StoredPicture>;

function names(): { name: string; folder: PictureFolder }[] {
  const list: { name: string; folder: PictureFolder }[] = [];
  for (const kind of demoImageKinds) {
    for (let variant = 0; variant < DEMO_PICTURE_VARIANTS; variant++) {
      list.push({ name: `${kind}-demo-${variant}`, folder: kind === 'photo' ? 'gallery' : 'products' });
    }
  }
  for (let variant = 0; variant < DEMO_PICTURE_VARIANTS; variant++) list.push({ name: `banner-demo-${variant}`, folder: 'banners' });
  return list;
}

let memo: Promise<DemoPictures> | undefined;

/** The shared demo pictures, drawn and stored on first use (per storage), then read from the manifest. */
export function demoPictures(): Promise<DemoPictures> {
  memo ??= loadOrDraw().catch((error: unknown) => {
    memo = undefined;
    throw error;
  });
  return memo;
}

/** Tests that swap the storage driver start over. */
export function forgetDemoPictures(): void {
  memo = undefined;
}

async function loadOrDraw(): Promise<DemoPictures> {
  const driver = storage();
  const wanted = names();
  const manifest = await driver.get('private', MANIFEST_KEY).catch(() => null);
  if (manifest) {
    try {
      const entries = JSON.parse(new TextDecoder().decode(manifest.bytes)) as [string, StoredPicture][];
      const map = new Map(entries);
      const first = entries[0]?.[1];
      if (wanted.every((entry) => map.has(entry.name)) && first && (await driver.exists('public', first.key))) return map;
    } catch {
      // An unreadable manifest is drawn again below.
    }
  }
  const started = Date.now();
  const map: DemoPictures = new Map();
  for (const { name, folder } of wanted) {
    const png = await sharp(Buffer.from(demoImageSvg(name))).png({ compressionLevel: 1 }).toBuffer();
    map.set(name, await storePicture(new Uint8Array(png), folder));
  }
  await driver.put('private', MANIFEST_KEY, new TextEncoder().encode(JSON.stringify([...map])), 'application/json');
  log.info('demo pictures drawn', { count: map.size, ms: Date.now() - started });
  return map;
}

function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 16777619);
  }
  return value >>> 0;
}

/** The stored picture standing in for a demo drawing such as `lipstick-P00012-2` (same kind, a shared variant). */
export function demoPictureFor(pictures: DemoPictures, name: string): StoredPicture {
  const [kind = 'gift'] = name.split('-', 1);
  const variant = hash(name) % DEMO_PICTURE_VARIANTS;
  const picture = pictures.get(`${kind}-demo-${variant}`) ?? pictures.get(`gift-demo-${variant}`);
  if (!picture) throw new Error(`no demo picture for ${name}`);
  return picture;
}
