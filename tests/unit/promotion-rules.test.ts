import { describe, expect, it } from 'vitest';
import { promotionMemberRules } from '../../src/lib/promotion-rules';

describe('promotionMemberRules', () => {
  it('says each rule a promotion has, in Thai, and nothing when it has none', () => {
    expect(promotionMemberRules({ perMemberLimit: 1, firstOrderOnly: true })).toBe('ใช้ได้คนละ 1 ครั้ง · เฉพาะคำสั่งซื้อแรกของสมาชิก');
    expect(promotionMemberRules({ perMemberLimit: 3, firstOrderOnly: false })).toBe('ใช้ได้คนละ 3 ครั้ง');
    expect(promotionMemberRules({ perMemberLimit: null, firstOrderOnly: true })).toBe('เฉพาะคำสั่งซื้อแรกของสมาชิก');
    expect(promotionMemberRules({ perMemberLimit: null, firstOrderOnly: false })).toBeNull();
  });
});
