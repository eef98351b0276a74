import { requireMember } from '../../../server/auth/guard';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok } from '../../../server/http/responses';
import { getProfile } from '../../../server/members/member.service';

/** The logged-in member only: there is no way to list or fetch other members. */
export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  return ok(await getProfile(member.id), { headers: PRIVATE });
});
