import { endpoint, ok } from '../../server/http/responses';
import { badRequest } from '../../server/http/errors';
import { randomProducts } from '../../server/catalog/catalog.service';
import { apiProduct } from '../../server/catalog/api-shapes';

/** GET /api/product-random?limit=12 — recommended products in random order (never cached). */
export const GET = endpoint(async ({ url }) => {
  const raw = url.searchParams.get('limit') ?? '12';
  if (!/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > 48) throw badRequest('invalid_limit', 'จำนวนสินค้าต้องอยู่ระหว่าง 1 ถึง 48');
  return ok((await randomProducts(Number(raw))).map(apiProduct), { headers: { 'Cache-Control': 'no-store' } });
});
