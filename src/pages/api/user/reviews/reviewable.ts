import { requireMember } from '../../../../server/auth/guard';
import { PRIVATE } from '../../../../server/http/private';
import { endpoint, ok } from '../../../../server/http/responses';
import { reviewableLinesOf } from '../../../../server/reviews/review-read.service';

/**
 * The member's delivered order lines not reviewed yet (`?product=CODE`: of that product). The cached
 * product page asks this to show `เขียนรีวิว` to a member who may write one (docs/decisions/224).
 */
export const GET = endpoint(async (context) => {
  const member = await requireMember(context);
  const product = context.url.searchParams.get('product');
  const lines = await reviewableLinesOf(member.id, product === null ? undefined : product.slice(0, 100));
  return ok(lines, { headers: PRIVATE, extra: { total: lines.length } });
});
