import { clearSessionCookie } from '../../../server/auth/cookies';
import { currentSession } from '../../../server/auth/guard';
import { endSessionByHash } from '../../../server/auth/session.service';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok } from '../../../server/http/responses';

/** Ends the session on the server (the token stops working everywhere) and clears the cookie. */
export const POST = endpoint(async (context) => {
  const session = await currentSession(context);
  if (session) await endSessionByHash(session.tokenHash);
  clearSessionCookie(context.cookies, context.url);
  return ok({ loggedOut: true }, { headers: PRIVATE });
});
