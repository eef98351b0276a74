/**
 * The shop's production server: the Astro Node adapter (middleware mode) inside a small Node HTTP
 * server that adds what an operator behind a load balancer expects: compression, security and cache
 * headers, request logs, timeouts from config, health endpoints and a graceful shutdown.
 *
 * Runs with Node 24's built-in type stripping: `node server/main.ts` (npm start does the build first).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';
import { zlib } from './zlib.ts';
import { ConfigError, parseEnv, type Env } from '../src/server/env.ts';
import { runShutdownHooks } from '../src/server/lifecycle.ts';

type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void> | void;

function logLine(config: Env, level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}) {
  if (config.LOG_LEVEL === 'silent') return;
  if (config.LOG_LEVEL === 'error' && level !== 'error') return;
  if (config.LOG_LEVEL === 'warn' && level === 'info') return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }) + '\n';
  (level === 'info' ? process.stdout : process.stderr).write(line);
}

/** Baseline headers on every response; pages and endpoints may override Cache-Control. */
function securityHeaders(req: IncomingMessage, res: ServerResponse, config: Env): void {
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'self'",
      // Astro's island loader is an inline script; everything else is same-origin.
      "script-src 'self' 'unsafe-inline'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'self'",
      "form-action 'self'",
    ].join('; '),
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const forwardedHttps = config.TRUST_PROXY && String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() === 'https';
  if (encrypted || forwardedHttps) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

/** The path for the log line: query strings can carry tokens and keywords, so they are left out. */
function loggedPath(url: string | undefined): string {
  const raw = url ?? '/';
  const pathOnly = raw.split('?')[0] ?? '/';
  // Credentials never belong in a path, but /api/login/{email},{password} exists to refuse them.
  if (pathOnly.startsWith('/api/login/')) return '/api/login/[redacted]';
  return pathOnly.length > 200 ? `${pathOnly.slice(0, 200)}…` : pathOnly;
}

async function main(): Promise<void> {
  let config: Env;
  try {
    config = parseEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  // Open (migrate, seed) the database before taking traffic; a failure stops start-up with its reason.
  try {
    const { database } = await import('../src/server/db/client.ts');
    await database();
    // Unpaid orders expire (and give their stock back) from start-up on, not only once an order
    // page has been used.
    const { ensureSweeper } = await import('../src/server/orders/order.service.ts');
    ensureSweeper();
  } catch (error) {
    process.stderr.write(`Could not open the database: ${error instanceof Error ? error.message : String(error)}\n`);
    await runShutdownHooks();
    process.exit(1);
  }

  const entry = path.resolve(process.env.ASTRO_SERVER_ENTRY ?? 'dist/server/entry.mjs');
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: NodeHandler };
  const compress = zlib();
  // Files from dist/client (hashed assets, fonts, favicon), sent precompressed (see
  // integrations/precompress.mjs); hashed ones are immutable for a year.
  const staticFiles = sirv(path.resolve(path.dirname(entry), '../client'), {
    dev: false,
    etag: true,
    gzip: true,
    brotli: true,
    dotfiles: false,
    setHeaders: (res, pathname) => {
      res.setHeader('Cache-Control', pathname.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
  let shuttingDown = false;
  let inFlight = 0;

  const server = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    inFlight++;
    res.on('close', () => {
      inFlight--;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logLine(config, res.statusCode >= 500 ? 'error' : 'info', 'request', {
        method: req.method,
        path: loggedPath(req.url),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      });
    });
    securityHeaders(req, res, config);
    if (shuttingDown) res.setHeader('Connection', 'close');
    compress(req, res, () => staticFiles(req, res, () => {
      // No `next`: the adapter then renders unknown routes with our 404 page itself.
      Promise.resolve(handler(req, res)).catch((error: unknown) => {
        logLine(config, 'error', 'unhandled request error', { error: error instanceof Error ? error.stack : String(error) });
        if (!res.headersSent) {
          res.statusCode = 500;
          res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          res.end('An error occurred');
        } else {
          res.destroy();
        }
      });
    }));
  });

  // Load balancers keep idle connections open for 60 s; ours must outlive theirs.
  server.keepAliveTimeout = config.KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = config.HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.REQUEST_TIMEOUT_MS;

  async function shutdown(signal: string): Promise<void> {
    if (shuttingDown) return;
    shuttingDown = true;
    logLine(config, 'info', 'shutting down', { signal, inFlight });
    const forced = setTimeout(() => {
      logLine(config, 'warn', 'shutdown timeout: closing remaining connections', { inFlight });
      server.closeAllConnections();
    }, config.SHUTDOWN_TIMEOUT_MS);
    forced.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    clearTimeout(forced);
    await runShutdownHooks((message) => logLine(config, 'info', message));
    logLine(config, 'info', 'stopped');
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  server.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`Could not listen on ${config.HOST}:${config.PORT}: ${error.message}\n`);
    void runShutdownHooks().then(() => process.exit(1));
  });
  server.listen(config.PORT, config.HOST, () => {
    logLine(config, 'info', 'listening', { url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}` });
  });
}

await main();
