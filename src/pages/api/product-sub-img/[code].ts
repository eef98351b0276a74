import { endpoint, ok } from '../../../server/http/responses';
import { productSubImages } from '../../../server/catalog/catalog.service';
import { cacheApi, decodedParam } from '../../../server/catalog/api-helpers';
import { tagFor } from '../../../server/catalog/catalog-cache';

/** GET /api/product-sub-img/{code} — a product's extra images (after the main one). */
export const GET = endpoint(async (context) => {
  const code = decodedParam(context.params.code, 'รหัสสินค้าไม่ถูกต้อง');
  const images = await productSubImages(code);
  cacheApi(context, [tagFor.product(code)]);
  return ok(images);
});
