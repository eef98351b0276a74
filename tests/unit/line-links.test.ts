import { describe, expect, it } from 'vitest';
import { lineOaUrl, lineShareUrl } from '../../src/lib/line-links';

describe('LINE links', () => {
  it('shares an absolute page address through LINE, encoded whole', () => {
    expect(lineShareUrl('https://shop.example.com/product/P00001?ref=a&b=ไทย')).toBe(
      'https://social-plus.line.me/lineit/share?url=https%3A%2F%2Fshop.example.com%2Fproduct%2FP00001%3Fref%3Da%26b%3D%E0%B9%84%E0%B8%97%E0%B8%A2',
    );
  });

  it('adds the shop’s Official Account as a friend, with or without its @', () => {
    expect(lineOaUrl('@yimlamai')).toBe('https://line.me/R/ti/p/%40yimlamai');
    expect(lineOaUrl(' yimlamai ')).toBe('https://line.me/R/ti/p/%40yimlamai');
  });

  it('gives no link for an empty or impossible ID', () => {
    expect(lineOaUrl('')).toBeNull();
    expect(lineOaUrl('ร้าน ยิ้ม')).toBeNull();
    expect(lineOaUrl('@a/b?c')).toBeNull();
  });
});
