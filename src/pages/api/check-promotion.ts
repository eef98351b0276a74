import { endpoint, ok, readJson } from '../../server/http/responses';
import { currentMember } from '../../server/auth/guard';
import { checkPromotion } from '../../server/orders/order.service';
import { checkPromotionSchema } from '../../lib/orders';
import { satangToBaht } from '../../lib/money';

/**
 * Whether a promotion code applies to the given lines right now, and the discount it gives. Open to
 * visitors; for a signed-in member it also answers whether they may still use it (the code field at
 * checkout shows that reason before the order is placed).
 */
export const POST = endpoint(async (context) => {
  const member = await currentMember(context);
  const body = await readJson(context.request, checkPromotionSchema);
  const result = await checkPromotion(body.code, body.lines, member?.id ?? null);
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
