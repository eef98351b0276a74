import { endpoint } from '../../../server/http/responses';
import { findProducts } from '../../../server/catalog/catalog.service';
import { queryFromCommaSegment } from '../../../server/catalog/listing-query';
import { cacheApi, productPageResponse, rawSegmentAfter } from '../../../server/catalog/api-helpers';

/** GET /api/product-search/{page},{keyword},{min},{max},{brand} — ranked search results. */
export const GET = endpoint(async (context) => {
  const segment = rawSegmentAfter(context.url, '/api/product-search/');
  const page = await findProducts(queryFromCommaSegment(segment, ['page', 'keyword', 'min', 'max', 'brand'], context.url.searchParams));
  cacheApi(context, ['listing', 'search']);
  return productPageResponse(page);
});
