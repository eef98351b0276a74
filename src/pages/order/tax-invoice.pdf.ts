import { endpoint } from '../../server/http/responses';
import { requirePowers } from '../../server/admin/powers';
import { isStaff } from '../../server/orders/order.service';
import { orderDocumentPdf } from '../../server/documents/receipt.service';
import { pdfResponse } from '../../server/documents/pdf';
import { orderNoSchema } from '../../lib/orders';

/** The full tax invoice the caller asked for, once the order is paid (staff: any order). */
export const GET = endpoint(async (context) => {
  const powers = await requirePowers(context);
  const no = orderNoSchema.parse(context.url.searchParams.get('no') ?? '');
  const { bytes, filename } = await orderDocumentPdf(isStaff(powers) ? null : powers.member.id, no, 'tax-invoice');
  return pdfResponse(bytes, filename);
});
