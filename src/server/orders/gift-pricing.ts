import { badRequest } from '../http/errors.ts';
import type { GiftRequest, GiftView, GiftWrapSnapshot } from '../../lib/gift-wrap.ts';
import type { CompanyInfo } from '../../lib/types.ts';

/**
 * Pricing gift wrapping and the card (issue 31 part 6, decision 221): a whole-order wrapping is charged
 * once; a line's wrapping once per line, whatever its amount (a line is wrapped as one parcel); the card
 * once when there is a message, at the shop's card price (0: free). The shop's current options decide:
 * an unknown or switched-off wrapping is refused in Thai, never priced from what the client sent.
 */
export interface PricedGift {
  gift: GiftView;
  /** Product code → the wrapping of that line. */
  lineWraps: Map<string, GiftWrapSnapshot>;
}

function wrapOf(company: CompanyInfo, code: string): GiftWrapSnapshot {
  const option = company.giftWrapOptions.find((candidate) => candidate.code === code);
  if (!option || !option.active) {
    throw badRequest('gift_wrap_unavailable', 'แบบห่อของขวัญที่เลือกไม่มีให้บริการแล้ว กรุณาเลือกใหม่', { gift: 'แบบห่อของขวัญที่เลือกไม่มีให้บริการแล้ว' });
  }
  return { code: option.code, name: option.name, priceSatang: option.priceSatang };
}

export function priceGift(company: CompanyInfo, request: GiftRequest | undefined, lineCodes: readonly string[]): PricedGift {
  const lineWraps = new Map<string, GiftWrapSnapshot>();
  if (!request) return { gift: { orderWrap: null, wrapSatang: 0, message: '', cardSatang: 0, hidePrices: false }, lineWraps };
  const orderWrap = request.wrap_code ? wrapOf(company, request.wrap_code) : null;
  const codes = new Set(lineCodes);
  for (const [productCode, wrapCode] of Object.entries(request.line_wraps ?? {})) {
    if (!codes.has(productCode)) {
      throw badRequest('gift_wrap_line_unknown', `ไม่พบสินค้ารหัส ${productCode} ในคำสั่งซื้อที่จะห่อของขวัญ`, { gift: 'ไม่พบสินค้าที่จะห่อของขวัญ' });
    }
    lineWraps.set(productCode, wrapOf(company, wrapCode));
  }
  const wrapSatang = orderWrap ? orderWrap.priceSatang : [...lineWraps.values()].reduce((sum, wrap) => sum + wrap.priceSatang, 0);
  const message = request.message ?? '';
  return {
    gift: { orderWrap, wrapSatang, message, cardSatang: message ? company.giftCardPriceSatang : 0, hidePrices: request.hide_prices ?? false },
    lineWraps,
  };
}
