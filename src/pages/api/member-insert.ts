import { registerSchema } from '../../lib/account-schemas';
import { setSessionCookie } from '../../server/auth/cookies';
import { clientIp, userAgent } from '../../server/http/client';
import { PRIVATE } from '../../server/http/private';
import { endpoint, ok, readJson } from '../../server/http/responses';
import { register } from '../../server/members/member.service';

/** Registers a member and logs them in: `{ token, data: { user } }` and the session cookie, like login. */
export const POST = endpoint(async (context) => {
  const input = await readJson(context.request, registerSchema);
  const { token, user } = await register(input, { ip: clientIp(context), userAgent: userAgent(context.request) });
  setSessionCookie(context.cookies, context.url, token);
  return ok({ user }, { status: 201, extra: { token }, headers: PRIVATE });
});
