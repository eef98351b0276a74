import type { DeliveryOption } from './types.ts';

/**
 * issue 29: delivery options as the shopper meets them. Pure: the cart page, checkout and the order
 * page share it.
 */

/** The delivery code of "รับเองที่หน้าร้าน": no delivery address, the shop's pickup place instead. */
export const STORE_PICKUP_CODE = 'pickup';

export function isStorePickup(code: string | null | undefined): boolean {
  return code === STORE_PICKUP_CODE;
}

export interface DeliveryEstimate {
  code: string;
  name: string;
  days: string;
  /** What this option costs for these goods: 0 when free (always, or past the free-delivery amount). */
  feeSatang: number;
  /** The option's own fee, shown struck through when the goods reach free delivery. */
  listedFeeSatang: number;
  freeByAmount: boolean;
}

/**
 * The delivery cost of each option for goods worth `goodsSatang`, as the server's pricing decides it
 * (order-pricing.ts: free from `freeShippingMinSatang` on), and how much more reaches free delivery
 * (null when there is no such amount or it is reached).
 */
export function deliveryEstimates(
  options: readonly DeliveryOption[],
  freeShippingMinSatang: number | null,
  goodsSatang: number,
): { options: DeliveryEstimate[]; moreForFreeSatang: number | null } {
  const reached = freeShippingMinSatang !== null && goodsSatang >= freeShippingMinSatang;
  const paid = options.some((option) => option.feeSatang > 0);
  return {
    options: options.map((option) => ({
      code: option.code,
      name: option.name,
      days: option.days,
      listedFeeSatang: option.feeSatang,
      feeSatang: reached ? 0 : option.feeSatang,
      freeByAmount: reached && option.feeSatang > 0,
    })),
    moreForFreeSatang: freeShippingMinSatang !== null && !reached && paid ? freeShippingMinSatang - goodsSatang : null,
  };
}
