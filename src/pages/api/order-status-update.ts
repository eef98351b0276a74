import { endpoint, ok, readJson } from '../../server/http/responses';
import { requireMember } from '../../server/auth/guard';
import { actorFor, changeOrderStatus } from '../../server/orders/order.service';
import { orderJson } from '../../server/orders/order-json';
import { orderStatusUpdateSchema } from '../../lib/orders';

/**
 * A status change allowed to this caller: staff move any order along the machine of DESIGN.md
 * section 8; a member may only cancel their own order before payment is confirmed.
 */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const body = await readJson(context.request, orderStatusUpdateSchema);
  const order = await changeOrderStatus(actorFor(member), body.no, {
    action: body.action,
    carrier: body.carrier,
    trackingNo: body.tracking_no,
    note: body.note,
  });
  return ok(orderJson(order), { headers: { 'Cache-Control': 'private, no-store' } });
});
