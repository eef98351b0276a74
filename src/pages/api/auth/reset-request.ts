import { resetRequestSchema } from '../../../lib/account-schemas';
import { RESET_REQUESTED_MESSAGE, requestReset } from '../../../server/auth/reset.service';
import { clientIp } from '../../../server/http/client';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok, readJson } from '../../../server/http/responses';

/** The same answer whether or not the email belongs to a member. */
export const POST = endpoint(async (context) => {
  const { email } = await readJson(context.request, resetRequestSchema);
  await requestReset(email, clientIp(context));
  return ok({ message: RESET_REQUESTED_MESSAGE }, { headers: PRIVATE });
});
