import { endpoint, ok } from '../../../server/http/responses';
import { categoryByName } from '../../../server/catalog/catalog.service';
import { apiCategory } from '../../../server/catalog/api-shapes';
import { cacheApi, decodedParam } from '../../../server/catalog/api-helpers';

/** GET /api/category-name/{name} — a category by its Thai or English name. */
export const GET = endpoint(async (context) => {
  const category = await categoryByName(decodedParam(context.params.name, 'ชื่อประเภทสินค้าไม่ถูกต้อง'));
  cacheApi(context, ['listing']);
  return ok(apiCategory(category));
});
