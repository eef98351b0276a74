import { requireMember } from '../../../../server/auth/guard';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok, readJson } from '../../../../server/http/responses';
import { mergeIntoSavedCart } from '../../../../server/member-cart/member-cart.service';
import { cartMergeSchema } from '../../../../server/member-cart/member-cart.schema';

/** A device's cart meets the saved one, once per sign-in (docs/decisions/218): same variant, the larger amount. */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const input = await readJson(context.request, cartMergeSchema);
  return ok(await mergeIntoSavedCart(member.id, input.items), { headers: PRIVATE });
});
