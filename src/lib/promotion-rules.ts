/**
 * The per-member rules of a promotion in words, for the cards shoppers read before checkout
 * (decision 178). Null when the promotion has neither rule.
 */
export function promotionMemberRules(promotion: { perMemberLimit: number | null; firstOrderOnly: boolean }): string | null {
  const rules = [
    ...(promotion.perMemberLimit !== null ? [`ใช้ได้คนละ ${promotion.perMemberLimit} ครั้ง`] : []),
    ...(promotion.firstOrderOnly ? ['เฉพาะคำสั่งซื้อแรกของสมาชิก'] : []),
  ];
  return rules.length > 0 ? rules.join(' · ') : null;
}
