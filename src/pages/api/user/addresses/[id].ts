import { addressIdSchema, addressSchema } from '../../../../lib/account-schemas';
import { editAddress, getAddress, removeAddress } from '../../../../server/address/address.service';
import { requireMember } from '../../../../server/auth/guard';
import { notFound } from '../../../../server/http/errors';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok, readJson } from '../../../../server/http/responses';

/** A malformed id is the same 404 as another member's address: nothing to learn by guessing. */
function addressId(params: Record<string, string | undefined>): string {
  const parsed = addressIdSchema.safeParse({ id: params.id });
  if (!parsed.success) throw notFound('address_not_found', 'ไม่พบที่อยู่นี้');
  return parsed.data.id;
}

export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  return ok(await getAddress(member.id, addressId(context.params)), { headers: PRIVATE });
});

export const PUT = endpoint(async (context) => {
  const member = await requireMember(context);
  const id = addressId(context.params);
  const input = await readJson(context.request, addressSchema);
  return ok(await editAddress(member.id, id, input), { headers: PRIVATE });
});

export const DELETE = endpoint(async (context) => {
  const member = await requireMember(context);
  await removeAddress(member.id, addressId(context.params));
  return ok({ deleted: true }, { headers: PRIVATE });
});
