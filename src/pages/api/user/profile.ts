import type { APIRoute } from 'astro';
import { profileSchema } from '../../../lib/account-schemas';
import { requireMember } from '../../../server/auth/guard';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok, readJson } from '../../../server/http/responses';
import { getProfile, saveProfile } from '../../../server/members/member.service';

export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  return ok(await getProfile(member.id), { headers: PRIVATE });
});

/** Name, phone and birthday of the logged-in member; the email is not changed here. */
export const PUT: APIRoute = endpoint(async (context) => {
  const member = await requireMember(context);
  const input = await readJson(context.request, profileSchema);
  return ok(await saveProfile(member.id, input), { headers: PRIVATE });
});
export const POST = PUT;
