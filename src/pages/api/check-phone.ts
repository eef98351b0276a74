import { checkPhoneSchema } from '../../lib/account-schemas';
import { clientIp } from '../../server/http/client';
import { PRIVATE } from '../../server/http/private';
import { endpoint, ok, readJson } from '../../server/http/responses';
import { phoneAvailable } from '../../server/members/member.service';

/** `{ data: { available } }` for the register and profile forms; rate limited per address. */
export const POST = endpoint(async (context) => {
  const { phone } = await readJson(context.request, checkPhoneSchema);
  return ok({ available: await phoneAvailable(phone, clientIp(context)) }, { headers: PRIVATE });
});
