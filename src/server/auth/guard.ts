import type { AstroCookies } from 'astro';
import { unauthorized } from '../http/errors.ts';
import { safeNextPath } from '../../lib/safe-redirect.ts';
import { SESSION_COOKIE } from './cookies.ts';
import { resolveSession, type ResolvedSession, type SessionMember } from './session.service.ts';

export type { SessionMember } from './session.service.ts';

export interface AuthContext {
  cookies: AstroCookies;
  request: Request;
}

export interface CurrentSession extends ResolvedSession {
  /** How the token arrived: only cookie-authenticated requests need the Origin check (src/middleware.ts). */
  via: 'cookie' | 'bearer';
}

// One lookup per request however many components and helpers ask.
const resolved = new WeakMap<Request, Promise<CurrentSession | null>>();

/** The bearer token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** The session of this request: the Bearer token when the client sends one, otherwise the cookie. */
export function currentSession(context: AuthContext): Promise<CurrentSession | null> {
  let pending = resolved.get(context.request);
  if (!pending) {
    const bearer = bearerToken(context.request);
    const token = bearer ?? context.cookies.get(SESSION_COOKIE)?.value ?? null;
    const via = bearer ? 'bearer' : 'cookie';
    pending = resolveSession(token).then((session) => (session ? { ...session, via } : null));
    resolved.set(context.request, pending);
  }
  return pending;
}

export async function currentMember(context: AuthContext): Promise<SessionMember | null> {
  return (await currentSession(context))?.member ?? null;
}

/** For endpoints: the member, or AppError 401. */
export async function requireMember(context: AuthContext): Promise<SessionMember> {
  const member = await currentMember(context);
  if (!member) throw unauthorized();
  return member;
}

export interface PageContext extends AuthContext {
  url: URL;
  response?: { headers: Headers };
}

/**
 * For private pages: the member, or a redirect to /login that remembers where the visitor wanted to go.
 * Marks the page private either way.
 */
export async function requireMemberPage(Astro: PageContext): Promise<SessionMember | Response> {
  Astro.response?.headers.set('Cache-Control', 'private, no-store');
  const member = await currentMember(Astro);
  if (member) return member;
  return new Response(null, {
    status: 302,
    headers: { Location: loginPathFor(Astro.url), 'Cache-Control': 'private, no-store' },
  });
}

export function loginPathFor(url: URL): string {
  const wanted = safeNextPath(url.pathname + url.search);
  return wanted === '/' ? '/login' : `/login?next=${encodeURIComponent(wanted)}`;
}
