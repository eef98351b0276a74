import { endpoint, ok } from '../../../../server/http/responses';
import { requireStaff } from '../../../../server/admin/guard';
import { checkProductCode } from '../../../../server/catalog-admin/product-admin.service';

/** The product form checks the code as it is typed: free, taken, or not allowed. */
export const GET = endpoint(async (context) => {
  await requireStaff(context, 'catalog');
  const code = (context.url.searchParams.get('code') ?? '').trim();
  const except = context.url.searchParams.get('except');
  return ok(await checkProductCode(code, except || null), { headers: { 'Cache-Control': 'no-store' } });
});
