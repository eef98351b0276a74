import { endpoint } from '../../../server/http/responses';
import { requireStaff } from '../../../server/admin/guard';
import { getCompany } from '../../../server/company/company.service';
import { ordersForDocuments } from '../../../server/orders/admin-orders.service';
import { shippingLabelsPdf } from '../../../server/documents/order-documents';
import { pdfResponse } from '../../../server/documents/pdf';

/** Shipping labels (100 × 150 mm) for the ticked orders: `?no=A&no=B`, one page each, in that order. */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'orders');
  const orders = await ordersForDocuments(context.url.searchParams.getAll('no'));
  const bytes = await shippingLabelsPdf(orders, await getCompany());
  return pdfResponse(bytes, orders.length === 1 ? `label-${orders[0]!.orderNo}.pdf` : `labels-${orders.length}.pdf`);
});
