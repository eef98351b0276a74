/**
 * What a storage driver is and the rules every driver shares (key shape, content type by extension).
 * Its own module so that the drivers (local in storage.ts, S3 in s3.ts) and the chooser import it
 * without importing each other.
 */
export type Visibility = 'public' | 'private';

export interface StoredObject {
  bytes: Uint8Array;
  contentType: string;
}

export interface ListedObject {
  key: string;
  modifiedAt: Date;
}

export interface StorageDriver {
  readonly name: string;
  put(visibility: Visibility, key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(visibility: Visibility, key: string): Promise<StoredObject | null>;
  delete(visibility: Visibility, key: string): Promise<void>;
  exists(visibility: Visibility, key: string): Promise<boolean>;
  /** Every object whose key starts with `prefix` (a folder such as `imports/`; '' for all), with when it was written. */
  list(visibility: Visibility, prefix: string): Promise<ListedObject[]>;
}

/** Keys are made by the shop, never taken from a request as they are: one shape, no `..`, no leading slash. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9._-]*)+$/;

export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.includes('..') && key.length <= 200;
}

export function assertKey(key: string): void {
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
