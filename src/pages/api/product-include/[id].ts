import { endpoint, ok } from '../../../server/http/responses';
import { badRequest } from '../../../server/http/errors';
import { productById } from '../../../server/catalog/catalog.service';
import { apiProductDetail } from '../../../server/catalog/api-shapes';
import { cacheApi } from '../../../server/catalog/api-helpers';
import { productTags } from '../../../server/catalog/catalog-cache';

/** GET /api/product-include/{id} — a product with category, brand, images and price tiers. */
export const GET = endpoint(async (context) => {
  const raw = context.params.id ?? '';
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw badRequest('invalid_id', 'รหัสสินค้าต้องเป็นตัวเลข');
  const product = await productById(Number(raw));
  cacheApi(context, productTags(product));
  return ok(apiProductDetail(product));
});
