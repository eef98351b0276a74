/**
 * The client build (dist/client) served from memory: every file and its precompressed .br/.gz twin
 * (integrations/precompress.mjs) is read once at start, with its headers worked out then, so a request
 * costs a map lookup and one write: no stat, no read stream, no compression, no header building.
 * See docs/decisions/121-server-overhead.md.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.pdf': 'application/pdf',
};

/** Files larger than this stay on disk (none are today); they are left to the next handler. */
const MAX_FILE = 4 * 1024 * 1024;

interface Variant {
  body: Buffer;
  headers: Record<string, string | number>;
}

interface StaticFile {
  etag: string;
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

export function loadStaticFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const full of walk(root)) {
    if (full.endsWith('.br') || full.endsWith('.gz')) continue;
    const relative = `/${path.relative(root, full).split(path.sep).join('/')}`;
    if (relative.split('/').some((part) => part.startsWith('.'))) continue;
    if (statSync(full).size > MAX_FILE) continue;
    const body = readFileSync(full);
    const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
    const base = {
      'Content-Type': TYPES[path.extname(full).toLowerCase()] ?? 'application/octet-stream',
      'Cache-Control': relative.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
    };
    const twin = (suffix: string, encoding: string): Variant | undefined => {
      try {
        const compressed = readFileSync(`${full}${suffix}`);
        return { body: compressed, headers: { ...base, 'Content-Encoding': encoding, 'Content-Length': compressed.length, Vary: 'Accept-Encoding' } };
      } catch {
        return undefined;
      }
    };
    const br = twin('.br', 'br');
    const gzip = twin('.gz', 'gzip');
    const file: StaticFile = {
      etag,
      identity: { body, headers: { ...base, 'Content-Length': body.length, ...(br || gzip ? { Vary: 'Accept-Encoding' } : {}) } },
      ...(br ? { br } : {}),
      ...(gzip ? { gzip } : {}),
    };
    files.set(relative, file);
  }
  return files;
}

/** Picks br, then gzip, from Accept-Encoding (a q=0 refusal counts). */
function pick(file: StaticFile, accept: string | undefined): Variant {
  if (!accept || (!file.br && !file.gzip)) return file.identity;
  if (file.br && /\bbr\b(?!\s*;\s*q=0(\.0*)?\b)/.test(accept)) return file.br;
  if (file.gzip && /\bgzip\b(?!\s*;\s*q=0(\.0*)?\b)/.test(accept)) return file.gzip;
  return file.identity;
}

/**
 * A handler answering GET/HEAD for files of the client build; anything else goes to `next`.
 * Paths are looked up as sent (percent-decoded), so `..` can never leave the map.
 */
export function staticFiles(root: string): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const files = loadStaticFiles(root);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    let pathname = query === -1 ? url : url.slice(0, query);
    if (pathname.includes('%')) {
      try {
        pathname = decodeURIComponent(pathname);
      } catch {
        return next();
      }
    }
    const file = files.get(pathname);
    if (!file) return next();
    if (req.headers['if-none-match'] === file.etag) {
      res.writeHead(304, { ETag: file.etag, 'Cache-Control': String(file.identity.headers['Cache-Control']) });
      res.end();
      return;
    }
    const variant = pick(file, req.headers['accept-encoding']);
    res.writeHead(200, variant.headers);
    res.end(req.method === 'HEAD' ? undefined : variant.body);
  };
}
