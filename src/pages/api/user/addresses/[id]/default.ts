import { addressIdSchema } from '../../../../../lib/account-schemas';
import { makeDefault } from '../../../../../server/address/address.service';
import { requireMember } from '../../../../../server/auth/guard';
import { notFound } from '../../../../../server/http/errors';
import { PRIVATE } from '../../../../../server/http/private';
import { endpoint, ok } from '../../../../../server/http/responses';

export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const parsed = addressIdSchema.safeParse({ id: context.params.id });
  if (!parsed.success) throw notFound('address_not_found', 'ไม่พบที่อยู่นี้');
  return ok(await makeDefault(member.id, parsed.data.id), { headers: PRIVATE });
});
