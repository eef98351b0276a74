import { describe, expect, it } from 'vitest';
import { groupTiersByProduct, lowestTierPrice, nextTierFor, tierTable, unitPriceFor } from '../../src/lib/pricing';

const tiers = [
  { minQuantity: 100, priceSatang: 3900 },
  { minQuantity: 12, priceSatang: 4500 },
];

describe('wholesale tiers', () => {
  it.each([
    [1, 5900],
    [11, 5900],
    [12, 4500],
    [99, 4500],
    [100, 3900],
    [5000, 3900],
  ])('amount %i costs %i satang a piece', (amount, price) => {
    expect(unitPriceFor(5900, tiers, amount)).toBe(price);
  });

  it('without tiers the retail price applies', () => {
    expect(unitPriceFor(5900, [], 500)).toBe(5900);
  });

  it('tells how many more pieces reach the next tier', () => {
    expect(nextTierFor(5900, tiers, 9)).toEqual({ missing: 3, priceSatang: 4500, minQuantity: 12 });
    expect(nextTierFor(5900, tiers, 12)).toEqual({ missing: 88, priceSatang: 3900, minQuantity: 100 });
    expect(nextTierFor(5900, tiers, 100)).toBeNull();
  });

  it('builds the table shown on the product page', () => {
    expect(tierTable(5900, tiers)).toEqual([
      { from: 1, to: 11, priceSatang: 5900 },
      { from: 12, to: 99, priceSatang: 4500 },
      { from: 100, to: null, priceSatang: 3900 },
    ]);
  });
});

describe('groupTiersByProduct', () => {
  it('groups tier rows by product, keeping their order', () => {
    const grouped = groupTiersByProduct([
      { productId: 7, minQuantity: 12, priceSatang: 4500 },
      { productId: 9, minQuantity: 10, priceSatang: 900 },
      { productId: 7, minQuantity: 100, priceSatang: 3900 },
    ]);
    expect(grouped.get(7)).toEqual([
      { minQuantity: 12, priceSatang: 4500 },
      { minQuantity: 100, priceSatang: 3900 },
    ]);
    expect(grouped.get(9)).toEqual([{ minQuantity: 10, priceSatang: 900 }]);
    expect(grouped.has(8)).toBe(false);
  });
});

describe('lowestTierPrice', () => {
  it('is the cheapest tier whatever the order of the tiers, and null without tiers', () => {
    expect(lowestTierPrice([])).toBeNull();
    expect(lowestTierPrice([{ minQuantity: 10, priceSatang: 9000 }])).toBe(9000);
    expect(lowestTierPrice([{ minQuantity: 100, priceSatang: 7000 }, { minQuantity: 10, priceSatang: 9000 }, { minQuantity: 50, priceSatang: 8000 }])).toBe(7000);
  });
});
