import { endpoint } from '../../../server/http/responses';
import { requireStaff } from '../../../server/admin/guard';
import { getCompany } from '../../../server/company/company.service';
import { ordersForDocuments } from '../../../server/orders/admin-orders.service';
import { pickListPdf } from '../../../server/documents/packing-documents';
import { pdfResponse } from '../../../server/documents/pdf';

/** The pick list (A4): the lines of the ticked orders summed by product, `?no=A&no=B`. */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'orders');
  const orders = await ordersForDocuments(context.url.searchParams.getAll('no'));
  const bytes = await pickListPdf(orders, await getCompany());
  return pdfResponse(bytes, `pick-list-${orders.length}.pdf`);
});
