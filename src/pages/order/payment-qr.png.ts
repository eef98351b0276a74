import { endpoint } from '../../server/http/responses';
import { currentPowers } from '../../server/admin/powers';
import { actorFor, orderNotFound } from '../../server/orders/order.service';
import { paymentQrPng } from '../../server/orders/payment-qr-picture';
import { orderNoSchema } from '../../lib/orders';

/**
 * The PromptPay QR of the caller's unpaid order as a PNG to save (`บันทึกรูป QR` on /order/payment; staff:
 * any order, as with the receipt). A visitor gets the same 404 as someone else's member: a link that
 * leaks out says nothing about the order.
 */
export const GET = endpoint(async (context) => {
  const powers = await currentPowers(context);
  if (!powers) throw orderNotFound();
  const no = orderNoSchema.parse((context.url.searchParams.get('no') ?? '').toUpperCase());
  const { bytes, filename } = await paymentQrPng(actorFor(powers), no);
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': 'image/png',
      'Content-Length': String(bytes.length),
      'Content-Disposition': `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
