import { endpoint, ok } from '../../../server/http/responses';
import { productByName } from '../../../server/catalog/catalog.service';
import { apiProductDetail } from '../../../server/catalog/api-shapes';
import { cacheApi, decodedParam } from '../../../server/catalog/api-helpers';
import { productTags } from '../../../server/catalog/catalog-cache';

/** GET /api/product-include-name/{name} — by the exact product name (normalised). */
export const GET = endpoint(async (context) => {
  const product = await productByName(decodedParam(context.params.name, 'ชื่อสินค้าไม่ถูกต้อง'));
  cacheApi(context, productTags(product));
  return ok(apiProductDetail(product));
});
