import { requireMember } from '../../../../server/auth/guard';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok, readJson } from '../../../../server/http/responses';
import { applyCartChanges, savedCart } from '../../../../server/member-cart/member-cart.service';
import { cartChangesSchema } from '../../../../server/member-cart/member-cart.schema';

/** The member's saved cart (docs/decisions/218): GET reads it, PATCH sends a device's changes. */
export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  return ok(await savedCart(member.id), { headers: PRIVATE });
});

export const PATCH = endpoint(async (context) => {
  const member = await requireMember(context);
  const input = await readJson(context.request, cartChangesSchema);
  return ok(await applyCartChanges(member.id, input.changes), { headers: PRIVATE });
});
