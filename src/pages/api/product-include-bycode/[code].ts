import { endpoint, ok } from '../../../server/http/responses';
import { productByCode } from '../../../server/catalog/catalog.service';
import { apiProductDetail } from '../../../server/catalog/api-shapes';
import { cacheApi, decodedParam } from '../../../server/catalog/api-helpers';
import { tagFor } from '../../../server/catalog/catalog-cache';

/** GET /api/product-include-bycode/{code} */
export const GET = endpoint(async (context) => {
  const product = await productByCode(decodedParam(context.params.code, 'รหัสสินค้าไม่ถูกต้อง'));
  cacheApi(context, [tagFor.product(product.code)]);
  return ok(apiProductDetail(product));
});
