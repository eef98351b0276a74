import { listAddresses } from '../../server/address/address.service';
import { requireMember } from '../../server/auth/guard';
import { PRIVATE } from '../../server/http/private';
import { endpoint, ok } from '../../server/http/responses';

/** The logged-in member's addresses, default first. Any member id in the body is ignored. */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  return ok(await listAddresses(member.id), { headers: PRIVATE });
});
export const GET = POST;
