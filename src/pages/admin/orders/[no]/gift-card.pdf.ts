import { endpoint } from '../../../../server/http/responses';
import { requireStaff } from '../../../../server/admin/guard';
import { getCompany } from '../../../../server/company/company.service';
import { ordersForDocuments } from '../../../../server/orders/admin-orders.service';
import { giftCardsPdf } from '../../../../server/documents/gift-card.pdf';
import { pdfResponse } from '../../../../server/documents/pdf';

/** issue 31 part 6: the order's message card (A6) from its back-office page; 404 in Thai without a message. */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'orders');
  const orders = await ordersForDocuments([context.params.no ?? '']);
  return pdfResponse(await giftCardsPdf(orders, await getCompany()), `card-${orders[0]!.orderNo}.pdf`);
});
