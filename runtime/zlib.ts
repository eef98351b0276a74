import { hash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const compressible = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;
const THRESHOLD = 1024;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

type Encoding = 'br' | 'gzip';

/**
 * Compressed bodies of pages served from Astro's route cache, keyed by the body's hash: a cached page
 * is the same bytes on every hit, so it is compressed once (at a higher level) and each hit costs a
 * hash and a lookup instead of a compression. Least recently used entries go first.
 */
const MAX_ENTRIES = 4000;
const MAX_BYTES = 64 * 1024 * 1024;

interface Compressed {
  body: Buffer;
  /** Compressed in haste for the request that rendered it (MISS), not yet at the level of a cached page. */
  fast: boolean;
}
const store = new Map<string, Compressed>();
let storedBytes = 0;

function remember(key: string, entry: Compressed): void {
  // Two requests for the same bytes may both have compressed them: the second replaces the first.
  const previous = store.get(key);
  if (previous) {
    store.delete(key);
    storedBytes -= previous.body.length;
  }
  store.set(key, entry);
  storedBytes += entry.body.length;
  while (store.size > MAX_ENTRIES || storedBytes > MAX_BYTES) {
    const [oldest, value] = store.entries().next().value as [string, Compressed];
    store.delete(oldest);
    storedBytes -= value.body.length;
  }
}

/**
 * A page first compressed in haste is now served from the route cache: it is compressed again at the
 * cached level, once and off this request's path, and later hits get the smaller bytes.
 */
function compressBetter(key: string, entry: Compressed, body: Buffer, encoding: Encoding): void {
  entry.fast = false;
  compress(body, encoding, 'once').then(
    (better) => {
      if (store.get(key) !== entry) return;
      storedBytes += better.length - entry.body.length;
      entry.body = better;
    },
    () => {},
  );
}

/** The encoding a response to this Accept-Encoding gets: brotli, else gzip, else none. */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  if (/\bbr\b(?!\s*;\s*q=0(\.0*)?\b)/.test(header)) return 'br';
  if (/\bgzip\b(?!\s*;\s*q=0(\.0*)?\b)/.test(header)) return 'gzip';
  return null;
}

/**
 * A page rendered for this request is compressed while its shopper waits: brotli quality 2 (0.39 ms
 * for a 70 KB listing page, 12.6 KB) rather than 4 (0.88 ms, 11.4 KB). On two cores the compressor's
 * thread takes CPU from the thread that renders and from the database's, and 8-10 % more bytes cost a
 * phone less than the wait did (docs/decisions/123, 157). A page served from the route cache is
 * compressed at 5, once for all its later hits (`compressBetter` when it was first compressed in
 * haste). A 256 KB window covers any page of the shop.
 */
function compress(body: Buffer, encoding: Encoding, effort: 'fast' | 'once'): Promise<Buffer> {
  if (encoding === 'br') {
    return brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: effort === 'fast' ? 2 : 5,
        [constants.BROTLI_PARAM_LGWIN]: 18,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  return gzipAsync(body, { level: 6 });
}

/**
 * `cacheState`: the route cache's X-Astro-Cache for this page (HIT, STALE, MISS), or undefined when the
 * page is not cached: a cached page's bytes will be sent again, so their compressed form is kept. It
 * is kept for a page just rendered (MISS) too: different URLs often render the same bytes (listing
 * pages past the result window, parameters a page ignores), and one hash costs less than a
 * compression (measured: deep listing pages 876-963 req/s without it, 1,021-1,105 with it).
 */
async function encoded(body: Buffer, encoding: Encoding, cacheState: string | undefined): Promise<Buffer> {
  if (cacheState === undefined) return compress(body, encoding, 'fast');
  // Hashed here, synchronously: Web Crypto's digest runs on libuv's pool but costs this thread more
  // CPU to hand the bytes over than hashing them does, most of all while the pool compresses other
  // pages (docs/decisions/162).
  const key = `${encoding}:${hash('sha1', body, 'base64url')}`;
  const kept = store.get(key);
  if (kept) {
    store.delete(key);
    store.set(key, kept);
    if (kept.fast && cacheState !== 'MISS') compressBetter(key, kept, body, encoding);
    return kept.body;
  }
  const fast = cacheState === 'MISS';
  const value = await compress(body, encoding, fast ? 'fast' : 'once');
  // gzip has one level for both.
  remember(key, { body: value, fast: fast && encoding === 'br' });
  return value;
}

function addVary(res: ServerResponse): void {
  const vary = String(res.getHeader('Vary') ?? '');
  if (!/accept-encoding|\*/i.test(vary)) res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * gzip/brotli (as the client accepts) for HTML, JSON, CSS, JS and SVG of 1 KiB and more. A compressible
 * response is collected and compressed in one piece (pages are tens of KB); anything else streams
 * through untouched from its first header on. Static files never come here (runtime/static-files.ts).
 */
export function zlib(
  options: { sentCompressed?: (req: IncomingMessage, res: ServerResponse, payload: Buffer) => void } = {},
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const encoding = req.method === 'HEAD' ? null : acceptedEncoding(req.headers['accept-encoding']);
    if (!encoding) return next();
    const original = { writeHead: res.writeHead, write: res.write, end: res.end };
    const restore = () => Object.assign(res, original);
    let pendingStatus: { code: number; message?: string } | null = null;
    const chunks: Buffer[] = [];
    let collecting: boolean | null = null;
    const writeStatus = (code: number, message: string | undefined) => {
      (original.writeHead as (status: number, statusMessage?: string) => ServerResponse).call(res, code, ...(message ? [message] : []));
    };
    const toBuffer = (chunk: unknown, encodingArg: unknown): Buffer =>
      Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encodingArg === 'string' ? (encodingArg as BufferEncoding) : 'utf8')
          : // A view, not a copy: the adapter hands over the page's bytes once and does not reuse them.
            Buffer.from((chunk as Uint8Array).buffer, (chunk as Uint8Array).byteOffset, (chunk as Uint8Array).byteLength);

    // Decided once, when the headers are known: collect (compressible) or pass through.
    const decide = (): boolean => {
      if (collecting !== null) return collecting;
      const type = String(res.getHeader('Content-Type') ?? '');
      const status = pendingStatus?.code ?? res.statusCode;
      collecting = compressible.test(type) && !res.getHeader('Content-Encoding') && status !== 204 && status !== 304 && status >= 200;
      if (!collecting) {
        restore();
        if (pendingStatus) writeStatus(pendingStatus.code, pendingStatus.message);
      }
      return collecting;
    };

    res.writeHead = function (this: ServerResponse, code: number, ...rest: unknown[]) {
      const message = typeof rest[0] === 'string' ? rest[0] : undefined;
      const headers = (typeof rest[0] === 'string' ? rest[1] : rest[0]) as OutgoingHttpHeaders | unknown[] | undefined;
      if (Array.isArray(headers)) {
        const flat = (headers.length > 0 && Array.isArray(headers[0]) ? (headers as unknown[][]).flat() : headers) as string[];
        for (let i = 0; i + 1 < flat.length; i += 2) res.setHeader(flat[i] as string, flat[i + 1] as string);
      } else if (headers) {
        for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
      }
      pendingStatus = { code, ...(message ? { message } : {}) };
      res.statusCode = code;
      decide();
      return res;
    } as typeof res.writeHead;

    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      if (!decide()) return (original.write as (...args: unknown[]) => boolean).call(res, chunk, ...rest);
      chunks.push(toBuffer(chunk, rest[0]));
      const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    } as typeof res.write;

    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      if (!decide()) return (original.end as (...args: unknown[]) => ServerResponse).call(res, chunk, ...rest);
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') {
        chunks.push(toBuffer(chunk, rest[0]));
      }
      const callback = [chunk, ...rest].find((arg) => typeof arg === 'function') as (() => void) | undefined;
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      restore();
      const send = (payload: Buffer) => {
        if (!res.headersSent) res.setHeader('Content-Length', payload.length);
        writeStatus(res.statusCode, pendingStatus?.message);
        (original.end as (data: Buffer, done?: () => void) => ServerResponse).call(res, payload, callback);
      };
      if (body.length < THRESHOLD) {
        send(body);
        return res;
      }
      const cacheState = res.getHeader('X-Astro-Cache');
      encoded(body, encoding, cacheState === undefined ? undefined : String(cacheState).toUpperCase()).then(
        (payload) => {
          res.setHeader('Content-Encoding', encoding);
          res.removeHeader('Content-Length');
          addVary(res);
          send(payload);
          options.sentCompressed?.(req, res, payload);
        },
        () => send(body),
      );
      return res;
    } as typeof res.end;

    next();
  };
}
