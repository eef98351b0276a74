import { endpoint, ok } from '../../server/http/responses';
import { listPromotions } from '../../server/promotions/promotion-catalog.service';
import { apiPromotion } from '../../server/catalog/api-shapes';
import { cacheApi } from '../../server/catalog/api-helpers';

/** GET /api/get-promotion/ — every promotion with its state (active, upcoming, used_up, ended). */
export const GET = endpoint(async (context) => {
  const promotions = await listPromotions();
  cacheApi(context, ['promotions']);
  return ok(promotions.map(apiPromotion));
});
