import type { AstroCookies } from 'astro';
import { env } from '../env.ts';
import { SESSION_IDLE_MS } from './session.service.ts';

export const SESSION_COOKIE = 'shop_session';

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
}

export function clearSessionCookie(cookies: AstroCookies, requestUrl: URL): void {
  cookies.delete(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: cookieIsSecure(requestUrl) });
}
