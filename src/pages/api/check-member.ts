import { checkMemberSchema } from '../../lib/account-schemas';
import { clientIp } from '../../server/http/client';
import { PRIVATE } from '../../server/http/private';
import { endpoint, ok, readJson } from '../../server/http/responses';
import { memberExists } from '../../server/members/member.service';

/** `{ data: { exists } }` for an email or phone; rate limited per address like the other checks. */
export const POST = endpoint(async (context) => {
  const { login } = await readJson(context.request, checkMemberSchema);
  return ok({ exists: await memberExists(login, clientIp(context)) }, { headers: PRIVATE });
});
