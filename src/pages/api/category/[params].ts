import { endpoint, ok } from '../../../server/http/responses';
import { categoryByCode, findProducts } from '../../../server/catalog/catalog.service';
import { parseCode, queryFromCommaSegment } from '../../../server/catalog/listing-query';
import { apiCategory } from '../../../server/catalog/api-shapes';
import { cacheApi, productPageResponse, rawSegmentAfter, safeDecode } from '../../../server/catalog/api-helpers';
import { tagFor } from '../../../server/catalog/catalog-cache';

/**
 * GET /api/category/{code} — one category (404 if unknown);
 * GET /api/category/{page},{code},{min},{max},{brand} — a page of a category's products.
 */
export const GET = endpoint(async (context) => {
  const segment = rawSegmentAfter(context.url, '/api/category/');
  if (!segment.includes(',')) {
    const category = await categoryByCode(parseCode(safeDecode(segment), 'category') ?? '');
    cacheApi(context, [tagFor.category(category.code)]);
    return ok(apiCategory(category));
  }
  const page = await findProducts(queryFromCommaSegment(segment, ['page', 'category', 'min', 'max', 'brand'], context.url.searchParams));
  cacheApi(context, ['listing']);
  return productPageResponse(page);
});
