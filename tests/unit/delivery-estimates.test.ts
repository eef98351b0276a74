import { describe, expect, it } from 'vitest';
import { deliveryEstimates, isStorePickup } from '../../src/lib/delivery';

const options = [
  { code: 'kerry', name: 'Kerry Express', feeSatang: 4500, days: '1–2 วันทำการ', trackingUrl: null },
  { code: 'pickup', name: 'รับเองที่หน้าร้าน', feeSatang: 0, days: '', trackingUrl: null },
];

describe('delivery estimates on the cart page (issue 29)', () => {
  it('prices each option and says how much more reaches free delivery', () => {
    const below = deliveryEstimates(options, 150_000, 120_000);
    expect(below.moreForFreeSatang).toBe(30_000);
    expect(below.options.map((option) => [option.code, option.feeSatang, option.freeByAmount])).toEqual([
      ['kerry', 4500, false],
      ['pickup', 0, false],
    ]);
  });

  it('makes paid options free from the free-delivery amount on, as the server prices checkout', () => {
    const reached = deliveryEstimates(options, 150_000, 150_000);
    expect(reached.moreForFreeSatang).toBeNull();
    expect(reached.options[0]).toMatchObject({ feeSatang: 0, listedFeeSatang: 4500, freeByAmount: true });
  });

  it('has nothing to reach without a free-delivery amount or a paid option', () => {
    expect(deliveryEstimates(options, null, 1000).moreForFreeSatang).toBeNull();
    expect(deliveryEstimates([options[1]!], 150_000, 1000).moreForFreeSatang).toBeNull();
  });

  it('knows store pickup by its code', () => {
    expect(isStorePickup('pickup')).toBe(true);
    expect(isStorePickup('kerry')).toBe(false);
    expect(isStorePickup(undefined)).toBe(false);
  });
});
