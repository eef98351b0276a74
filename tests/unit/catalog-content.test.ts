import { describe, expect, it } from 'vitest';
import { fillCompanyHtml, fillCompanyText } from '../../src/server/content/company-text';
import { promotionState } from '../../src/server/promotions/promotion-catalog.service';
import type { CompanyInfo } from '../../src/lib/types';

const company = {
  name: 'ร้าน <ทดสอบ>',
  nameEn: 'Test',
  phone: '081-234-5678',
  lineId: '@shop',
  email: 'a@b.c',
  address: 'กรุงเทพฯ',
  mapUrl: 'https://maps.example/?q=1&z=2',
  facebookUrl: 'https://fb.example',
  openingHours: '9–20 น.',
  tagline: '',
} as CompanyInfo;

describe('company values in Markdown pages', () => {
  it('fills placeholders with escaped values, also inside link targets', () => {
    const html = '<p>{{name}} โทร <a href="tel:%7B%7BphoneTel%7D%7D">{{phone}}</a> <a href="%7B%7BmapUrl%7D%7D">แผนที่</a> {{unknown}}</p>';
    expect(fillCompanyHtml(html, company)).toBe(
      '<p>ร้าน &lt;ทดสอบ&gt; โทร <a href="tel:0812345678">081-234-5678</a> <a href="https://maps.example/?q=1&z=2">แผนที่</a> {{unknown}}</p>',
    );
    expect(fillCompanyText('เกี่ยวกับ {{name}}', company)).toBe('เกี่ยวกับ ร้าน <ทดสอบ>');
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('prints {{%s}} as written, not JavaScript internals', (name) => {
    const placeholder = `{{${name}}}`;
    expect(fillCompanyHtml(`<p>${placeholder}</p>`, company)).toBe(`<p>${placeholder}</p>`);
    expect(fillCompanyHtml(`<a href="%7B%7B${name}%7D%7D">x</a>`, company)).toBe(`<a href="%7B%7B${name}%7D%7D">x</a>`);
    expect(fillCompanyText(`เกี่ยวกับ ${placeholder}`, company)).toBe(`เกี่ยวกับ ${placeholder}`);
  });
});

describe('promotion state', () => {
  const now = new Date('2026-11-21T00:00:00Z');
  const base = { active: true, startsAt: new Date('2026-11-01'), endsAt: new Date('2026-12-01'), usageLimit: null as number | null, usedCount: 0 };
  it('is active, upcoming, ended or used up', () => {
    expect(promotionState(base, now)).toBe('active');
    expect(promotionState({ ...base, startsAt: new Date('2026-11-25') }, now)).toBe('upcoming');
    expect(promotionState({ ...base, endsAt: new Date('2026-11-20') }, now)).toBe('ended');
    expect(promotionState({ ...base, active: false }, now)).toBe('ended');
    expect(promotionState({ ...base, usageLimit: 5, usedCount: 5 }, now)).toBe('used_up');
    expect(promotionState({ ...base, usageLimit: 5, usedCount: 4 }, now)).toBe('active');
  });
});
