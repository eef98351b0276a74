import { endpoint, ok } from '../../../../server/http/responses';
import { badRequest } from '../../../../server/http/errors';
import { cacheApi, decodedParam } from '../../../../server/catalog/api-helpers';
import { tagFor } from '../../../../server/catalog/catalog-cache';
import { productReviewsByCode } from '../../../../server/reviews/review-read.service';

/**
 * GET /api/product/{code}/reviews?page=N: a page of the product's published reviews (photos first, then
 * newest first) with the average, count and distribution (docs/decisions/224). Public and cached like
 * the product page, dropped with it when a review changes its counts.
 */
export const GET = endpoint(async (context) => {
  const code = decodedParam(context.params.code, 'รหัสสินค้าไม่ถูกต้อง');
  const pageText = context.url.searchParams.get('page') ?? '1';
  if (!/^[1-9]\d{0,5}$/.test(pageText)) throw badRequest('invalid_parameters', 'หน้าของรีวิวไม่ถูกต้อง');
  const result = await productReviewsByCode(code, Number(pageText));
  cacheApi(context, [tagFor.product(code)]);
  return ok(result.reviews, { extra: { summary: result.summary, total: result.summary.count, page: result.page, pageSize: result.pageSize, pages: result.pages } });
});
