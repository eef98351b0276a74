import { getDb } from '../db/client.ts';
import { AppError } from '../http/errors.ts';
import { getCompany } from '../company/company.service.ts';
import { applyPromotion, type PromotionResult } from '../promotions/promotion.service.ts';
import { includedVat } from '../../lib/money.ts';
import { unitPriceFor, type PriceTier } from '../../lib/pricing.ts';
import type { OrderQuote } from '../../lib/orders.ts';
import type { CompanyInfo, DeliveryOption } from '../../lib/types.ts';
import * as repo from './order.repo.ts';
import { priceGift } from './gift-pricing.ts';
import type { GiftRequest } from '../../lib/gift-wrap.ts';

/** Pricing an order on the server: lines, wholesale tiers, delivery and promotion (checkout preview and placement). */

export interface RequestedLine {
  product_code: string;
  amount: number;
}

export interface PricedLine {
  product: repo.ProductForOrder;
  amount: number;
  unitPriceSatang: number;
  lineTotalSatang: number;
}

/** Same code twice in a request is one line with the amounts added. */
export function mergeLines(lines: readonly RequestedLine[]): RequestedLine[] {
  const byCode = new Map<string, number>();
  for (const line of lines) byCode.set(line.product_code, (byCode.get(line.product_code) ?? 0) + line.amount);
  return [...byCode.entries()].map(([product_code, amount]) => ({ product_code, amount }));
}

export function priceLines(
  requested: readonly RequestedLine[],
  products: readonly repo.ProductForOrder[],
  tiers: Map<number, PriceTier[]>,
): { priced: PricedLine[]; missing: string[] } {
  const byCode = new Map(products.map((product) => [product.code, product]));
  const priced: PricedLine[] = [];
  const missing: string[] = [];
  for (const line of requested) {
    const product = byCode.get(line.product_code);
    if (!product || !product.active) {
      missing.push(line.product_code);
      continue;
    }
    const unit = unitPriceFor(product.priceSatang, tiers.get(product.variantId) ?? [], line.amount);
    priced.push({ product, amount: line.amount, unitPriceSatang: unit, lineTotalSatang: unit * line.amount });
  }
  return { priced, missing };
}

export function deliveryFor(company: CompanyInfo, code: string | undefined): DeliveryOption | null {
  if (!code) return null;
  return company.deliveryOptions.find((option) => option.code === code) ?? null;
}

/** Free delivery once the goods (after discount) reach the shop's threshold. */
export function shippingFee(company: CompanyInfo, delivery: DeliveryOption | null, goodsSatang: number): number {
  if (!delivery) return 0;
  if (company.freeShippingMinSatang !== null && goodsSatang >= company.freeShippingMinSatang) return 0;
  return delivery.feeSatang;
}

/**
 * What an order of these lines would charge now: the checkout page shows exactly this. With the
 * member, a code they may no longer use is refused here with its reason, before they place the order.
 */
export async function quoteOrder(
  input: {
    lines: RequestedLine[];
    delivery_code?: string | undefined;
    promotion_code?: string | undefined;
    gift?: GiftRequest | undefined;
  },
  memberId: string | null = null,
): Promise<OrderQuote> {
  const db = await getDb();
  const company = await getCompany();
  const requested = mergeLines(input.lines);
  const products = await repo.findProductsByCode(db, requested.map((line) => line.product_code));
  const tiers = await repo.tiersByVariant(db, products);
  const { priced } = priceLines(requested, products, tiers);
  const subtotal = priced.reduce((sum, line) => sum + line.lineTotalSatang, 0);
  let promotion: OrderQuote['promotion'] = null;
  let promotionError: OrderQuote['promotionError'] = null;
  if (input.promotion_code) {
    try {
      const result = await applyPromotion(db, input.promotion_code, promotionLines(priced), new Date(), memberId);
      promotion = { code: result.code, name: result.name, discountSatang: result.discountSatang };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      promotionError = { code: error.code, message: error.message };
    }
  }
  const discount = promotion?.discountSatang ?? 0;
  const shipping = shippingFee(company, deliveryFor(company, input.delivery_code), subtotal - discount);
  const { gift, lineWraps } = priceGift(company, input.gift, priced.map((line) => line.product.code));
  const total = subtotal - discount + shipping + gift.wrapSatang + gift.cardSatang;
  return {
    lines: priced.map((line) => ({
      productCode: line.product.code,
      productName: line.product.name,
      productImage: line.product.image,
      unitPriceSatang: line.unitPriceSatang,
      amount: line.amount,
      lineTotalSatang: line.lineTotalSatang,
      stock: line.product.stock,
      available: line.product.stock >= line.amount,
      giftWrap: lineWraps.get(line.product.code) ?? null,
    })),
    subtotalSatang: subtotal,
    discountSatang: discount,
    shippingFeeSatang: shipping,
    gift,
    totalSatang: total,
    vatSatang: includedVat(total),
    promotion,
    promotionError,
    freeShippingMinSatang: company.freeShippingMinSatang,
  };
}

export function promotionLines(priced: readonly PricedLine[]) {
  return priced.map((line) => ({
    productId: line.product.id,
    categoryId: line.product.categoryId,
    lineTotalSatang: line.lineTotalSatang,
  }));
}

/**
 * The check-promotion endpoint: whether a code applies to these lines, and its discount; for a
 * signed-in member, whether it applies to them (a per-member limit, first order only).
 */
export async function checkPromotion(code: string, lines: RequestedLine[], memberId: string | null = null): Promise<PromotionResult> {
  const db = await getDb();
  const requested = mergeLines(lines);
  const products = await repo.findProductsByCode(db, requested.map((line) => line.product_code));
  const tiers = await repo.tiersByVariant(db, products);
  const { priced } = priceLines(requested, products, tiers);
  return applyPromotion(db, code, promotionLines(priced), new Date(), memberId);
}
