import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { keyInGroupsOfFour, recoveryCodesFile, recoveryCodesHref } from '../../src/lib/two-step';

describe('the two-step set-up page (issue 32)', () => {
  it('shows the key in groups of four that an app still reads as the same key', () => {
    const secret = new Secret({ size: 20 }).base32;
    const grouped = keyInGroupsOfFour(secret);
    expect(grouped).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    expect(grouped.replace(/ /g, '')).toBe(secret);
    expect(Secret.fromBase32(grouped).hex).toBe(Secret.fromBase32(secret).hex);
    expect(keyInGroupsOfFour('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
  });

  it('offers the recovery codes as a Thai text file, one code a line', () => {
    const codes = Array.from({ length: 10 }, (_, index) => `abcd${index}-efgh${index}`);
    const file = recoveryCodesFile(codes, 'staff@example.test', '26 พ.ย. 2569 05:30');
    const lines = file.split('\r\n');
    expect(lines[0]).toContain('รหัสกู้คืน');
    expect(lines).toContain('บัญชี: staff@example.test');
    for (const code of codes) expect(lines).toContain(code);
    const href = recoveryCodesHref(file);
    expect(href.startsWith('data:text/plain;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(href.slice(href.indexOf(',') + 1))).toBe(file);
  });
});
