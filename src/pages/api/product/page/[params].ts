import { endpoint } from '../../../../server/http/responses';
import { findProducts } from '../../../../server/catalog/catalog.service';
import { queryFromCommaSegment } from '../../../../server/catalog/listing-query';
import { cacheApi, productPageResponse, rawSegmentAfter } from '../../../../server/catalog/api-helpers';

/** GET /api/product/page/{page},{min},{max},{brand} */
export const GET = endpoint(async (context) => {
  const segment = rawSegmentAfter(context.url, '/api/product/page/');
  const page = await findProducts(queryFromCommaSegment(segment, ['page', 'min', 'max', 'brand'], context.url.searchParams));
  cacheApi(context, ['listing']);
  return productPageResponse(page);
});
