/**
 * The production server as an operator runs it (needs `astro build` first; npm test builds before
 * running this project): start-up refusals, health, headers, compression, graceful shutdown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const node = process.execPath;

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Started {
  let output = '';
  const child = spawn(node, ['runtime/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitReady(port: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server on ${port} not ready`);
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shop-server-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('start-up configuration', () => {
  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ DATABASE_URL: 'nonsense' }, /DATABASE_URL/],
    [{ LOG_LEVEL: 'chatty' }, /LOG_LEVEL/],
  ])('refuses %o with one clear line before it opens anything', async (env, pattern) => {
    const server = startServer(env);
    const code = await server.exited;
    expect(code).toBe(1);
    expect(server.output()).toMatch(pattern);
    // The configuration is read first: nothing was started, so the one line is all it printed.
    expect(server.output().trim().split('\n')).toHaveLength(1);
  });
});

describe('running server', () => {
  it('serves health, security headers, compression and immutable assets; shuts down gracefully', async () => {
    const port = 4391;
    const dataDir = tempDir();
    const server = startServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'true' });
    await waitReady(port);
    const base = `http://127.0.0.1:${port}`;

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);

    const home = await fetch(`${base}/`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(home.status).toBe(200);
    const csp = home.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain('frame-ancestors');
    expect(home.headers.get('x-content-type-options')).toBe('nosniff');
    expect(home.headers.get('referrer-policy')).toBeTruthy();
    expect(home.headers.get('set-cookie')).toBeNull();
    const html = await home.text();
    expect(html).toContain('<html lang="th">');

    // fetch() decodes gzip itself; ask with a raw request to see the encoding.
    const raw = await rawGet(port, '/', { 'Accept-Encoding': 'gzip' });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(raw.body).toString()).toContain('หน้าแรก');
    const brotli = await rawGet(port, '/', { 'Accept-Encoding': 'br' });
    expect(brotli.headers['content-encoding']).toBe('br');

    // A page just rendered (MISS), the same page from the route cache (HIT) and its compressed form
    // are the same bytes, whole, with the length they declare: the rendered bytes are handed on
    // without copies, shared by the cache and the response (docs/decisions/167).
    const listing = '/product/category/page/2?sort=price_asc';
    const rendered = await rawGet(port, listing, {});
    const cached = await rawGet(port, listing, {});
    const compressed = await rawGet(port, listing, { 'Accept-Encoding': 'br' });
    expect([rendered.headers['x-astro-cache'], cached.headers['x-astro-cache']]).toEqual(['MISS', 'HIT']);
    expect(rendered.body.toString()).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>$/i);
    expect(Number(rendered.headers['content-length'])).toBe(rendered.body.length);
    expect(cached.body.equals(rendered.body)).toBe(true);
    expect(brotliDecompressSync(compressed.body).equals(rendered.body)).toBe(true);

    const asset = /\/_astro\/[^"']+\.css/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const assetResponse = await fetch(`${base}${asset}`);
    expect(assetResponse.status).toBe(200);
    expect(assetResponse.headers.get('cache-control')).toContain('immutable');

    const missing = await fetch(`${base}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('ไม่พบหน้าที่คุณต้องการ');

    // SIGTERM while requests are in flight: all of them finish, the process exits 0. Searches whose
    // client gave up are still running their queries: they end before the database closes, quietly.
    const inFlight = Array.from({ length: 20 }, () => fetch(`${base}/`).then((response) => response.status));
    const abandoned = Array.from({ length: 20 }, (_, i) => {
      const leave = new AbortController();
      setTimeout(() => leave.abort(), 5);
      return fetch(`${base}/search?q=${encodeURIComponent(['ลิป', 'ของขวัญ', 'ตุ๊กตา', 'สมุด'][i % 4] ?? '')}&sort=price_asc&n=${i}`, { signal: leave.signal }).catch(() => null);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.child.kill('SIGTERM');
    const statuses = await Promise.all(inFlight.map((request) => request.catch(() => 0)));
    await Promise.all(abandoned);
    expect(await server.exited).toBe(0);
    expect(statuses.filter((status) => status === 200).length).toBe(statuses.filter((status) => status !== 0).length);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    expect(server.output()).not.toMatch(/"level":"error"|\[ERROR\]|Failed query/);

    // The data directory opens cleanly afterwards, with the data kept.
    const again = startServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'true' });
    await waitReady(port);
    const ready = (await (await fetch(`${base}/readyz`)).json()) as { status: string };
    expect(ready.status).toBe('ready');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 120_000);

  it('refuses to open an embedded database that another live process holds', async () => {
    const dataDir = tempDir();
    const first = startServer({ PORT: '4392', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false' });
    await waitReady(4392);
    const second = startServer({ PORT: '4393', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false' });
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/in use by process/);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  }, 120_000);
});

async function rawGet(port: number, pathname: string, headers: Record<string, string>) {
  const http = await import('node:http');
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: pathname, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
  });
}
