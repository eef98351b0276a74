/**
 * Text that PostgreSQL cannot store (NUL), that no shopper types (other C0 controls, DEL) or that is
 * not text at all (lone UTF-16 surrogates, malformed percent-encoding) is refused at the edge, once
 * for every input: path, query, JSON, form and plain-text bodies. See docs/decisions/141.
 *
 * Tab, line feed and carriage return are ordinary in bodies (a note or an address over several
 * lines) but not in a path or a query, where they only come from tampering.
 */

// eslint-disable-next-line no-control-regex
const CONTROL_STRICT = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_IN_BODY = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Bidirectional overrides, embeddings and isolates. The edge lets them through; an imported cell refuses
 * them as well, because a file sets many products' names and descriptions at once, shown on every page
 * and in every later export, where an RTL override turns the text around (decision 174).
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

export type RefusedPart = 'path' | 'query' | 'body';

export function badText(value: string, strict: boolean): boolean {
  return (strict ? CONTROL_STRICT : CONTROL_IN_BODY).test(value) || LONE_SURROGATE.test(value);
}

/** A cell of an imported file (CSV): the body rule, plus the bidirectional controls. */
export function badImportedText(value: string): boolean {
  return badText(value, false) || BIDI_CONTROL.test(value);
}

function decoded(component: string): string | null {
  try {
    return decodeURIComponent(component);
  } catch {
    return null;
  }
}

/** Every escape that decodes, decoded; the ASCII ones one by one where a run of them does not. */
function decodedWherePossible(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => decoded(run) ?? run.replace(/%[0-7][0-9a-f]/gi, (escape) => decodeURIComponent(escape)));
}

/**
 * Whether the path or the query carries text the shop refuses (checked decoded, as routes see it).
 *
 * Astro hands over a path it has decoded until nothing changes, so a `%` the shopper typed ("ลด 50%",
 * sent as `%25`) arrives bare and no longer decodes. Only then is `sentUrl` (the address as the browser
 * sent it) read: the path must decode from there, and Astro's reading, decoded wherever it still can,
 * must hold no control character, so `%2500` cannot hide a NUL behind the second decode.
 */
export function badUrlPart(url: URL, sentUrl?: string): RefusedPart | null {
  const path = decoded(url.pathname);
  if (path === null) {
    const sent = sentUrl === undefined ? null : decoded(new URL(sentUrl).pathname);
    if (sent === null || badText(sent, true) || badText(decodedWherePossible(url.pathname), true)) return 'path';
  } else if (badText(path, true)) return 'path';
  if (url.search.length > 1) {
    // URLSearchParams decodes invalid sequences to U+FFFD instead of throwing, so check the raw pairs.
    for (const pair of url.search.slice(1).split('&')) {
      const text = decoded(pair.replace(/\+/g, ' '));
      if (text === null || badText(text, true)) return 'query';
    }
  }
  return null;
}

function badJsonValue(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (typeof value === 'string') return badText(value, false);
  if (Array.isArray(value)) return value.some((item) => badJsonValue(item, depth + 1));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => badText(key, false) || badJsonValue(item, depth + 1));
  }
  return false;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type BodyScan = 'clean' | 'refused_text' | 'too_large';

/**
 * A copy of the body that errors once more than `limit` bytes arrived, so a body of any framing
 * (chunked ones say no size) is read only up to its limit. `over()` says whether that is why it failed.
 */
function cappedCopy(request: Request, limit: number): { copy: Response; over: () => boolean } {
  const source = request.clone().body!.getReader();
  let received = 0;
  let over = false;
  const counted = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await source.read();
      if (done) return controller.close();
      received += value.byteLength;
      if (received > limit) {
        over = true;
        void source.cancel().catch(() => {});
        return controller.error(new RangeError('body over its limit'));
      }
      controller.enqueue(value);
    },
    cancel: (reason) => source.cancel(reason),
  });
  return { copy: new Response(counted, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }), over: () => over };
}

/**
 * Reads a copy of the body, at most `limit` bytes of it, and says whether it carries refused text or
 * is over the limit. The endpoint still gets the body. A body that does not parse is left to the
 * endpoint, which answers its own 400.
 */
export async function scanBody(request: Request, limit = Number.POSITIVE_INFINITY): Promise<BodyScan> {
  if (!BODY_METHODS.has(request.method.toUpperCase()) || request.body === null) return 'clean';
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const { copy, over } = cappedCopy(request, limit);
  const verdict = (refused: boolean): BodyScan => (refused ? 'refused_text' : 'clean');
  if (type.includes('multipart/form-data')) {
    let form: FormData;
    try {
      form = await copy.formData();
    } catch {
      return over() ? 'too_large' : 'clean';
    }
    for (const [key, value] of form) {
      if (badText(key, false)) return 'refused_text';
      if (typeof value === 'string' ? badText(value, false) : badText(value.name, true)) return 'refused_text';
    }
    return 'clean';
  }
  let text: string;
  try {
    text = await copy.text();
  } catch {
    return over() ? 'too_large' : 'clean';
  }
  if (type.includes('application/x-www-form-urlencoded')) {
    for (const pair of text.split('&')) {
      const decodedPair = decoded(pair.replace(/\+/g, ' '));
      if (decodedPair === null || badText(decodedPair, false)) return 'refused_text';
    }
    return 'clean';
  }
  if (type.includes('json')) {
    try {
      return verdict(badJsonValue(JSON.parse(text)));
    } catch {
      return verdict(badText(text, false));
    }
  }
  return verdict(badText(text, false));
}

/** Whether a request body carries refused text, read whole (the edge reads it capped: scanBody). */
export async function badBody(request: Request): Promise<boolean> {
  return (await scanBody(request)) === 'refused_text';
}

export const REFUSED_TEXT_MESSAGE = 'ข้อมูลที่ส่งมามีอักขระที่ระบบไม่รองรับ กรุณาตรวจสอบแล้วลองใหม่อีกครั้ง';
