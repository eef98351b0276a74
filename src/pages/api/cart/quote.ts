import { endpoint, ok, readJson } from '../../../server/http/responses';
import { quoteCart } from '../../../server/cart/cart.service';
import { cartQuoteRequestSchema } from '../../../lib/cart-quote-schema';

/** POST /api/cart/quote: re-prices a cart from the database (docs/design.md section 7). Never cached. */
export const POST = endpoint(async ({ request }) => {
  const body = await readJson(request, cartQuoteRequestSchema);
  return ok(await quoteCart(body), { headers: { 'Cache-Control': 'private, no-store' } });
});
