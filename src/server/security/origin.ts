import { SESSION_COOKIE } from '../auth/cookies.ts';
import { env } from '../env.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/** What a plain HTML form (or a body-less request) can send cross-site without a CORS preflight. */
function formLike(request: Request): boolean {
  const type = request.headers.get('content-type');
  if (type === null) return true;
  const lower = type.toLowerCase();
  return FORM_TYPES.some((form) => lower.includes(form));
}

/**
 * Whether a state-changing request may go on. Requests that ride on the session cookie must come from
 * this shop's pages: the Origin header (or, without one, Sec-Fetch-Site) has to say so. Bearer clients
 * carry their credential explicitly, so a foreign page cannot forge them and they pass.
 *
 * It also keeps Astro's own `security.checkOrigin` rule, which this replaces (docs/decisions/052): a
 * form-like request must name this shop as its Origin, cookie or not.
 */
export function originAllowed(request: Request, url: URL): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return true;
  if (/^Bearer\s+\S+/i.test(request.headers.get('authorization') ?? '')) return true;
  const cookie = request.headers.get('cookie') ?? '';
  const hasSession = cookie.split(';').some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`));
  const origin = request.headers.get('origin');
  const ours = origin !== null && (origin === url.origin || origin === new URL(env().PUBLIC_SITE_URL).origin);
  if (formLike(request) && !ours) return false;
  if (origin !== null) {
    if (ours) return true;
    // A foreign origin without our cookie cannot act as a member; login and sign-up are still
    // refused so a foreign page cannot log a visitor into an account it controls.
    return false;
  }
  if (!hasSession) return true;
  const site = request.headers.get('sec-fetch-site');
  return site === null || site === 'same-origin' || site === 'none';
}
