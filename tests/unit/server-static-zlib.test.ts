import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { staticFiles } from '../../runtime/static-files';
import { zlib } from '../../runtime/zlib';

const page = `<!doctype html><html lang="th"><body>${'สินค้าของขวัญ '.repeat(400)}</body></html>`;
/** Less repetitive than `page`, so that brotli's levels give different sizes. */
const listing = `<!doctype html><html lang="th"><body><ul>${Array.from({ length: 900 }, (_, i) => `<li data-code="P${String((i * 7919) % 100_000).padStart(5, '0')}">สินค้า ${(i * 31) % 97} ของขวัญ ฿${(i * 53) % 1000}</li>`).join('')}</ul></body></html>`;
let listingRenders = 0;
let server: http.Server;
let base: string;
let renders = 0;

function get(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${pathname}`, { headers, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'static-'));
  mkdirSync(path.join(root, '_astro'));
  const css = Buffer.from(`body{color:red}${' '.repeat(3000)}`);
  writeFileSync(path.join(root, '_astro/app.abc.css'), css);
  writeFileSync(path.join(root, '_astro/app.abc.css.br'), brotliCompressSync(css));
  writeFileSync(path.join(root, '_astro/app.abc.css.gz'), gzipSync(css));
  writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const serve = staticFiles(root);
  const compress = zlib();
  server = http.createServer((req: IncomingMessage, res: ServerResponse) =>
    serve(req, res, () =>
      compress(req, res, () => {
        if (req.url === '/cached') {
          renders++;
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'X-Astro-Cache': 'HIT' });
          res.write(page.slice(0, 100));
          res.end(page.slice(100));
        } else if (req.url === '/listing') {
          // Rendered into the route cache by the first request, served from it afterwards.
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'X-Astro-Cache': listingRenders++ === 0 ? 'MISS' : 'HIT' });
          res.end(listing);
        } else if (req.url === '/rendered') {
          renders++;
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'X-Astro-Cache': 'MISS' });
          res.end(page);
        } else if (req.url === '/binary') {
          res.setHeader('Content-Type', 'application/pdf');
          res.write(Buffer.alloc(4096, 1));
          res.end();
        } else {
          res.statusCode = 404;
          res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          res.end('not found');
        }
      }),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('static files from memory', () => {
  it('sends the precompressed twin the client accepts, with immutable caching and an ETag', async () => {
    const br = await get('/_astro/app.abc.css', { 'Accept-Encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toContain('body{color:red}');
    const gz = await get('/_astro/app.abc.css', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toContain('body{color:red}');
    const plain = await get('/_astro/app.abc.css');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain('body{color:red}');
    const again = await get('/_astro/app.abc.css', { 'If-None-Match': String(plain.headers.etag) });
    expect(again.status).toBe(304);
    const head = await get('/favicon.svg', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['cache-control']).toBe('public, max-age=3600');
    expect(head.body.length).toBe(0);
  });

  it('leaves anything outside the build to the next handler', async () => {
    expect((await get('/../package.json')).status).toBe(404);
    expect((await get('/_astro/%2e%2e/secret')).status).toBe(404);
    expect((await get('/_astro/app.abc.css.br')).status).toBe(404);
  });
});

describe('compression of pages', () => {
  it('compresses a cached page once and sends the same bytes on later hits', async () => {
    const first = await get('/cached', { 'Accept-Encoding': 'br' });
    const second = await get('/cached', { 'Accept-Encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(first.body).toString()).toBe(page);
    expect(second.body.equals(first.body)).toBe(true);
    expect(Number(second.headers['content-length'])).toBe(second.body.length);
    expect(renders).toBe(2);
    const gz = await get('/cached', { 'Accept-Encoding': 'gzip' });
    expect(gunzipSync(gz.body).toString()).toBe(page);
    const none = await get('/cached');
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.toString()).toBe(page);
  });

  it('compresses a page just rendered into the route cache (MISS) on its own request, in either encoding', async () => {
    const before = renders;
    const br = await get('/rendered', { 'Accept-Encoding': 'br' });
    const gz = await get('/rendered', { 'Accept-Encoding': 'gzip' });
    expect(renders - before).toBe(2);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(page);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(page);
  });

  it('compresses a page again, better, once it is served from the route cache', async () => {
    const rendered = await get('/listing', { 'Accept-Encoding': 'br' });
    expect(brotliDecompressSync(rendered.body).toString()).toBe(listing);
    // The first hit is answered at once with the bytes already made; the better ones follow.
    const firstHit = await get('/listing', { 'Accept-Encoding': 'br' });
    expect(firstHit.body.equals(rendered.body)).toBe(true);
    let better = firstHit;
    for (let attempt = 0; attempt < 50 && better.body.equals(rendered.body); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      better = await get('/listing', { 'Accept-Encoding': 'br' });
    }
    expect(better.body.length).toBeLessThan(rendered.body.length);
    expect(brotliDecompressSync(better.body).toString()).toBe(listing);
    expect(Number(better.headers['content-length'])).toBe(better.body.length);
    const again = await get('/listing', { 'Accept-Encoding': 'br' });
    expect(again.body.equals(better.body)).toBe(true);
  });

  it('passes other types and small bodies through untouched', async () => {
    const pdf = await get('/binary', { 'Accept-Encoding': 'br' });
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.body.length).toBe(4096);
    const small = await get('/missing', { 'Accept-Encoding': 'br' });
    expect(small.status).toBe(404);
    expect(small.body.toString()).toBe('not found');
  });
});
