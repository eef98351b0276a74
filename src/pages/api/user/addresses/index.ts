import { addressSchema } from '../../../../lib/account-schemas';
import { addAddress, listAddresses } from '../../../../server/address/address.service';
import { requireMember } from '../../../../server/auth/guard';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok, readJson } from '../../../../server/http/responses';

export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  return ok(await listAddresses(member.id), { headers: PRIVATE });
});

export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const input = await readJson(context.request, addressSchema);
  return ok(await addAddress(member.id, input), { status: 201, headers: PRIVATE });
});
