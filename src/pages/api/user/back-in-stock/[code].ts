import { requireMember } from '../../../../server/auth/guard';
import { cancelMember } from '../../../../server/back-in-stock/back-in-stock.service';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok, validationError } from '../../../../server/http/responses';
import { variantCodeField } from '../../../../lib/back-in-stock-schemas';

/** The member no longer waits for the variant (docs/decisions/220); cancelling what is not there is fine. */
export const DELETE = endpoint(async (context) => {
  const member = await requireMember(context);
  const parsed = variantCodeField.safeParse(context.params.code ?? '');
  if (!parsed.success) throw validationError(parsed.error);
  return ok(await cancelMember(member.id, parsed.data), { headers: PRIVATE });
});
