import compression from 'compression';
import type { IncomingMessage, ServerResponse } from 'node:http';

const compressible = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;

/** gzip/brotli (as the client accepts) for HTML, JSON, CSS, JS and SVG above 1 KiB. */
export function zlib(): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const middleware = compression({
    threshold: 1024,
    filter: (_req, res) => compressible.test(String(res.getHeader('Content-Type') ?? '')),
  });
  return (req, res, next) => middleware(req as never, res as never, next);
}
