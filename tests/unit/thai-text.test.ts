import { describe, expect, it } from 'vitest';
import { escapeLike, formatThaiDate, hasThai, normalizeText, searchKey, thaiMarkOrder, withoutTones } from '../../src/lib/thai-text';

describe('Thai text', () => {
  it('removes zero-width characters and composes vowels', () => {
    expect(normalizeText('ลิป\u200Bสติก')).toBe('ลิปสติก');
    // SARA AM written as NIKHAHIT + SARA AA stays searchable after NFC + key folding.
    expect(normalizeText('  กระเป๋า   ผ้า ')).toBe('กระเป๋า ผ้า');
  });

  it('lower-cases Latin letters for matching', () => {
    expect(searchKey('Glow LAB')).toBe('glow lab');
  });

  // Pairs that look alike on screen: the first is how a shopper (or an old keyboard) typed it, the
  // second the order Unicode stores (consonant, vowel above or below, tone mark, sara am).
  it.each([
    ['นำ้หอม', 'น้ำหอม'],
    ['น\u0E4D\u0E32หอม', 'น้ำหอม'.replace('\u0E49', '')],
    ['น\u0E4D\u0E49\u0E32หอม', 'น้ำหอม'],
    ['น\u0E49\u0E4D\u0E32หอม', 'น้ำหอม'],
    ['ก\u0E48\u0E35', 'กี่'],
    ['ตุ\u0E4A\u0E4Aกตา', 'ตุ๊กตา'],
    ['ท\u0E49\u0E31ง', 'ทั้ง'],
    ['ลิปสติก', 'ลิปสติก'],
  ])('puts Thai marks in stored order: %s', (typed, stored) => {
    expect(thaiMarkOrder(typed)).toBe(stored);
    expect(searchKey(typed)).toBe(searchKey(stored));
  });

  it('is stable: normalising twice changes nothing', () => {
    for (const text of ['นำ้หอม', 'ก\u0E48\u0E35\u0E48', 'ตุ๊กตาหมี', 'น\u0E4D\u0E49\u0E32']) {
      expect(thaiMarkOrder(thaiMarkOrder(text))).toBe(thaiMarkOrder(text));
    }
  });

  it('drops tone marks for the tone-free pass, nothing else', () => {
    expect(withoutTones(searchKey('ตุ๊กตา'))).toBe('ตุกตา');
    expect(withoutTones(searchKey('นำ้หอม'))).toBe('นำหอม');
    expect(withoutTones('ลิปสติก')).toBe('ลิปสติก');
    expect(hasThai('lipstick')).toBe(false);
    expect(hasThai('ลิป 2 แท่ง')).toBe(true);
  });

  it('escapes LIKE wildcards', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });

  it('formats dates in the Buddhist era', () => {
    expect(formatThaiDate(new Date('2026-11-21T05:00:00Z'))).toBe('21 พฤศจิกายน 2569');
  });
});
