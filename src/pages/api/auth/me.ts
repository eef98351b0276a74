import { clearSessionCookie, SESSION_COOKIE, SESSION_HINT_COOKIE } from '../../../server/auth/cookies';
import { resolveAwaitingSession } from '../../../server/auth/session.service';
import { currentMember } from '../../../server/auth/guard';
import { unauthorized } from '../../../server/http/errors';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok } from '../../../server/http/responses';
import { toAuthUser } from '../../../server/members/member.service';

export const GET = endpoint(async (context) => {
  const member = await currentMember(context);
  if (!member) {
    // The hint cookie said a session might exist and it does not (ended elsewhere, idle too long): the
    // hint goes with the dead cookie, so the next page is painted as a visitor's (docs/decisions/187).
    // A session still owing its second step is alive: the two-step page needs its cookie.
    if (context.cookies.has(SESSION_HINT_COOKIE) && !(await resolveAwaitingSession(context.cookies.get(SESSION_COOKIE)?.value))) {
      clearSessionCookie(context.cookies, context.url);
    }
    throw unauthorized();
  }
  return ok({ user: toAuthUser(member) }, { headers: PRIVATE });
});
