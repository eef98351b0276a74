import type { GiftWrapOption } from './gift-wrap.ts';
/** Plain shapes that cross from the server to pages and islands (never raw rows). */

/** A Thai delivery address: recipient, house and street, then subdistrict, district, province, postcode. */
export interface ThaiAddress {
  recipientName: string;
  phone: string;
  line1: string;
  subdistrict: string;
  district: string;
  province: string;
  postcode: string;
}

/** An address in a member's address book. */
export interface SavedAddress extends ThaiAddress {
  id: string;
  isDefault: boolean;
}
export interface BankAccount {
  bank: string;
  accountNo: string;
  accountName: string;
  branch: string;
}

export interface DeliveryOption {
  code: string;
  name: string;
  feeSatang: number;
  days: string;
  trackingUrl: string | null;
}

export interface CompanyInfo {
  code: string;
  name: string;
  nameEn: string;
  tagline: string;
  phone: string;
  email: string;
  facebookUrl: string;
  lineId: string;
  mapUrl: string;
  address: string;
  openingHours: string;
  taxId: string;
  promptpayId: string;
  bankAccounts: BankAccount[];
  deliveryOptions: DeliveryOption[];
  freeShippingMinSatang: number | null;
  paymentMethods: { promptpay: boolean; bankTransfer: boolean; cod: boolean };
  orderExpiryHours: number;
  /** How many days a quotation stays valid (issue 13). */
  quotationValidDays: number;
  /** issue 29: the store pickup place and hours, and the days after which a shipped order counts as received. */
  pickupAddress: string;
  pickupHours: string;
  autoDeliverDays: number;
  /** issue 31 part 6: wrappings checkout offers, and the message card's price (0: free). */
  giftWrapOptions: GiftWrapOption[];
  giftCardPriceSatang: number;
}

export interface CategorySummary {
  id: number;
  code: string;
  name: string;
  nameEn: string;
  image: string | null;
  productCount?: number;
}

export interface ProductSummary {
  id: number;
  code: string;
  name: string;
  priceSatang: number;
  /** The lowest wholesale unit price, when the product has tiers. */
  wholesaleFromSatang: number | null;
  stock: number;
  image: string | null;
  categoryCode: string;
  categoryName: string;
  brandCode: string | null;
  brandName: string | null;
  createdAt: string;
  /** A product sold in several variants (shades, sizes): what its card shows of them; absent for one. */
  variantChoices?: VariantChoices | null;
  /** Published reviews and their star sum, as the product row keeps them (docs/decisions/224); absent: none shown. */
  reviewCount?: number;
  reviewRatingSum?: number;
}

/** Of a product's active variants, for its card: how many, the highest price, the shades' colours. */
export interface VariantChoices {
  count: number;
  highestSatang: number;
  /** The first option's colours in the picker's order (`#e8a07a`, "สีส้มพีช"); empty when none is a colour. */
  swatches: { color: string; name: string }[];
}
