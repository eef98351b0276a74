import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { env } from '../env.ts';
import { assertKey, contentTypeFor, type StorageDriver, type Visibility } from './driver.ts';
import { parseStorageUrl, s3Driver } from './s3.ts';

/**
 * One storage for everything uploaded (docs/design.md section 11): product, category, banner, gallery and page
 * pictures (public) and payment slips (private). Keys are relative paths such as
 * `products/3f9a…-640.webp`; the driver decides where the bytes live. Public objects are served at
 * `/media/<key>` with a year of caching (their names are content hashes); private ones only through
 * endpoints that check who asks.
 */
export { contentTypeFor, isValidKey, type ListedObject, type StorageDriver, type StoredObject, type Visibility } from './driver.ts';

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
    async list(visibility, prefix) {
      if (prefix !== '') assertKey(`${prefix.replace(/\/$/, '')}/x`);
      const folder = path.join(root, visibility, prefix);
      let names: string[];
      try {
        names = await readdir(folder, { recursive: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const listed = [];
      for (const name of names) {
        const info = await stat(path.join(folder, name)).catch(() => null);
        const relative = name.split(path.sep).join('/');
        if (info?.isFile()) listed.push({ key: prefix === '' ? relative : `${prefix.replace(/\/$/, '')}/${relative}`, modifiedAt: info.mtime });
      }
      return listed;
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
