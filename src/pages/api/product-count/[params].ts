import { endpoint, ok } from '../../../server/http/responses';
import { countProducts } from '../../../server/catalog/catalog.service';
import { queryFromCommaSegment } from '../../../server/catalog/listing-query';
import { cacheApi, rawSegmentAfter } from '../../../server/catalog/api-helpers';

/**
 * GET /api/product-count/{category},{keyword},{min},{max},{brand} — `{ data: { count } }`, with
 * `capped: true` when more than `count` match (counting stops at 1,000).
 */
export const GET = endpoint(async (context) => {
  const segment = rawSegmentAfter(context.url, '/api/product-count/');
  const { count, capped } = await countProducts(queryFromCommaSegment(segment, ['category', 'keyword', 'min', 'max', 'brand']));
  cacheApi(context, ['listing']);
  return ok(capped ? { count, capped } : { count });
});
