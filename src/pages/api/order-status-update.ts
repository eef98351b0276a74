import { endpoint, ok, readJson } from '../../server/http/responses';
import { requirePowers } from '../../server/admin/powers';
import { actorFor, changeOrderStatus } from '../../server/orders/order.service';
import { orderJson } from '../../server/orders/order-json';
import { orderStatusUpdateSchema } from '../../lib/orders';
import { auditActor } from '../../server/admin/guard';
import { clientIp } from '../../server/http/client';

/**
 * A status change allowed to this caller: staff move any order along the machine of docs/design.md
 * section 8; a member may only cancel their own order before payment is confirmed, and say they
 * received their own shipped order (`receive`, issue 29: only the order's member, staff included when
 * it is their own order; audited with the member as the actor).
 */
export const POST = endpoint(async (context) => {
  const powers = await requirePowers(context);
  const body = await readJson(context.request, orderStatusUpdateSchema);
  const { member, role } = powers;
  if (body.action === 'receive') {
    const order = await changeOrderStatus(
      { type: 'member', id: member.id },
      body.no,
      { action: 'receive', note: 'ลูกค้ายืนยันว่าได้รับสินค้าแล้ว' },
      { audit: { id: member.id, email: member.email, role: 'member', via: 'web', ip: clientIp(context) } },
    );
    return ok(orderJson(order), { headers: { 'Cache-Control': 'private, no-store' } });
  }
  const actor = actorFor(powers);
  const order = await changeOrderStatus(
    actor,
    body.no,
    { action: body.action, carrier: body.carrier, trackingNo: body.tracking_no, note: body.note },
    // Staff changes through the API land in the audit trail like those made in the back office.
    { audit: actor.type === 'staff' && role ? auditActor({ member, role }, context, 'api') : undefined },
  );
  return ok(orderJson(order), { headers: { 'Cache-Control': 'private, no-store' } });
});
