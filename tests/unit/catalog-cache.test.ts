import { describe, expect, it, vi } from 'vitest';
import { cachePublicPage, catalogVersion, doNotCache, invalidateCatalog, onCatalogChange, type RouteCacheHandle } from '../../src/server/catalog/catalog-cache';

function recorder() {
  const calls: { set: unknown[]; invalidate: unknown[] } = { set: [], invalidate: [] };
  const handle: RouteCacheHandle = {
    enabled: true,
    set: (options) => void calls.set.push(options),
    invalidate: async (options) => void calls.invalidate.push(options),
  };
  return { calls, handle };
}

describe('catalog cache invalidation', () => {
  it('marks public pages with the catalog tag plus their own', () => {
    const { calls, handle } = recorder();
    cachePublicPage(handle, ['listing', 'category:makeup']);
    expect(calls.set).toEqual([{ maxAge: 60, swr: 600, tags: ['catalog', 'listing', 'category:makeup'] }]);
    doNotCache(handle);
    expect(calls.set.at(-1)).toBe(false);
  });

  it('invalidates what a product change affects, everything without a scope, and bumps the version', async () => {
    const { calls, handle } = recorder();
    let heard = 0;
    const stop = onCatalogChange(() => heard++);
    const before = catalogVersion();
    await invalidateCatalog({ productCodes: ['P00001'] }, handle);
    await invalidateCatalog({}, handle);
    await invalidateCatalog({ content: true }, handle);
    stop();
    expect(calls.invalidate).toEqual([
      { tags: ['product:p00001', 'listing', 'home', 'promotions'] },
      { tags: ['catalog'] },
      { tags: ['content', 'catalog'] },
    ]);
    expect(catalogVersion()).toBe(before + 3);
    expect(heard).toBe(3);
  });

  it('reaches the route cache from outside a request through the handle a page registered', async () => {
    vi.resetModules();
    const fresh = await import('../../src/server/catalog/catalog-cache');
    const { calls, handle } = recorder();
    await fresh.invalidateCatalog({ productCodes: ['P00002'] });
    expect(calls.invalidate).toEqual([]);
    fresh.cachePublicPage(handle, ['home']);
    await fresh.invalidateCatalog({ productCodes: ['P00002'] });
    expect(calls.invalidate).toEqual([{ tags: ['product:p00002', 'listing', 'home', 'promotions'] }]);
  });
});
