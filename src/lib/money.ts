/**
 * Money is integer satang everywhere inside the shop. This is the one place that turns it into baht
 * text for people, or into the baht numbers the JSON `*_price` fields carry.
 */
const bahtFormatter = new Intl.NumberFormat('th-TH', {
  style: 'currency',
  currency: 'THB',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

const bahtFormatterFixed = new Intl.NumberFormat('th-TH', {
  style: 'currency',
  currency: 'THB',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** ฿1,290 or ฿45.50: whole baht without decimals, otherwise two. */
export function formatBaht(satang: number): string {
  const formatter = satang % 100 === 0 ? bahtFormatter : bahtFormatterFixed;
  return formatter.format(satang / 100);
}

/** Always two decimals, for receipts and totals: ฿1,290.00 */
export function formatBahtExact(satang: number): string {
  return bahtFormatterFixed.format(satang / 100);
}

export function satangToBaht(satang: number): number {
  return Math.round(satang) / 100;
}

export function bahtToSatang(baht: number): number {
  return Math.round(baht * 100);
}

/** VAT included in a gross amount (Thai prices include 7% VAT): gross × 7 / 107. */
export function includedVat(grossSatang: number, ratePercent = 7): number {
  return Math.round((grossSatang * ratePercent) / (100 + ratePercent));
}
