import { requireMember } from '../../../../server/auth/guard';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok } from '../../../../server/http/responses';
import { removeFromWishlist } from '../../../../server/wishlist/wishlist.service';

/** Takes one product off the member's wishlist (docs/decisions/209); removing what is not there is fine. */
export const DELETE = endpoint(async (context) => {
  const member = await requireMember(context);
  return ok(await removeFromWishlist(member.id, context.params.code), { headers: PRIVATE });
});
