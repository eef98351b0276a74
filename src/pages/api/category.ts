import { endpoint, ok } from '../../server/http/responses';
import { listActiveCategories } from '../../server/catalog/category.repo';
import { getDb } from '../../server/db/client';
import { apiCategory } from '../../server/catalog/api-shapes';
import { cacheApi } from '../../server/catalog/api-helpers';

/** GET /api/category — active categories with their product counts (navbar). */
export const GET = endpoint(async (context) => {
  const categories = await listActiveCategories(await getDb());
  cacheApi(context, ['listing']);
  return ok(categories.map(apiCategory));
});
