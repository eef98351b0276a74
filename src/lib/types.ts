/** Plain shapes that cross from the server to pages and islands (never raw rows). */
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
}
