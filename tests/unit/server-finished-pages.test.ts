import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { finishedPages } from '../../runtime/finished-pages';
import { zlib } from '../../runtime/zlib';
import { pagesDropped } from '../../src/server/cache/page-drops';

// The store of finished pages in front of Astro (docs/decisions/124), on a real HTTP server whose
// "Astro" counts renders and answers the way the route cache marks its pages.
const renders = new Map<string, number>();
let price = 100;
let server: http.Server;
let base: string;
let holdRender: Promise<void> | null = null;

function render(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://shop');
  renders.set(url.pathname, (renders.get(url.pathname) ?? 0) + 1);
  const body = `<!doctype html><html lang="th"><body>ราคา ${price} บาท ${'ของขวัญ '.repeat(300)}</body></html>`;
  const headers: Record<string, string> = { 'Content-Type': 'text/html; charset=utf-8' };
  if (url.pathname !== '/not-cached') headers['X-Astro-Cache'] = renders.get(url.pathname) === 1 ? 'MISS' : 'HIT';
  if (url.pathname === '/sets-cookie') headers['Set-Cookie'] = 'cart=1';
  if (url.pathname === '/varies') headers.Vary = 'Cookie';
  res.writeHead(url.pathname === '/missing' ? 404 : 200, headers);
  res.end(body);
}

function get(pathname: string, encoding = 'br, gzip'): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${pathname}`, { headers: { 'Accept-Encoding': encoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const text = response.headers['content-encoding'] === 'br' ? brotliDecompressSync(raw).toString() : raw.toString();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  const finished = finishedPages();
  const generationAt = new WeakMap<IncomingMessage, number>();
  const compress = zlib({ sentCompressed: (req, res, payload) => finished.keep(req, res, payload, generationAt.get(req) ?? -1) });
  server = http.createServer((req, res) => {
    if (finished.serve(req, res)) return;
    generationAt.set(req, finished.generation());
    compress(req, res, () => {
      if (holdRender) void holdRender.then(() => render(req, res));
      else render(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('finished pages in front of the route cache', () => {
  it('answers a repeat request for a cached page without rendering, with the same bytes, per encoding', async () => {
    const first = await get('/product/P00001');
    const second = await get('/product/P00001');
    expect(renders.get('/product/P00001')).toBe(1);
    expect(second.text).toBe(first.text);
    expect(second.headers['x-astro-cache']).toBe('HIT');
    expect(second.headers['content-encoding']).toBe('br');
    // gzip is a different response: rendered (Astro's cache answers it), then kept too.
    const gzip = await get('/product/P00001', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(renders.get('/product/P00001')).toBe(2);
    await get('/product/P00001', 'gzip');
    expect(renders.get('/product/P00001')).toBe(2);
    // A request that accepts no compression is never answered from here.
    await get('/product/P00001', 'identity');
    expect(renders.get('/product/P00001')).toBe(3);
  });

  it('drops everything when cached pages are dropped (a price change)', async () => {
    await get('/product/P00002');
    price = 120;
    expect((await get('/product/P00002')).text).toContain('ราคา 100 บาท');
    pagesDropped();
    const after = await get('/product/P00002');
    expect(after.text).toContain('ราคา 120 บาท');
    expect(renders.get('/product/P00002')).toBe(2);
  });

  it('does not keep a page rendered from data read before a drop', async () => {
    let release = () => {};
    holdRender = new Promise((resolve) => (release = resolve));
    const slow = get('/product/P00003');
    await new Promise((resolve) => setTimeout(resolve, 20));
    pagesDropped();
    holdRender = null;
    release();
    await slow;
    await get('/product/P00003');
    expect(renders.get('/product/P00003')).toBe(2);
  });

  it('keeps only what the route cache shared: not uncached pages, errors, cookies or pages that vary', async () => {
    for (const pathname of ['/not-cached', '/missing', '/sets-cookie', '/varies']) {
      await get(pathname);
      await get(pathname);
      expect(renders.get(pathname), pathname).toBe(2);
    }
  });

  it('lets a kept page go after ten seconds, when the route cache answers again', async () => {
    await get('/product/P00004');
    await get('/product/P00004');
    expect(renders.get('/product/P00004')).toBe(1);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 10_001);
    try {
      await get('/product/P00004');
      expect(renders.get('/product/P00004')).toBe(2);
    } finally {
      clock.mockRestore();
    }
  });
});
