import { loginSchema } from '../../../lib/account-schemas';
import { setSessionCookie } from '../../../server/auth/cookies';
import { clientIp, userAgent } from '../../../server/http/client';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok, readJson } from '../../../server/http/responses';
import { login } from '../../../server/members/member.service';

/** `{ token, data: { user } }` plus the session cookie; the same token works as a Bearer token. */
export const POST = endpoint(async (context) => {
  const input = await readJson(context.request, loginSchema);
  const { token, user, twoFactorRequired } = await login(input, { ip: clientIp(context), userAgent: userAgent(context.request) });
  setSessionCookie(context.cookies, context.url, token);
  // Password right, TOTP still owed: the browser goes to /login/two-step; the token works only after it.
  if (twoFactorRequired) return ok({ user: null, two_factor_required: true }, { headers: PRIVATE });
  return ok({ user }, { extra: { token }, headers: PRIVATE });
});
