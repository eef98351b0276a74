import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/server/content/markdown';
import type { CompanyInfo } from '../../src/lib/types';
import { XSS_PAYLOADS } from '../fixtures/xss-payloads';

const company = {
  name: 'ร้านทดสอบ',
  nameEn: 'Test',
  phone: '081-234-5678',
  lineId: '@shop',
  email: 'shop@example.test',
  address: 'กรุงเทพฯ',
  mapUrl: 'https://maps.example/?q=1&z=2',
  // A company value is not trusted either: the sanitiser runs after placeholders are filled.
  facebookUrl: 'javascript:window.__xss(99)',
  openingHours: '<script>window.__xss(98)</script>',
  tagline: '',
} as CompanyInfo;

/** What must never reach a shopper's browser in a page body. */
const DANGEROUS = [
  /<script/i,
  /<iframe/i,
  /<object/i,
  /<embed/i,
  /<svg/i,
  /<math/i,
  /<style/i,
  /<link/i,
  /<meta/i,
  /<base/i,
  /<form/i,
  /<input/i,
  /<template/i,
  /<video/i,
  /<source/i,
  /<details/i,
  // Text may mention `onerror=`: it is escaped (&lt;…). Only attributes inside a real tag count.
  /<[^>]*\son[a-z]+\s*=/i,
  /<[^>]*(href|src|srcset|action|background|data)\s*=\s*"?\s*(javascript|vbscript|data):/i,
  /<[^>]*\sstyle\s*=/i,
  /<[^>]*expression\(/i,
  /<[^>]*href="\/\//i,
];

describe('page bodies are sanitised before a shopper sees them', () => {
  it('has at least 30 payloads', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(XSS_PAYLOADS.map((payload, index) => [index + 1, payload] as const))('payload %i leaves nothing that runs', (_n, payload) => {
    const html = renderMarkdown(`ข้อความก่อน\n\n${payload}\n\nข้อความหลัง`, company);
    for (const pattern of DANGEROUS) expect(html, `${pattern} in ${html}`).not.toMatch(pattern);
    expect(html).toContain('ข้อความก่อน');
    // Text outside the payload survives (an unclosed <style> may swallow what follows, never run it).
    if (!/<style>/.test(payload)) expect(html).toContain('ข้อความหลัง');
  });

  it('all of them together, and company values holding script, are still clean', () => {
    const html = renderMarkdown(`${XSS_PAYLOADS.join('\n\n')}\n\n[เพจ]({{facebookUrl}}) {{openingHours}}`, company);
    for (const pattern of DANGEROUS) expect(html).not.toMatch(pattern);
    expect(html).toContain('<a>เพจ</a>');
  });

  it('keeps what editors need: headings, lists, links, pictures, tables, phone and mail links', () => {
    const html = renderMarkdown(
      [
        '# ใหญ่',
        '## หัวข้อ',
        '- หนึ่ง\n- **สอง**',
        '1. ก\n2. ข',
        '[สินค้า](/product) [ภายนอก](https://example.com/a?b=1&c=2) [โทร](tel:{{phone}}) [mail](mailto:{{email}})',
        '![ป้าย](/media/pages/0123456789abcdef01234567-1280.webp#1280x720)',
        '| ก | ข |\n| --- | --- |\n| 1 | 2 |',
      ].join('\n\n'),
      company,
    );
    expect(html).toContain('<h2>ใหญ่</h2>');
    expect(html).toContain('<h2>หัวข้อ</h2>');
    expect(html).toContain('<li><strong>สอง</strong></li>');
    expect(html).toContain('<ol>');
    expect(html).toContain('<a href="/product">สินค้า</a>');
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">ภายนอก</a>');
    expect(html).toContain('<a href="tel:081-234-5678">โทร</a>');
    expect(html).toContain('<a href="mailto:shop@example.test">mail</a>');
    expect(html).toMatch(/<img src="\/media\/pages\/0123456789abcdef01234567-1280.webp" srcset="[^"]*-320.webp 320w, [^"]*-640.webp 640w, [^"]*-1280.webp 1280w"/);
    expect(html).toContain('width="1280" height="720"');
    expect(html).toContain('<table>');
  });
});
