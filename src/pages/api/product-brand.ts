import { endpoint, ok } from '../../server/http/responses';
import { listBrands } from '../../server/catalog/catalog.service';
import { apiBrand } from '../../server/catalog/api-shapes';
import { cacheApi } from '../../server/catalog/api-helpers';

/** GET /api/product-brand — active brands. */
export const GET = endpoint(async (context) => {
  const brands = await listBrands();
  cacheApi(context, ['listing']);
  return ok(brands.map(apiBrand));
});
