import { AppError } from '../http/errors.ts';
import type { DbOrTx } from '../db/client.ts';
import { findPromotionRule, memberOrderHistory, type MemberOrderHistory, type PromotionRule } from './promotion.repo.ts';
import { formatBaht } from '../../lib/money.ts';

/** A priced line as the promotion rules see it. */
export interface PromotionLine {
  productId: number;
  categoryId: number;
  lineTotalSatang: number;
}

export interface PromotionResult {
  id: number;
  code: string;
  name: string;
  discountType: 'percent' | 'fixed';
  discountValue: number;
  /** What the lines the promotion covers add up to. */
  eligibleSatang: number;
  discountSatang: number;
}

const refused = (code: string, message: string) => new AppError(400, code, message);

/** Whether the promotion has rules that depend on who orders (a per-member limit, first order only). */
export function hasMemberRules(rule: PromotionRule | null): rule is PromotionRule {
  return rule !== null && (rule.perMemberLimit !== null || rule.firstOrderOnly);
}

/**
 * Whether a promotion applies to these lines at this moment, and its discount. The usage limit is
 * checked here for a clear answer at checkout and again atomically when the order takes a use.
 * `history` is the ordering member's past orders; without it (a visitor asking about a code) the
 * per-member rules are not checked, and the order checks them with the member row locked.
 * The member's reasons come before the cart's: no change to the cart would make the code work.
 */
export function evaluatePromotion(
  rule: PromotionRule | null,
  lines: readonly PromotionLine[],
  now: Date,
  history: MemberOrderHistory | null = null,
): PromotionResult {
  if (!rule || !rule.active) throw refused('promotion_not_found', 'ไม่พบโค้ดส่วนลดนี้');
  if (now < rule.startsAt) throw refused('promotion_not_started', 'โค้ดส่วนลดนี้ยังไม่เริ่มใช้งาน');
  if (now > rule.endsAt) throw refused('promotion_ended', 'โค้ดส่วนลดนี้หมดอายุแล้ว');
  if (rule.usageLimit !== null && rule.usedCount >= rule.usageLimit) {
    throw refused('promotion_used_up', 'โค้ดส่วนลดนี้ถูกใช้ครบจำนวนสิทธิ์แล้ว');
  }
  if (history && rule.perMemberLimit !== null && history.usesOfCode >= rule.perMemberLimit) {
    throw refused('promotion_member_limit', `โค้ดส่วนลดนี้ใช้ได้คนละ ${rule.perMemberLimit} ครั้ง และคุณใช้ครบแล้ว`);
  }
  if (history && rule.firstOrderOnly && history.orders > 0) {
    throw refused('promotion_first_order_only', 'โค้ดส่วนลดนี้ใช้ได้เฉพาะคำสั่งซื้อแรกของสมาชิก และคุณเคยสั่งซื้อแล้ว');
  }
  const limited = rule.productIds.length > 0 || rule.categoryIds.length > 0;
  const covered = lines.filter(
    (line) => !limited || rule.productIds.includes(line.productId) || rule.categoryIds.includes(line.categoryId),
  );
  if (covered.length === 0) throw refused('promotion_not_applicable', 'โค้ดส่วนลดนี้ใช้กับสินค้าในตะกร้าไม่ได้');
  const eligibleSatang = covered.reduce((sum, line) => sum + line.lineTotalSatang, 0);
  if (eligibleSatang < rule.minOrderSatang) {
    throw refused(
      'promotion_min_order',
      `ยอดสั่งซื้อ${limited ? 'สินค้าที่ร่วมรายการ' : ''}ต้องครบ ${formatBaht(rule.minOrderSatang)} จึงจะใช้โค้ดนี้ได้`,
    );
  }
  let discount =
    rule.discountType === 'percent' ? Math.floor((eligibleSatang * rule.discountValue) / 100) : rule.discountValue;
  if (rule.maxDiscountSatang !== null) discount = Math.min(discount, rule.maxDiscountSatang);
  discount = Math.max(0, Math.min(discount, eligibleSatang));
  return {
    id: rule.id,
    code: rule.code,
    name: rule.name,
    discountType: rule.discountType,
    discountValue: rule.discountValue,
    eligibleSatang,
    discountSatang: discount,
  };
}

/**
 * Checks a code for these lines; with `memberId`, for that member too (their earlier orders). Placing an
 * order calls it after locking the member's row, so two orders of one member count each other.
 */
export async function applyPromotion(
  db: DbOrTx,
  code: string,
  lines: readonly PromotionLine[],
  now = new Date(),
  memberId: string | null = null,
): Promise<PromotionResult> {
  const rule = await findPromotionRule(db, code);
  const history = memberId && hasMemberRules(rule) ? await memberOrderHistory(db, memberId, rule.code) : null;
  return evaluatePromotion(rule, lines, now, history);
}
