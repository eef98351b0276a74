import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { env } from '../env.ts';
import { parseStorageUrl, s3Driver } from './s3.ts';

/**
 * One storage for everything uploaded (docs/design.md section 11): product, category, banner, gallery and page
 * pictures (public) and payment slips (private). Keys are relative paths such as
 * `products/3f9a…-640.webp`; the driver decides where the bytes live. Public objects are served at
 * `/media/<key>` with a year of caching (their names are content hashes); private ones only through
 * endpoints that check who asks.
 */
export type Visibility = 'public' | 'private';

export interface StoredObject {
  bytes: Uint8Array;
  contentType: string;
}

export interface StorageDriver {
  readonly name: string;
  put(visibility: Visibility, key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(visibility: Visibility, key: string): Promise<StoredObject | null>;
  delete(visibility: Visibility, key: string): Promise<void>;
  exists(visibility: Visibility, key: string): Promise<boolean>;
}

/** Keys are made by the shop, never taken from a request as they are: one shape, no `..`, no leading slash. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9._-]*)+$/;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.includes('..') && key.length <= 200;
}

function assertKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

export function contentTypeFor(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** A directory under DATA_DIR: `uploads/public/<key>` and `uploads/private/<key>`. */
export function localDriver(root = path.resolve(env().DATA_DIR, 'uploads')): StorageDriver {
  const fileOf = (visibility: Visibility, key: string) => {
    assertKey(key);
    return path.join(root, visibility, key);
  };
  return {
    name: 'local',
    async put(visibility, key, bytes) {
      const file = fileOf(visibility, key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write aside, then rename: a reader never sees half a file, and a crash leaves no torn object.
      const temporary = `${file}.${randomBytes(6).toString('hex')}.part`;
      await writeFile(temporary, bytes, { mode: visibility === 'private' ? 0o600 : 0o644 });
      await rename(temporary, file);
    },
    async get(visibility, key) {
      try {
        const bytes = new Uint8Array(await readFile(fileOf(visibility, key)));
        return { bytes, contentType: contentTypeFor(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(visibility, key) {
      await rm(fileOf(visibility, key), { force: true });
    },
    async exists(visibility, key) {
      try {
        await stat(fileOf(visibility, key));
        return true;
      } catch {
        return false;
      }
    },
  };
}

const holderKey = Symbol.for('yimlamai.storage');
type Holder = Record<symbol, StorageDriver | undefined>;

/** The process storage driver, chosen once from the configuration (STORAGE_URL: S3; unset: DATA_DIR/uploads). */
export function storage(): StorageDriver {
  const holder = globalThis as unknown as Holder;
  const url = env().STORAGE_URL;
  holder[holderKey] ??= url ? s3Driver(parseStorageUrl(url)) : localDriver();
  return holder[holderKey];
}

/** For tests and for the S3 driver's start-up: replace the process driver. */
export function setStorage(driver: StorageDriver | undefined): void {
  (globalThis as unknown as Holder)[holderKey] = driver;
}

/** The public address of a public object. */
export function publicUrl(key: string): string {
  assertKey(key);
  return `/media/${key}`;
}
