import { requireMember } from '../../../server/auth/guard';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok } from '../../../server/http/responses';
import { toAuthUser } from '../../../server/members/member.service';

export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  return ok({ user: toAuthUser(member) }, { headers: PRIVATE });
});
