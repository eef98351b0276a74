import { describe, expect, it } from 'vitest';
import { bahtToSatang, formatBaht, formatBahtExact, includedVat, satangToBaht } from '../../src/lib/money';

describe('money', () => {
  it.each([
    [5900, '฿59'],
    [129000, '฿1,290'],
    [4550, '฿45.50'],
    [0, '฿0'],
  ])('formats %i satang as %s', (satang, text) => {
    expect(formatBaht(satang)).toBe(text);
  });

  it('formats exact totals with two decimals', () => {
    expect(formatBahtExact(129000)).toBe('฿1,290.00');
  });

  it('converts between baht and satang without float drift', () => {
    expect(bahtToSatang(0.1 + 0.2)).toBe(30);
    expect(bahtToSatang(19.99)).toBe(1999);
    expect(satangToBaht(1999)).toBe(19.99);
  });

  it('computes the VAT included in a Thai price', () => {
    expect(includedVat(10700)).toBe(700);
    expect(includedVat(100000)).toBe(6542);
  });
});
