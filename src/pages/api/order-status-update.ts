import { endpoint, ok, readJson } from '../../server/http/responses';
import { requirePowers } from '../../server/admin/powers';
import { actorFor, changeOrderStatus } from '../../server/orders/order.service';
import { orderJson } from '../../server/orders/order-json';
import { orderStatusUpdateSchema } from '../../lib/orders';
import { auditActor } from '../../server/admin/guard';

/**
 * A status change allowed to this caller: staff move any order along the machine of docs/design.md
 * section 8; a member may only cancel their own order before payment is confirmed.
 */
export const POST = endpoint(async (context) => {
  const powers = await requirePowers(context);
  const body = await readJson(context.request, orderStatusUpdateSchema);
  const actor = actorFor(powers);
  const { member, role } = powers;
  const order = await changeOrderStatus(
    actor,
    body.no,
    { action: body.action, carrier: body.carrier, trackingNo: body.tracking_no, note: body.note },
    // Staff changes through the API land in the audit trail like those made in the back office.
    { audit: actor.type === 'staff' && role ? auditActor({ member, role }, context, 'api') : undefined },
  );
  return ok(orderJson(order), { headers: { 'Cache-Control': 'private, no-store' } });
});
