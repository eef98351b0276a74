import { describe, expect, it } from 'vitest';
import { MAX_SERIAL_ID, serialId } from '../../src/lib/row-id';

describe('row ids from URLs and forms', () => {
  it('takes whole numbers from 1 to the largest PostgreSQL integer', () => {
    expect(serialId('1')).toBe(1);
    expect(serialId('42')).toBe(42);
    expect(serialId(String(MAX_SERIAL_ID))).toBe(2_147_483_647);
    expect(serialId(7)).toBe(7);
  });
  it.each(['', ' ', '0', '-3', '1.5', 'abc', '1e3x', String(MAX_SERIAL_ID + 1), '99999999999', '1e400'])('refuses %j', (value) => {
    expect(serialId(value)).toBeNull();
  });
  it('refuses what is not text or a number (a file, a missing field)', () => {
    expect(serialId(null)).toBeNull();
    expect(serialId(undefined)).toBeNull();
    expect(serialId(new File(['1'], 'a.txt'))).toBeNull();
  });
});
