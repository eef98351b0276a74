import { endpoint } from '../../../../server/http/responses';
import { requireStaff } from '../../../../server/admin/guard';
import { orderDocumentPdf } from '../../../../server/documents/receipt.service';
import { pdfResponse } from '../../../../server/documents/pdf';
import { orderNoSchema } from '../../../../lib/orders';

/** Staff download an order's receipt / abbreviated tax invoice from the order page. */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'orders');
  const no = orderNoSchema.parse(context.params.no ?? '');
  const { bytes, filename } = await orderDocumentPdf(null, no, 'receipt');
  return pdfResponse(bytes, filename);
});
