import type { AstroCookies } from 'astro';
import { cookieIsSecure } from './cookies.ts';

/**
 * The browser's side of a trip to LINE (docs/decisions/211): a random value whose hash keys the trip's
 * state, nonce and PKCE verifier in the database. `SameSite=Lax`, so it comes back with LINE's redirect
 * (a top-level GET); only the /auth/line routes see it.
 */
export const LINE_COOKIE = 'shop_line';
const PATH = '/auth/line';

export function setLineCookie(cookies: AstroCookies, requestUrl: URL, token: string): void {
  cookies.set(LINE_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: cookieIsSecure(requestUrl), path: PATH, maxAge: 30 * 60 });
}

export function lineCookie(cookies: AstroCookies): string | undefined {
  return cookies.get(LINE_COOKIE)?.value;
}

export function clearLineCookie(cookies: AstroCookies, requestUrl: URL): void {
  cookies.delete(LINE_COOKIE, { path: PATH, httpOnly: true, sameSite: 'lax', secure: cookieIsSecure(requestUrl) });
}
