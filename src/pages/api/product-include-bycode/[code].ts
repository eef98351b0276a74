import { endpoint, ok } from '../../../server/http/responses';
import { productByCode } from '../../../server/catalog/catalog.service';
import { apiProductDetail } from '../../../server/catalog/api-shapes';
import { cacheApi, decodedParam } from '../../../server/catalog/api-helpers';
import { productTags } from '../../../server/catalog/catalog-cache';

/** GET /api/product-include-bycode/{code} */
export const GET = endpoint(async (context) => {
  const code = decodedParam(context.params.code, 'รหัสสินค้าไม่ถูกต้อง');
  // A variant's code answers with its product and `variant_code` naming it (docs/decisions/205).
  const product = await productByCode(code);
  cacheApi(context, productTags(product));
  return ok(apiProductDetail(product, code));
});
