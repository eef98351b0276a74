import { endpoint } from '../../../server/http/responses';
import { requireStaff } from '../../../server/admin/guard';
import { getCompany } from '../../../server/company/company.service';
import { ordersForDocuments } from '../../../server/orders/admin-orders.service';
import { giftCardsPdf } from '../../../server/documents/gift-card.pdf';
import { pdfResponse } from '../../../server/documents/pdf';

/** issue 31 part 6: message cards (A6, one per page) of the ticked orders that have one: `?no=A&no=B`, beside labels. */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'orders');
  const orders = await ordersForDocuments(context.url.searchParams.getAll('no'));
  const bytes = await giftCardsPdf(orders, await getCompany());
  return pdfResponse(bytes, orders.length === 1 ? `card-${orders[0]!.orderNo}.pdf` : `cards-${orders.length}.pdf`);
});
