import { setPersistentEngine } from '@nanostores/persistent';
import { describe, expect, it } from 'vitest';
import { MAX_RECENTLY_VIEWED as RECORD_MAX, RECENTLY_VIEWED_KEY as RECORD_KEY, recordView } from '../../src/stores/recently-viewed-record';

/** docs/decisions/210: the recently viewed list as Navbar.astro's script writes it and the island's store reads it. */
const storage: Record<string, string> = {};
setPersistentEngine(storage, { addEventListener() {}, removeEventListener() {} });
const { $recentlyViewed, MAX_RECENTLY_VIEWED, RECENTLY_VIEWED_KEY, clearRecentlyViewed, sanitizeViewed } = await import('../../src/stores/recently-viewed');

const local = {
  getItem: (key: string) => storage[key] ?? null,
  setItem: (key: string, value: string) => {
    storage[key] = value;
  },
};
const product = (n: number) => ({ code: `P${String(n).padStart(5, '0')}`, name: `สินค้า ${n}`, price: n * 10, image: `/images/demo/${n}.svg` });

describe('recently viewed', () => {
  it('writes and reads the same key and length', () => {
    expect(RECORD_KEY).toBe(RECENTLY_VIEWED_KEY);
    expect(RECORD_MAX).toBe(MAX_RECENTLY_VIEWED);
    expect(MAX_RECENTLY_VIEWED).toBe(12);
  });

  it('keeps the newest twelve, newest first, each product once', () => {
    for (let n = 1; n <= 14; n++) recordView(product(n), local);
    recordView(product(5), local);
    const codes = (JSON.parse(storage[RECORD_KEY]!) as { code: string }[]).map((item) => item.code);
    expect(codes).toHaveLength(12);
    expect(codes.slice(0, 3)).toEqual(['P00005', 'P00014', 'P00013']);
    expect(new Set(codes).size).toBe(12);
    expect(codes).not.toContain('P00001');
  });

  it('starts over from a store that is not JSON or not a list, and never throws', () => {
    storage[RECORD_KEY] = '{not json';
    expect(() => recordView(product(1), local)).not.toThrow();
    storage[RECORD_KEY] = '{"a":1}';
    recordView(product(2), local);
    expect(JSON.parse(storage[RECORD_KEY]!)).toEqual([product(2)]);
    const full = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(() => recordView(product(3), full)).not.toThrow();
  });

  it('reads only clean products: codes, names, prices and same-origin pictures', () => {
    expect(
      sanitizeViewed([
        product(1),
        product(1),
        { code: '../x', name: 'ไม่ใช่', price: 1, image: null },
        { code: 'P00002', name: '', price: -5, image: '//evil.example/x.png' },
        { code: 'P00003', name: 'ลิป', price: 'ฟรี', image: 'javascript:alert(1)' },
        null,
        'P00004',
      ]),
    ).toEqual([product(1), { code: 'P00002', name: 'P00002', price: 0, image: null }, { code: 'P00003', name: 'ลิป', price: 0, image: null }]);
    expect(sanitizeViewed({ length: 3 })).toEqual([]);
    expect(sanitizeViewed(Array.from({ length: 40 }, (_, n) => product(n + 1)))).toHaveLength(12);
  });

  it('is the store the island reads, and clearing empties it', () => {
    storage[RECENTLY_VIEWED_KEY] = JSON.stringify([product(7), { code: 'bad code' }]);
    // A fresh read of what another page wrote.
    $recentlyViewed.set(sanitizeViewed(JSON.parse(storage[RECENTLY_VIEWED_KEY]!)));
    expect($recentlyViewed.get()).toEqual([product(7)]);
    clearRecentlyViewed();
    expect($recentlyViewed.get()).toEqual([]);
    expect(storage[RECENTLY_VIEWED_KEY]).toBe('[]');
  });
});
