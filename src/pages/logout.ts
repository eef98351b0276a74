import type { APIRoute } from 'astro';
import { clearSessionCookie } from '../server/auth/cookies';
import { currentSession } from '../server/auth/guard';
import { endSessionByHash } from '../server/auth/session.service';

/** The account menu's Logout form: ends the session on the server, then the login page. */
export const POST: APIRoute = async (context) => {
  const session = await currentSession(context);
  if (session) await endSessionByHash(session.tokenHash);
  clearSessionCookie(context.cookies, context.url);
  return new Response(null, { status: 303, headers: { Location: '/login', 'Cache-Control': 'private, no-store' } });
};

/** A link cannot log anyone out (no GET side effects); it just leads to the account page. */
export const GET: APIRoute = () => new Response(null, { status: 303, headers: { Location: '/login' } });
