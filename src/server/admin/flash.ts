import type { AstroCookies } from 'astro';
import { cookieIsSecure } from '../auth/cookies.ts';

/**
 * The back office's one-time message: a form endpoint answers 303 back to a page (post/redirect/get)
 * and leaves the Thai message in a short-lived cookie that the next page reads once. One cookie and
 * one shape for every back-office form (orders, catalog, content), so any page shows what any
 * endpoint said.
 */
export type FlashKind = 'success' | 'danger' | 'warning';

export interface Flash {
  kind: FlashKind;
  text: string;
  /** Extra lines, for example the orders a bulk action refused and why. */
  details?: string[];
  /** After a refused form: the id of what was typed, kept in the database (form-retries.ts), never the values themselves. */
  retry?: string;
  /** Filled on the server by withTypedValues: which form (its action path) and what was typed there. */
  form?: string;
  values?: Record<string, string[]>;
}

export const FLASH_COOKIE = 'admin_flash';
/** Browsers keep a cookie up to about 4 KB: the details are dropped before the message is. */
const MAX_FLASH_COOKIE = 3500;
const MAX_TEXT = 500;
const MAX_DETAILS = 50;

const encode = (flash: Flash) => Buffer.from(JSON.stringify(flash), 'utf8').toString('base64url');

export function setFlash(cookies: AstroCookies, url: URL, flash: Flash): void {
  const retry = flash.retry ? { retry: flash.retry } : {};
  let value = encode({ kind: flash.kind, text: flash.text, ...(flash.details ? { details: flash.details } : {}), ...retry });
  if (value.length > MAX_FLASH_COOKIE) value = encode({ kind: flash.kind, text: flash.text, details: flash.details?.slice(0, 10), ...retry });
  if (value.length > MAX_FLASH_COOKIE) value = encode({ kind: flash.kind, text: flash.text.slice(0, MAX_TEXT), ...retry });
  cookies.set(FLASH_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: cookieIsSecure(url), path: '/admin', maxAge: 120 });
}

/** Reads and clears the message; call it in a page's frontmatter, before anything streams. */
export function takeFlash(cookies: AstroCookies): Flash | null {
  const raw = cookies.get(FLASH_COOKIE)?.value;
  if (!raw) return null;
  cookies.delete(FLASH_COOKIE, { path: '/admin' });
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<Flash>;
    if (typeof parsed.text !== 'string') return null;
    const flash: Flash = { kind: parsed.kind === 'success' || parsed.kind === 'warning' ? parsed.kind : 'danger', text: parsed.text.slice(0, MAX_TEXT) };
    if (Array.isArray(parsed.details)) flash.details = parsed.details.slice(0, MAX_DETAILS).map(String);
    if (typeof parsed.retry === 'string' && /^[\w-]{16,64}$/.test(parsed.retry)) flash.retry = parsed.retry;
    return flash;
  } catch {
    // A mangled cookie is dropped, never an error page.
    return null;
  }
}

export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'private, no-store' } });
}
