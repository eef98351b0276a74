import { describe, expect, it } from 'vitest';
import { bahtInput, formatTiers, parseBaht, parseTiers, stockState, tierProblem } from '../../src/lib/product-rules';
import { pictureAtLeast, pictureSrcset, storedWidths } from '../../src/lib/pictures';

describe('baht typed by people', () => {
  it.each([
    ['199', 19900],
    ['1,290.50', 129050],
    ['฿ 99.5', 9950],
    [' 0 ', 0],
  ])('%s → %d satang', (text, satang) => expect(parseBaht(text)).toBe(satang));
  it.each(['', 'สิบ', '-5', '1.999', '1e3', '12..5'])('refuses %j', (text) => expect(parseBaht(text)).toBeNull());
  it('writes satang back for an input box', () => {
    expect(bahtInput(19900)).toBe('199');
    expect(bahtInput(19950)).toBe('199.50');
  });
});

describe('wholesale tiers', () => {
  it('accept rising quantities and falling prices below retail', () => {
    expect(tierProblem(10000, [{ minQuantity: 10, priceSatang: 9000 }, { minQuantity: 50, priceSatang: 8000 }])).toBeNull();
    expect(tierProblem(10000, [])).toBeNull();
  });
  it('say in Thai which row is wrong and why', () => {
    expect(tierProblem(10000, [{ minQuantity: 10, priceSatang: 10000 }])).toBe('ราคาส่งแถวที่ 1: ราคาส่งต้องต่ำกว่าราคาขายปลีก');
    expect(tierProblem(10000, [{ minQuantity: 10, priceSatang: 9000 }, { minQuantity: 10, priceSatang: 8000 }])).toBe('ราคาส่งแถวที่ 2: จำนวนต้องมากกว่าแถวก่อนหน้า');
    expect(tierProblem(10000, [{ minQuantity: 10, priceSatang: 9000 }, { minQuantity: 20, priceSatang: 9500 }])).toBe('ราคาส่งแถวที่ 2: ราคาต้องต่ำกว่าแถวก่อนหน้า');
    expect(tierProblem(10000, [{ minQuantity: 1, priceSatang: 9000 }])).toMatch(/ตั้งแต่ 2/);
  });
  it('round-trip through the CSV form', () => {
    const tiers = [{ minQuantity: 12, priceSatang: 8950 }, { minQuantity: 60, priceSatang: 8000 }];
    expect(formatTiers(tiers)).toBe('12:89.50;60:80');
    expect(parseTiers(formatTiers(tiers))).toEqual(tiers);
    expect(parseTiers('')).toEqual([]);
    expect(parseTiers('12-89')).toBeNull();
    expect(parseTiers('12:89:1')).toBeNull();
  });
});

describe('stock state', () => {
  it.each([
    [0, 'out'],
    [1, 'low'],
    [10, 'low'],
    [11, 'in'],
  ] as const)('%d → %s', (stock, state) => expect(stockState(stock)).toBe(state));
});

describe('stored picture URLs', () => {
  const url = '/media/products/0123456789abcdef01234567-1280.webp';
  it('give their srcset from the name alone', () => {
    expect(storedWidths(url)).toEqual([320, 640, 1280]);
    expect(pictureSrcset(url)).toBe(
      '/media/products/0123456789abcdef01234567-320.webp 320w, /media/products/0123456789abcdef01234567-640.webp 640w, /media/products/0123456789abcdef01234567-1280.webp 1280w',
    );
    expect(storedWidths('/media/products/0123456789abcdef01234567-480.webp')).toEqual([320, 480]);
    expect(pictureAtLeast(url, 144)).toBe('/media/products/0123456789abcdef01234567-320.webp');
  });
  it('leave other URLs alone', () => {
    expect(pictureSrcset('/images/placeholder.svg')).toBeUndefined();
    expect(pictureSrcset(null)).toBeUndefined();
    expect(pictureAtLeast('/images/demo/gift-P00001-1.svg', 100)).toBe('/images/demo/gift-P00001-1.svg');
  });
});
