import { endpoint, ok } from '../../server/http/responses';
import { suggestions } from '../../server/catalog/catalog.service';
import { parseKeyword } from '../../server/catalog/listing-query';
import { cacheApi } from '../../server/catalog/api-helpers';

/** GET /api/search-suggest?q= — categories, brands and product names for the navbar search box. */
export const GET = endpoint(async (context) => {
  const keyword = parseKeyword(context.url.searchParams.get('q'));
  const data = keyword ? await suggestions(keyword) : [];
  cacheApi(context, ['search']);
  return ok(data);
});
