import { endpoint, ok, readJson } from '../../server/http/responses';
import { requirePowers } from '../../server/admin/powers';
import { actorFor, getOrder } from '../../server/orders/order.service';
import { orderJson } from '../../server/orders/order-json';
import { orderGetSchema } from '../../lib/orders';

/** One order of the caller (staff: any order). */
export const POST = endpoint(async (context) => {
  const powers = await requirePowers(context);
  const { no } = await readJson(context.request, orderGetSchema);
  return ok(orderJson(await getOrder(actorFor(powers), no)), { headers: { 'Cache-Control': 'private, no-store' } });
});
