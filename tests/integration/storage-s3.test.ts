import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import S3rver from 's3rver';
import type { APIContext } from 'astro';
import { parseStorageUrl, s3Driver } from '../../src/server/storage/s3';
import { setStorage, storage, type StorageDriver } from '../../src/server/storage/storage';
import { storePicture } from '../../src/server/storage/images';
import { checkSlip, readSlip, removeSlip, storeSlip } from '../../src/server/orders/slip-storage';
import { GET as media } from '../../src/pages/media/[...key]';

/**
 * The S3 driver against a real S3-protocol server (s3rver, started here on a free port), not a mock:
 * signed requests, HEAD for missing objects, bodies and content types as S3 sends them.
 */
let server: S3rver;
let directory: string;
let driver: StorageDriver;
const BUCKET = 'shop-uploads';

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = (await server.run()) as AddressInfo;
  driver = s3Driver({
    bucket: BUCKET,
    endpoint: `http://127.0.0.1:${address.port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  setStorage(driver);
});

afterAll(async () => {
  setStorage(undefined);
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('S3 storage driver', () => {
  it('reads STORAGE_URL', () => {
    expect(parseStorageUrl('s3://shop-uploads?endpoint=https://minio.example:9000&region=ap-southeast-1')).toEqual({
      bucket: 'shop-uploads',
      endpoint: 'https://minio.example:9000',
      region: 'ap-southeast-1',
    });
    expect(parseStorageUrl('s3://shop-uploads?region=ap-southeast-7')).toEqual({ bucket: 'shop-uploads', region: 'ap-southeast-7' });
  });

  it('puts, gets, checks and deletes objects, public and private apart', async () => {
    const bytes = new TextEncoder().encode('สวัสดี');
    expect(await driver.exists('public', 'pages/hello.txt')).toBe(false);
    expect(await driver.get('public', 'pages/hello.txt')).toBeNull();
    await driver.put('public', 'pages/hello.txt', bytes, 'text/plain');
    expect(await driver.exists('public', 'pages/hello.txt')).toBe(true);
    expect(await driver.exists('private', 'pages/hello.txt')).toBe(false);
    const object = await driver.get('public', 'pages/hello.txt');
    expect(new TextDecoder().decode(object!.bytes)).toBe('สวัสดี');
    expect(object!.contentType).toBe('text/plain');
    await driver.delete('public', 'pages/hello.txt');
    expect(await driver.exists('public', 'pages/hello.txt')).toBe(false);
    await expect(driver.put('public', '../escape', bytes, 'text/plain')).rejects.toThrow(/invalid storage key/);
  });

  it('lists the objects under a folder with when each was written', async () => {
    const bytes = new TextEncoder().encode('code\n');
    const before = Date.now() - 60_000;
    await driver.put('private', 'imports/a.csv', bytes, 'text/csv');
    await driver.put('private', 'imports/a.json', bytes, 'application/json');
    await driver.put('private', 'slips/b.webp', bytes, 'image/webp');
    await driver.put('public', 'imports/c.csv', bytes, 'text/csv');
    const listed = await driver.list('private', 'imports/');
    expect(listed.map((object) => object.key).sort()).toEqual(['imports/a.csv', 'imports/a.json']);
    for (const object of listed) expect(object.modifiedAt.getTime()).toBeGreaterThan(before);
    expect(await driver.list('private', 'nothing-here/')).toEqual([]);
  });

  it('stores pictures through the pipeline and the shop serves them from the bucket', async () => {
    expect(storage()).toBe(driver);
    const bytes = new Uint8Array(await sharp({ create: { width: 800, height: 400, channels: 3, background: '#ffd000' } }).png().toBuffer());
    const stored = await storePicture(bytes, 'products');
    expect(stored.widths).toEqual([320, 640, 800]);
    for (const width of stored.widths) expect(await driver.exists('public', stored.key.replace(/-800\.webp$/, `-${width}.webp`))).toBe(true);
    const response = await media({ params: { key: stored.key } } as unknown as APIContext);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(new Uint8Array(await response.arrayBuffer())).metadata()).width).toBe(800);
  });

  it('keeps payment slips private: stored, read and removed through the bucket, never served at /media', async () => {
    const png = new Uint8Array(await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } }).png().toBuffer());
    const name = await storeSlip(png, checkSlip(png));
    expect(await driver.exists('private', `slips/${name}`)).toBe(true);
    expect(await driver.exists('public', `slips/${name}`)).toBe(false);
    const read = await readSlip(name);
    expect(read.contentType).toBe('image/png');
    expect(read.bytes).toEqual(png);
    const response = await media({ params: { key: `slips/${name}` } } as unknown as APIContext);
    expect(response.status).toBe(404);
    await removeSlip(name);
    expect(await driver.exists('private', `slips/${name}`)).toBe(false);
  });
});
