import { endpoint, paged, readJson } from '../../server/http/responses';
import { requireMember } from '../../server/auth/guard';
import { listOrders } from '../../server/orders/order.service';
import { orderJson } from '../../server/orders/order-json';
import { orderListSchema } from '../../lib/orders';

/** The caller's own orders, newest first, by My Purchase tab. */
export const POST = endpoint(async (context) => {
  const member = await requireMember(context);
  const { tab, page } = await readJson(context.request, orderListSchema);
  const result = await listOrders(member.id, tab, page);
  const response = paged(result.orders.map(orderJson), { total: result.total, page: result.page, pageSize: result.pageSize });
  response.headers.set('Cache-Control', 'private, no-store');
  return response;
});
