import { endpoint, ok, readJson } from '../../server/http/responses';
import { requireMember } from '../../server/auth/guard';
import { orderFromQuotation } from '../../server/quotations/quotation.service';
import { orderJson } from '../../server/orders/order-json';
import { orderFromQuotationSchema } from '../../lib/quotations';

/** An order from the caller's quotation at the quoted prices (201; 200 when the same key already made it). */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const body = await readJson(context.request, orderFromQuotationSchema);
  const { order, created } = await orderFromQuotation(member, body.no, {
    addressId: body.address_id,
    paymentMethod: body.payment_method,
    idempotencyKey: body.idempotency_key,
  });
  return ok(orderJson(order), { status: created ? 201 : 200, headers: { 'Cache-Control': 'private, no-store' } });
});
