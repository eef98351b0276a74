import { endpoint } from '../../../server/http/responses';
import { requireStaff } from '../../../server/admin/guard';
import { getCompany } from '../../../server/company/company.service';
import { ordersForDocuments } from '../../../server/orders/admin-orders.service';
import { packingSlipsPdf } from '../../../server/documents/packing-documents';
import { pdfResponse } from '../../../server/documents/pdf';

/** Packing slips (A4, as many orders on a page as fit) for the ticked orders: `?no=A&no=B`. */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'orders');
  const orders = await ordersForDocuments(context.url.searchParams.getAll('no'));
  const bytes = await packingSlipsPdf(orders, await getCompany());
  return pdfResponse(bytes, orders.length === 1 ? `packing-${orders[0]!.orderNo}.pdf` : `packing-slips-${orders.length}.pdf`);
});
