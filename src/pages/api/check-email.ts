import { checkEmailSchema } from '../../lib/account-schemas';
import { clientIp } from '../../server/http/client';
import { PRIVATE } from '../../server/http/private';
import { endpoint, ok, readJson } from '../../server/http/responses';
import { emailAvailable } from '../../server/members/member.service';

/** `{ data: { available } }` for the register form; rate limited per address. */
export const POST = endpoint(async (context) => {
  const { email } = await readJson(context.request, checkEmailSchema);
  return ok({ available: await emailAvailable(email, clientIp(context)) }, { headers: PRIVATE });
});
