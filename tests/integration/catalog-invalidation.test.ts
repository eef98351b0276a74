import { describe, expect, it } from 'vitest';
import { changeOrderStatus } from '../../src/server/orders/order.service';
import { cachePublicPage, type RouteCacheHandle } from '../../src/server/catalog/catalog-cache';
import { findProducts } from '../../src/server/catalog/catalog.service';
import { emptyQuery } from '../../src/server/catalog/listing-query';
import { createMember, productWithStock, placeTestOrder } from '../fixtures/orders';

/** Stock changes made by orders reach the catalog caches (route cache tags and the search id cache). */
describe('catalog cache invalidation from orders', () => {
  it('placing and cancelling an order purge the pages that show its products', async () => {
    const purged: unknown[] = [];
    const handle: RouteCacheHandle = { enabled: true, set: () => {}, invalidate: async (options) => void purged.push(options) };
    cachePublicPage(handle, ['listing']);
    const member = await createMember();
    const product = await productWithStock(3);
    const before = await findProducts({ ...emptyQuery, keyword: product.code });
    expect(before.items[0]?.stock).toBe(3);

    const { order } = await placeTestOrder(member, [{ product_code: product.code, amount: 3 }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const tag = `product:${product.code.toLowerCase()}`;
    expect(purged).toContainEqual({ tags: [tag, 'listing', 'home', 'promotions'] });
    expect((await findProducts({ ...emptyQuery, keyword: product.code })).items[0]?.stock).toBe(0);

    purged.length = 0;
    await changeOrderStatus({ type: 'member', id: member.id }, order.orderNo, { action: 'cancel' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(purged).toContainEqual({ tags: [tag, 'listing', 'home', 'promotions'] });
  });
});
