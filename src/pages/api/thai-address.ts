import { searchPlaces } from '../../server/address/thai-address';
import { endpoint, ok } from '../../server/http/responses';

/** Address suggestions (`?q=` postcode or place name): the same for everyone, so cacheable. */
export const GET = endpoint((context) => {
  const q = (context.url.searchParams.get('q') ?? '').slice(0, 50);
  return ok(searchPlaces(q, 20), { headers: { 'Cache-Control': 'public, max-age=86400' } });
});
