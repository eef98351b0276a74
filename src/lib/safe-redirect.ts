/**
 * Where to send a member after login. Only a local path of this shop is accepted; anything that could
 * leave the origin (`//host`, `/\host`, `https://…`, `javascript:`, the same percent-encoded, or with
 * tabs and newlines that browsers drop) gives the home page instead.
 */
const HOME = '/';
const BASE = 'http://shop.invalid';
/** Pages that would loop back to the login form. */
const NOT_AFTER_LOGIN = /^\/(login|register|logout|resetpassword)(\/|$|\?)/i;

function looksForeign(value: string): boolean {
  if (!value.startsWith('/')) return true;
  if (value.startsWith('//')) return true;
  if (value.includes('\\')) return true;
  // Control characters and whitespace: browsers strip some of them (`/\t/host` becomes `//host`).
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(value)) return true;
  return false;
}

export function safeNextPath(raw: string | null | undefined): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return HOME;
  // Check every decoded layer, so `%2F%2Fhost` or `%252F%255Chost` cannot slip through a later decode.
  let layer = raw;
  for (let i = 0; i < 4; i++) {
    if (looksForeign(layer)) return HOME;
    let decoded: string;
    try {
      decoded = decodeURIComponent(layer);
    } catch {
      return HOME;
    }
    if (decoded === layer) break;
    layer = decoded;
  }
  let parsed: URL;
  try {
    parsed = new URL(raw, BASE);
  } catch {
    return HOME;
  }
  if (parsed.origin !== BASE) return HOME;
  const path = parsed.pathname + parsed.search + parsed.hash;
  if (looksForeign(path) || NOT_AFTER_LOGIN.test(path)) return HOME;
  return path;
}
