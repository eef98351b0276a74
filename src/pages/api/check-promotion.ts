import { endpoint, ok, readJson } from '../../server/http/responses';
import { checkPromotion } from '../../server/orders/order.service';
import { checkPromotionSchema } from '../../lib/orders';
import { satangToBaht } from '../../lib/money';

/** Whether a promotion code applies to the given lines right now, and the discount it gives. */
export const POST = endpoint(async ({ request }) => {
  const body = await readJson(request, checkPromotionSchema);
  const result = await checkPromotion(body.code, body.lines);
  return ok(
    {
      code: result.code,
      name: result.name,
      discount_type: result.discountType,
      discount_value: result.discountType === 'fixed' ? satangToBaht(result.discountValue) : result.discountValue,
      eligible_price: satangToBaht(result.eligibleSatang),
      discount_price: satangToBaht(result.discountSatang),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
});
