import { currentMember } from '../../server/auth/guard';
import { subscribeMember, requestByEmail } from '../../server/back-in-stock/back-in-stock.service';
import { clientIp } from '../../server/http/client';
import { PRIVATE } from '../../server/http/private';
import { endpoint, ok, readJson } from '../../server/http/responses';
import { backInStockMemberSchema, backInStockVisitorSchema } from '../../lib/back-in-stock-schemas';

/**
 * `แจ้งเตือนเมื่อมีสินค้า` on a sold-out variant (docs/decisions/220): a member's session subscribes them in
 * one click (`{ variant }`); a visitor gives an e-mail (`{ variant, email }`) and gets a confirmation mail.
 * The form without JavaScript posts to /back-in-stock instead (the same service).
 */
export const POST = endpoint(async (context) => {
  const member = await currentMember(context);
  if (member) {
    const input = await readJson(context.request, backInStockMemberSchema);
    return ok(await subscribeMember(member.id, input.variant), { headers: PRIVATE });
  }
  const input = await readJson(context.request, backInStockVisitorSchema);
  return ok(await requestByEmail(input.email, input.variant, clientIp(context)), { headers: PRIVATE });
});
