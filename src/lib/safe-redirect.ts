/**
 * The shop's one redirect sanitiser. Every address taken from a request and followed afterwards (the
 * storefront's login `next`, a back-office form's `back`) goes through `safeLocalPath`: only a local path
 * of this shop is kept; anything that could leave the origin (`//host`, `/\host`, `https://…`,
 * `javascript:`, the same percent-encoded, or with tabs and newlines that browsers drop) gives the
 * fallback instead. The answer is the normalised path, so `/a/../b` comes back as `/b` and the variants
 * below check what the browser will really open.
 */
const HOME = '/';
const BASE = 'http://shop.invalid';
const MAX_LENGTH = 2048;
/** Pages that would loop back to the login form. */
const NOT_AFTER_LOGIN = /^\/(login|register|logout|resetpassword|auth)(\/|$|\?)/i;
const ADMIN = /^\/admin(?:[/?#]|$)/;
const DOT_SEGMENT = /(^|[/\\])\.\.?([/\\?#]|$)/;

function looksForeign(value: string): boolean {
  if (!value.startsWith('/')) return true;
  if (value.startsWith('//')) return true;
  if (value.includes('\\')) return true;
  // Control characters and whitespace: browsers strip some of them (`/\t/host` becomes `//host`).
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(value)) return true;
  return false;
}

/**
 * Whether `refused` holds for the text or any of its percent-decoded layers (up to four), so `%2F%2Fhost`
 * or `%252F%255Chost` cannot slip through a later decode; text that does not decode is refused too.
 */
function anyLayer(raw: string, refused: (layer: string) => boolean): boolean {
  let layer = raw;
  for (let i = 0; i < 4; i++) {
    if (refused(layer)) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return true;
    }
    if (decoded === layer) return false;
    layer = decoded;
  }
  return false;
}

/** A local path of this shop (normalised: path, query and fragment), or the fallback. */
export function safeLocalPath<F>(raw: unknown, fallback: F): string | F {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LENGTH) return fallback;
  if (anyLayer(raw, looksForeign)) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw, BASE);
  } catch {
    return fallback;
  }
  if (parsed.origin !== BASE) return fallback;
  const path = parsed.pathname + parsed.search + parsed.hash;
  return looksForeign(path) ? fallback : path;
}

/** Where to send a member after login: a local path that is not the login form again, else the home page. */
export function safeNextPath(raw: string | null | undefined): string {
  const path = safeLocalPath(raw, HOME);
  return NOT_AFTER_LOGIN.test(path) ? HOME : path;
}

/**
 * A page of the login family (`/login`, `/register`, `/resetpassword`) that still knows where the shopper
 * was going: `next` (already sanitised) rides along unless it is the home page, the default anyway.
 */
export function withNextPath(page: string, next: string): string {
  return next === HOME ? page : `${page}?next=${encodeURIComponent(next)}`;
}

/**
 * Where a back-office form returns: a local path inside /admin, else the fallback. A dot segment is
 * refused even when it would stay inside /admin, since nothing of ours writes one and it is how
 * `/admin/../x` tricks start.
 */
export function safeAdminPath(raw: unknown, fallback: string): string {
  if (typeof raw !== 'string') return fallback;
  if (anyLayer(raw, (layer) => DOT_SEGMENT.test(layer))) return fallback;
  const path = safeLocalPath(raw, null);
  return path !== null && ADMIN.test(path) ? path : fallback;
}
