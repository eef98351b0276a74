/**
 * Wholesale price tiers: the unit price of a line is the price of the highest tier whose minimum
 * quantity the amount reaches, or the retail price below the first tier. Used by the cart page and the
 * server alike, so the shopper sees what the order will charge.
 */
export interface PriceTier {
  minQuantity: number;
  priceSatang: number;
}

export function sortTiers(tiers: readonly PriceTier[]): PriceTier[] {
  return [...tiers].filter((tier) => tier.minQuantity >= 1).sort((a, b) => a.minQuantity - b.minQuantity);
}

/** The lowest tier price, or null without tiers: what a product card shows as "ราคาส่งเริ่ม". */
export function lowestTierPrice(tiers: readonly PriceTier[]): number | null {
  return tiers.length === 0 ? null : Math.min(...tiers.map((tier) => tier.priceSatang));
}

export function unitPriceFor(retailSatang: number, tiers: readonly PriceTier[], amount: number): number {
  let price = retailSatang;
  for (const tier of sortTiers(tiers)) {
    if (amount >= tier.minQuantity) price = tier.priceSatang;
  }
  return price;
}

export interface NextTier {
  /** Pieces still to add to reach the next tier. */
  missing: number;
  priceSatang: number;
  minQuantity: number;
}

/** The next cheaper tier the amount has not reached yet, if any. */
export function nextTierFor(retailSatang: number, tiers: readonly PriceTier[], amount: number): NextTier | null {
  const current = unitPriceFor(retailSatang, tiers, amount);
  for (const tier of sortTiers(tiers)) {
    if (tier.minQuantity > amount && tier.priceSatang < current) {
      return { missing: tier.minQuantity - amount, priceSatang: tier.priceSatang, minQuantity: tier.minQuantity };
    }
  }
  return null;
}

/**
 * The tier table as shown on the product page: [1–11: retail, 12–99: 45, 100+: 39].
 * A tier starting at 1 replaces the retail price.
 */
export function tierTable(
  retailSatang: number,
  tiers: readonly PriceTier[],
): { from: number; to: number | null; priceSatang: number }[] {
  const sorted = sortTiers(tiers);
  const rows: { from: number; to: number | null; priceSatang: number }[] = [];
  const starts = sorted[0]?.minQuantity === 1 ? sorted : [{ minQuantity: 1, priceSatang: retailSatang }, ...sorted];
  starts.forEach((tier, index) => {
    const next = starts[index + 1];
    rows.push({ from: tier.minQuantity, to: next ? next.minQuantity - 1 : null, priceSatang: tier.priceSatang });
  });
  return rows;
}

/** Tier rows of several products (from one query) grouped by product id, in the order given. */
export function groupTiersByProduct(rows: readonly (PriceTier & { productId: number })[]): Map<number, PriceTier[]> {
  const byProduct = new Map<number, PriceTier[]>();
  for (const row of rows) {
    const list = byProduct.get(row.productId) ?? [];
    list.push({ minQuantity: row.minQuantity, priceSatang: row.priceSatang });
    byProduct.set(row.productId, list);
  }
  return byProduct;
}
