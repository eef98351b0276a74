import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { onPagesDropped } from '../src/server/cache/page-drops.ts';
import { acceptedEncoding } from './zlib.ts';

/**
 * The finished responses (headers and compressed bytes) of pages Astro's route cache keeps, so a
 * repeat GET is answered before Astro is entered (docs/decisions/124). A route-cache hit still built
 * a Request, ran the middleware, copied the cached body into a new Response, streamed it out and
 * hashed it to find its compressed form: about 0.55 ms, where sending the same bytes costs 0.2 ms.
 *
 * Only what Astro itself served from or put into its cache is kept (X-Astro-Cache HIT or MISS, 200,
 * no cookie set, varying by nothing but the encoding), so nothing is shared here that Astro would not
 * have shared. Everything kept goes whenever Astro's cache drops pages on this instance (a catalog or
 * content change, heard by every instance over the invalidation bus), and after KEEP_MS at the
 * latest, after which Astro's own lifetime rules answer again.
 */
const KEEP_MS = 10_000;
const MAX_ENTRIES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;

interface Finished {
  at: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

export interface FinishedPages {
  /** Answers the request from the store; false when it has to be rendered. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
  /** The state of the store when a request came in, for `keep`. */
  generation(): number;
  /** Keeps a response just sent, unless pages were dropped since `startedAt` (a generation). */
  keep(req: IncomingMessage, res: ServerResponse, body: Buffer, startedAt: number): void;
}

const keyOf = (req: IncomingMessage, encoding: string) => `${encoding}\0${req.headers.host ?? ''}\0${req.url ?? ''}`;

export function finishedPages(): FinishedPages {
  const store = new Map<string, Finished>();
  let bytes = 0;
  let drops = 0;
  onPagesDropped(() => {
    drops++;
    store.clear();
    bytes = 0;
  });

  const remove = (key: string, entry: Finished) => {
    store.delete(key);
    bytes -= entry.body.length;
  };

  return {
    generation: () => drops,
    serve(req, res) {
      if (req.method !== 'GET' || store.size === 0) return false;
      const encoding = acceptedEncoding(req.headers['accept-encoding']);
      if (!encoding) return false;
      const key = keyOf(req, encoding);
      const entry = store.get(key);
      if (!entry) return false;
      if (Date.now() - entry.at > KEEP_MS) {
        remove(key, entry);
        return false;
      }
      res.writeHead(200, entry.headers);
      res.end(entry.body);
      return true;
    },
    keep(req, res, body, startedAt) {
      if (startedAt !== drops || req.method !== 'GET' || res.statusCode !== 200) return;
      const cacheState = String(res.getHeader('X-Astro-Cache') ?? '').toUpperCase();
      const encoding = String(res.getHeader('Content-Encoding') ?? '');
      const vary = String(res.getHeader('Vary') ?? '');
      if ((cacheState !== 'HIT' && cacheState !== 'MISS') || (encoding !== 'br' && encoding !== 'gzip')) return;
      if (res.hasHeader('Set-Cookie') || vary.split(',').some((name) => name.trim() !== '' && name.trim().toLowerCase() !== 'accept-encoding')) return;
      const headers = { ...res.getHeaders(), 'x-astro-cache': 'HIT' };
      const key = keyOf(req, encoding);
      const previous = store.get(key);
      if (previous) remove(key, previous);
      store.set(key, { at: Date.now(), headers, body });
      bytes += body.length;
      while (store.size > MAX_ENTRIES || bytes > MAX_BYTES) {
        const [oldestKey, oldest] = store.entries().next().value as [string, Finished];
        remove(oldestKey, oldest);
      }
    },
  };
}
