import { requireMember } from '../../../../server/auth/guard';
import { memberSubscription } from '../../../../server/back-in-stock/back-in-stock.service';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok, validationError } from '../../../../server/http/responses';
import { variantCodeField } from '../../../../lib/back-in-stock-schemas';

/** Whether the member waits for a variant (`?variant=CODE`): the product page asks when one is sold out. */
export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  const parsed = variantCodeField.safeParse(context.url.searchParams.get('variant') ?? '');
  if (!parsed.success) throw validationError(parsed.error);
  return ok(await memberSubscription(member.id, parsed.data), { headers: PRIVATE });
});
