import type { AstroCookies } from 'astro';
import { env } from '../env.ts';
import { SESSION_IDLE_MS } from './session.service.ts';

export const SESSION_COOKIE = 'shop_session';
/**
 * Readable by scripts and holding no secret: tells the navbar island that a session may exist, so it asks
 * /api/auth/me even when the login happened without JavaScript (plain form post).
 */
export const SESSION_HINT_COOKIE = 'shop_member';

/** Secure whenever the shop is reached over HTTPS, or says it is (PUBLIC_SITE_URL behind a TLS proxy). */
export function cookieIsSecure(requestUrl: URL): boolean {
  return requestUrl.protocol === 'https:' || env().PUBLIC_SITE_URL.startsWith('https:');
}

export function setSessionCookie(cookies: AstroCookies, requestUrl: URL, token: string): void {
  cookies.set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookieIsSecure(requestUrl),
    path: '/',
    maxAge: Math.floor(SESSION_IDLE_MS / 1000),
  });
  cookies.set(SESSION_HINT_COOKIE, '1', { httpOnly: false, sameSite: 'lax', secure: cookieIsSecure(requestUrl), path: '/', maxAge: Math.floor(SESSION_IDLE_MS / 1000) });
}

export function clearSessionCookie(cookies: AstroCookies, requestUrl: URL): void {
  cookies.delete(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: cookieIsSecure(requestUrl) });
  cookies.delete(SESSION_HINT_COOKIE, { path: '/', sameSite: 'lax', secure: cookieIsSecure(requestUrl) });
}
