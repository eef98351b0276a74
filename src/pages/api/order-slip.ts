import { endpoint, ok } from '../../server/http/responses';
import { badRequest } from '../../server/http/errors';
import { requireMember } from '../../server/auth/guard';
import { requirePowers } from '../../server/admin/powers';
import { actorFor, slipOf, uploadSlip } from '../../server/orders/order.service';
import { orderJson } from '../../server/orders/order-json';
import { MAX_SLIP_BYTES, slipTooLarge } from '../../server/orders/slip-storage';
import { orderNoSchema } from '../../lib/orders';

/** Upload a payment slip (multipart: `no`, `slip`) for the caller's own unpaid order. */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const declared = Number(context.request.headers.get('content-length') ?? 0);
  // Multipart framing adds a little; anything far past the limit is refused before it is read.
  if (declared > MAX_SLIP_BYTES + 64 * 1024) throw slipTooLarge();
  let form: FormData;
  try {
    form = await context.request.formData();
  } catch {
    throw badRequest('invalid_form', 'กรุณาเลือกไฟล์สลิปการโอนเงิน');
  }
  const no = orderNoSchema.parse(String(form.get('no') ?? ''));
  const file = form.get('slip');
  if (!(file instanceof File) || file.size === 0) throw badRequest('slip_missing', 'กรุณาเลือกไฟล์สลิปการโอนเงิน');
  if (file.size > MAX_SLIP_BYTES) throw slipTooLarge();
  const order = await uploadSlip(member, no, new Uint8Array(await file.arrayBuffer()));
  return ok(orderJson(order), { headers: { 'Cache-Control': 'private, no-store' } });
});

/** The slip image, only for the order's member and staff. */
export const GET = endpoint(async (context) => {
  const powers = await requirePowers(context);
  const no = orderNoSchema.parse(context.url.searchParams.get('no') ?? '');
  const slip = await slipOf(actorFor(powers), no);
  return new Response(slip.bytes as unknown as BodyInit, {
    headers: {
      'Content-Type': slip.contentType,
      'Cache-Control': 'private, no-store',
      'Content-Disposition': 'inline',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
