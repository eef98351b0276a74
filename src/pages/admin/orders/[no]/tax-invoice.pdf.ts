import { endpoint } from '../../../../server/http/responses';
import { requireStaff } from '../../../../server/admin/guard';
import { orderDocumentPdf } from '../../../../server/documents/receipt.service';
import { pdfResponse } from '../../../../server/documents/pdf';
import { orderNoSchema } from '../../../../lib/orders';

/** Staff download an order's full tax invoice (when the buyer asked for one) from the order page. */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'orders');
  const no = orderNoSchema.parse(context.params.no ?? '');
  const { bytes, filename } = await orderDocumentPdf(null, no, 'tax-invoice');
  return pdfResponse(bytes, filename);
});
