/**
 * Product rules shared by the back-office islands (checked as typed) and the server (checked again on
 * save): codes, baht amounts typed by people, wholesale tiers. Pure.
 */
export const PRODUCT_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const PRODUCT_CODE_HINT = 'รหัสสินค้าใช้ได้เฉพาะ A–Z, a–z, 0–9, ขีด (-) และขีดล่าง (_) ไม่เกิน 64 ตัว';
export const MAX_PRICE_SATANG = 100_000_000_00;
export const MAX_STOCK = 10_000_000;
export const MAX_TIERS = 10;

/** `1,290.50` / `฿1290.5` / ` 99 ` → satang; null when it is not an amount with at most two decimals. */
export function parseBaht(text: string): number | null {
  const cleaned = text.replace(/[฿,\s]/g, '');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole = '0', fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** satang → `1290.50` / `99` for an input box (no grouping, no symbol). */
export function bahtInput(satang: number): string {
  return satang % 100 === 0 ? String(satang / 100) : (satang / 100).toFixed(2);
}

export function parseWholeNumber(text: string): number | null {
  const cleaned = text.replace(/[,\s]/g, '');
  if (!/^\d{1,9}$/.test(cleaned)) return null;
  return Number(cleaned);
}

export interface TierInput {
  minQuantity: number;
  priceSatang: number;
}

/**
 * Wholesale tiers must read as a price list: quantities rising from at least 2, each price below the one
 * before it and below the retail price. Returns the Thai reason of the first problem, or null.
 */
export function tierProblem(retailSatang: number, tiers: readonly TierInput[]): string | null {
  if (tiers.length > MAX_TIERS) return `ราคาส่งมีได้ไม่เกิน ${MAX_TIERS} ขั้น`;
  let previousQuantity = 1;
  let previousPrice = retailSatang;
  for (const [index, tier] of tiers.entries()) {
    const row = `ราคาส่งแถวที่ ${index + 1}`;
    if (!Number.isInteger(tier.minQuantity) || tier.minQuantity < 2) return `${row}: จำนวนขั้นต่ำต้องเป็นจำนวนเต็มตั้งแต่ 2 ขึ้นไป`;
    if (tier.minQuantity <= previousQuantity) return `${row}: จำนวนต้องมากกว่าแถวก่อนหน้า`;
    if (!Number.isInteger(tier.priceSatang) || tier.priceSatang <= 0) return `${row}: ราคาต้องมากกว่า 0`;
    if (tier.priceSatang >= previousPrice) {
      return index === 0 ? `${row}: ราคาส่งต้องต่ำกว่าราคาขายปลีก` : `${row}: ราคาต้องต่ำกว่าแถวก่อนหน้า`;
    }
    previousQuantity = tier.minQuantity;
    previousPrice = tier.priceSatang;
  }
  return null;
}

/** `10:90;50:80` (quantity:baht pairs), the CSV form of tiers. */
export function formatTiers(tiers: readonly TierInput[]): string {
  return tiers.map((tier) => `${tier.minQuantity}:${bahtInput(tier.priceSatang)}`).join(';');
}

export function parseTiers(text: string): TierInput[] | null {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const tiers: TierInput[] = [];
  for (const part of trimmed.split(';')) {
    const [quantity = '', price = ''] = part.split(':');
    const minQuantity = parseWholeNumber(quantity);
    const priceSatang = parseBaht(price);
    if (minQuantity === null || priceSatang === null || part.split(':').length !== 2) return null;
    tiers.push({ minQuantity, priceSatang });
  }
  return tiers;
}

export type StockState = 'in' | 'low' | 'out';
/** At or below this, a product counts as low on stock (the list filter and the dashboard). */
export const LOW_STOCK = 10;

export const STOCK_STATE_LABELS: Record<StockState, string> = { in: 'มีสินค้า', low: 'ใกล้หมด', out: 'สินค้าหมด' };

export function stockState(stock: number): StockState {
  if (stock <= 0) return 'out';
  return stock <= LOW_STOCK ? 'low' : 'in';
}
