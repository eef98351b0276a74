import { endpoint, ok, readJson } from '../../server/http/responses';
import { badRequest } from '../../server/http/errors';
import { requireMember } from '../../server/auth/guard';
import { placeOrder } from '../../server/orders/order.service';
import { orderJson } from '../../server/orders/order-json';
import { idempotencyKeySchema, placeOrderSchema } from '../../lib/orders';

/**
 * Checkout. The idempotency key comes in the `Idempotency-Key` header or the body; the same key always
 * answers the same order (201 when it was made now, 200 when it already existed).
 */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const body = await readJson(context.request, placeOrderSchema);
  const rawKey = context.request.headers.get('idempotency-key') ?? body.idempotency_key;
  if (!rawKey) throw badRequest('idempotency_key_missing', 'ไม่พบรหัสอ้างอิงการสั่งซื้อ กรุณาลองใหม่อีกครั้ง');
  const key = idempotencyKeySchema.parse(rawKey);
  const { order, created } = await placeOrder(member, {
    idempotencyKey: key,
    lines: body.lines,
    addressId: body.address_id,
    deliveryCode: body.delivery_code,
    paymentMethod: body.payment_method,
    promotionCode: body.promotion_code || undefined,
    note: body.note,
    taxInvoice: body.tax_invoice,
    gift: body.gift,
  });
  return ok(orderJson(order), { status: created ? 201 : 200, headers: { 'Cache-Control': 'private, no-store' } });
});
