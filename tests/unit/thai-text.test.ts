import { describe, expect, it } from 'vitest';
import { escapeLike, formatThaiDate, normalizeText, searchKey } from '../../src/lib/thai-text';

describe('Thai text', () => {
  it('removes zero-width characters and composes vowels', () => {
    expect(normalizeText('ลิป\u200Bสติก')).toBe('ลิปสติก');
    // SARA AM written as NIKHAHIT + SARA AA stays searchable after NFC + key folding.
    expect(normalizeText('  กระเป๋า   ผ้า ')).toBe('กระเป๋า ผ้า');
  });

  it('lower-cases Latin letters for matching', () => {
    expect(searchKey('Glow LAB')).toBe('glow lab');
  });

  it('escapes LIKE wildcards', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });

  it('formats dates in the Buddhist era', () => {
    expect(formatThaiDate(new Date('2026-11-21T05:00:00Z'))).toBe('21 พฤศจิกายน 2569');
  });
});
