import { endpoint, ok, readJson } from '../../server/http/responses';
import { requireMember } from '../../server/auth/guard';
import { quoteOrder } from '../../server/orders/order.service';
import { quoteJson } from '../../server/orders/order-json';
import { orderQuoteSchema } from '../../lib/orders';

/** The checkout preview: the cart priced by the server with delivery and promotion, as the order will be. */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const body = await readJson(context.request, orderQuoteSchema);
  return ok(quoteJson(await quoteOrder(body, member.id)), { headers: { 'Cache-Control': 'private, no-store' } });
});
