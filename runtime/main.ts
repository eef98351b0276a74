/**
 * The shop's production server: the Astro Node adapter (middleware mode) inside a small Node HTTP
 * server that adds what an operator behind a load balancer expects: compression, security and cache
 * headers, request logs, timeouts from config, health endpoints and a graceful shutdown.
 *
 * Runs with Node 24's built-in type stripping: `node runtime/main.ts` (npm start does the build first).
 */
import './gc-tuning.ts';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { zlib } from './zlib.ts';
import { staticFiles } from './static-files.ts';
import { finishedPages } from './finished-pages.ts';
import { shopMetrics, type RequestRoute } from './metrics.ts';
import { ConfigError, parseEnv, type Env } from '../src/server/env.ts';
import { runShutdownHooks } from '../src/server/lifecycle.ts';
import { fallbackPolicy } from '../integrations/content-security-policy.mjs';

type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void, locals?: object) => Promise<void> | void;

/** What serves requests once the database is open and Astro's handler is loaded. */
interface ServingApp {
  handler: NodeHandler;
  finished: ReturnType<typeof finishedPages>;
  generationAt: WeakMap<IncomingMessage, number>;
  compress: ReturnType<typeof zlib>;
  serveStatic: ReturnType<typeof staticFiles>;
}

type Phase = { name: 'starting'; step: 'database' | 'app' } | { name: 'serving' } | { name: 'draining' };

function answerJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...(status === 503 ? { 'Retry-After': '5' } : {}) });
  res.end(JSON.stringify(body));
}

/**
 * Answers what the server answers itself while it is not serving (starting, or draining before it
 * stops): true when it answered. While draining, only /readyz is answered here; the rest is served.
 */
function notServing(res: ServerResponse, pathname: string, phase: Phase, starting: boolean): boolean {
  if (pathname === '/readyz') {
    answerJson(res, 503, phase.name === 'starting' ? { status: 'starting', waitingFor: phase.step } : { status: 'draining' });
    return true;
  }
  if (!starting) return false;
  if (pathname === '/healthz') {
    answerJson(res, 200, { status: 'ok', ready: false });
    return true;
  }
  res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '5' });
  res.end('ร้านกำลังเริ่มทำงาน กรุณาลองใหม่อีกครั้งในอีกสักครู่\n');
  return true;
}

/**
 * Log lines wait in memory and go out in one write per turn of the event loop: writes to a pipe or
 * file are synchronous in Node, so one write per request would stall every request behind the disk.
 */
const pending = { out: [] as string[], err: [] as string[], scheduled: false };
function flushLogs(): void {
  pending.scheduled = false;
  if (pending.out.length > 0) process.stdout.write(pending.out.join(''));
  if (pending.err.length > 0) process.stderr.write(pending.err.join(''));
  pending.out = [];
  pending.err = [];
}
process.on('exit', flushLogs);

function logLine(config: Env, level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}) {
  if (config.LOG_LEVEL === 'silent') return;
  if (config.LOG_LEVEL === 'error' && level !== 'error') return;
  if (config.LOG_LEVEL === 'warn' && level === 'info') return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }) + '\n';
  (level === 'info' ? pending.out : pending.err).push(line);
  if (!pending.scheduled) {
    pending.scheduled = true;
    setImmediate(flushLogs);
  }
}

/**
 * For responses Astro did not render (JSON, files, this server's own answers): the same directives as
 * the pages, and no inline script at all. Pages carry Astro's header instead, the same directives with
 * the hashes of the inline scripts they may send (integrations/content-security-policy.mjs, decision 198).
 */
const CONTENT_SECURITY_POLICY = fallbackPolicy();

/** Baseline headers on every response; pages and endpoints may override Cache-Control. */
function securityHeaders(req: IncomingMessage, res: ServerResponse, config: Env): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
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
  // React (and other libraries) pick their production build from NODE_ENV when first loaded: unset,
  // server rendering ran React's development build, several times slower (docs/decisions/121).
  process.env.NODE_ENV ??= 'production';
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

  // The server listens first, so a load balancer (and a liveness probe) hears it while migrations run:
  // /healthz answers, /readyz says what it is waiting for, every other request gets a 503 until the
  // database is open and Astro's handler is loaded. On SIGTERM /readyz says "draining" for
  // SHUTDOWN_DRAIN_MS while requests are still served (docs/design.md section 13).
  let phase: Phase = { name: 'starting', step: 'database' };
  let app: ServingApp | null = null;
  let shuttingDown = false;
  let stopBackups: (() => Promise<void>) | null = null;
  let inFlight = 0;
  // Handlers still running, whether or not their client is still there: a shopper who closed the tab
  // has closed the connection, but the page's queries are still under way and need the database.
  const running = new Set<Promise<void>>();
  const metrics = shopMetrics(config.METRICS_TOKEN, async (query) => {
    const { database } = await import('../src/server/db/client.ts');
    return (await database()).rows(query);
  });

  const server = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    // The route for the metrics' labels: Astro's route pattern, set by src/middleware.ts.
    const record: RequestRoute = { route: 'static' };
    // A 503 the server answers itself while starting or draining is expected, not an error to log.
    let answeredNotServing = false;
    inFlight++;
    res.on('close', () => {
      inFlight--;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logLine(config, res.statusCode >= 500 && !answeredNotServing ? 'error' : 'info', 'request', {
        method: req.method,
        path: loggedPath(req.url),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      });
      const astroCache = res.getHeader('x-astro-cache');
      metrics.observe(record.route, req.method ?? 'GET', res.statusCode, ms / 1000, typeof astroCache === 'string' ? astroCache : undefined);
    });
    if (shuttingDown) res.setHeader('Connection', 'close');
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (pathname === '/metrics' && metrics.serve(req, res)) {
      record.route = '/metrics';
      return;
    }
    if (phase.name !== 'serving' || !app) {
      record.route = pathname === '/healthz' || pathname === '/readyz' ? pathname : '(not serving)';
      answeredNotServing = notServing(res, pathname, phase, app === null);
      if (answeredNotServing) return;
    }
    const serving = app!;
    serving.serveStatic(req, res, () => {
      securityHeaders(req, res, config);
      if (serving.finished.serve(req, res)) {
        record.route = '(finished page)';
        metrics.finishedPage(true);
        return;
      }
      record.route = '(unmatched)';
      if (req.method === 'GET') metrics.finishedPage(false);
      serving.generationAt.set(req, serving.finished.generation());
      serving.compress(req, res, () => {
        // No `next`: the adapter then renders unknown routes with our 404 page itself. The fourth
        // argument becomes Astro.locals, where the middleware writes the route pattern.
        const handling = Promise.resolve(serving.handler(req, res, undefined, { requestRoute: record })).catch((error: unknown) => {
          logLine(config, 'error', 'unhandled request error', { error: error instanceof Error ? error.stack : String(error) });
          if (!res.headersSent) {
            res.statusCode = 500;
            res.setHeader('Content-Type', 'text/plain; charset=utf-8');
            res.end('An error occurred');
          } else {
            res.destroy();
          }
        });
        running.add(handling);
        const done = () => running.delete(handling);
        handling.then(done, done);
      });
    });
  });

  // Load balancers keep idle connections open for 60 s; ours must outlive theirs.
  server.keepAliveTimeout = config.KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = config.HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.REQUEST_TIMEOUT_MS;

  async function shutdown(signal: string): Promise<void> {
    if (shuttingDown) return;
    shuttingDown = true;
    // No backup starts from here on; one under way ends before the database closes (its shutdown hook).
    void stopBackups?.();
    if (config.SHUTDOWN_DRAIN_MS > 0 && phase.name === 'serving') {
      // Still serving, but no longer ready: the load balancer sends new visitors elsewhere meanwhile.
      phase = { name: 'draining' };
      logLine(config, 'info', 'draining', { signal, ms: config.SHUTDOWN_DRAIN_MS });
      await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_MS));
    }
    phase = { name: 'draining' };
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
    // Connections are closed; let handlers whose client left finish before the database closes (within
    // the same shutdown timeout), so they end quietly instead of failing their queries.
    await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_TIMEOUT_MS).unref())]);
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
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  logLine(config, 'info', 'listening', { url: `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`, ready: false });

  // Open (migrate, seed) the database before taking traffic; a failure stops start-up with its reason.
  try {
    const { database } = await import('../src/server/db/client.ts');
    const opened = await database();
    // Unpaid orders expire (and give their stock back) from start-up on: started here only, not
    // from reading an order or a price.
    const { startOrderSweeper } = await import('../src/server/orders/order-sweeper.ts');
    startOrderSweeper();
    // Mails committed by any instance (and any left by a stopped one) go out from here.
    const { startMailWorker } = await import('../src/server/mail/outbox-worker.ts');
    startMailWorker();
    // Rolling backups when BACKUP_EVERY_HOURS is set: one instance at a time (docs/decisions/207).
    const { startBackupSchedule, stopBackupSchedule } = await import('../src/server/backup/backup-schedule.ts');
    startBackupSchedule();
    stopBackups = stopBackupSchedule;
    // The embedded database admits one process: the operator CLI reaches it through this server.
    if (opened.kind === 'pglite') {
      const [{ startOperatorSocket }, { runOperatorCommand }, { onShutdown }, { startEmbeddedMaintenance }] = await Promise.all([
        import('../src/server/operator/socket.ts'),
        import('../src/server/operator/commands.ts'),
        import('../src/server/lifecycle.ts'),
        import('../src/server/db/pglite-maintenance.ts'),
      ]);
      // No autovacuum in an embedded database: this server does its work (docs/decisions/164).
      startEmbeddedMaintenance(opened);
      const operator = await startOperatorSocket(config.DATA_DIR, runOperatorCommand, (message, fields) => logLine(config, 'info', message, fields));
      onShutdown('operator socket', () => operator.close());
    }
  } catch (error) {
    process.stderr.write(`Could not open the database: ${error instanceof Error ? error.message : String(error)}\n`);
    server.close();
    await runShutdownHooks();
    process.exit(1);
  }

  phase = { name: 'starting', step: 'app' };
  const entry = path.resolve(process.env.ASTRO_SERVER_ENTRY ?? 'dist/server/entry.mjs');
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: NodeHandler };
  // Pages Astro's route cache keeps, finished and compressed, answered before Astro is entered.
  const finished = finishedPages();
  const generationAt = new WeakMap<IncomingMessage, number>();
  app = {
    handler,
    finished,
    generationAt,
    compress: zlib({ sentCompressed: (req, res, payload) => finished.keep(req, res, payload, generationAt.get(req) ?? -1) }),
    // Files from dist/client (hashed assets, fonts, favicon), held in memory with their precompressed
    // twins (integrations/precompress.mjs); hashed ones are immutable for a year.
    serveStatic: staticFiles(path.resolve(path.dirname(entry), '../client')),
  };
  if (!shuttingDown) phase = { name: 'serving' };
  logLine(config, 'info', 'ready');
}

await main();
