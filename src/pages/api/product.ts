import { endpoint } from '../../server/http/responses';
import { findProducts } from '../../server/catalog/catalog.service';
import { queryFromSearchParams } from '../../server/catalog/listing-query';
import { cacheApi, productPageResponse } from '../../server/catalog/api-helpers';

/** GET /api/product?page=&category=&brand=&min=&max=&sort=&q= — a page of products. */
export const GET = endpoint(async (context) => {
  const page = await findProducts(queryFromSearchParams(context.url.searchParams));
  cacheApi(context, ['listing']);
  return productPageResponse(page);
});
