import { endpoint, ok } from '../../server/http/responses';
import { activePromotions } from '../../server/promotions/promotion-catalog.service';
import { apiPromotion } from '../../server/catalog/api-shapes';
import { cacheApi } from '../../server/catalog/api-helpers';

/** GET /api/get-promotionactive/ — promotions running now and not used up. */
export const GET = endpoint(async (context) => {
  const promotions = await activePromotions();
  cacheApi(context, ['promotions']);
  return ok(promotions.map(apiPromotion));
});
