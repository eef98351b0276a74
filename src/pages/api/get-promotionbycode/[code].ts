import { endpoint, ok } from '../../../server/http/responses';
import { promotionByCode } from '../../../server/promotions/promotion-catalog.service';
import { apiPromotion } from '../../../server/catalog/api-shapes';
import { cacheApi, decodedParam } from '../../../server/catalog/api-helpers';

/** GET /api/get-promotionbycode/{code} — one promotion, 404 if unknown. */
export const GET = endpoint(async (context) => {
  const promotion = await promotionByCode(decodedParam(context.params.code, 'รหัสโปรโมชั่นไม่ถูกต้อง'));
  cacheApi(context, ['promotions']);
  return ok(apiPromotion(promotion));
});
