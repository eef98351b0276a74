import { describe, expect, it } from 'vitest';
import { combinations, matchCombinations, optionsProblem, parseOptionValues } from '../../src/lib/variant-options';

describe('the variant options form', () => {
  it('reads values one per line or comma separated, the first option with its colour, repeats dropped', () => {
    expect(parseOptionValues('ส้มพีช #F4A683, แดงอิฐ\n\n  โรสวู้ด  #b5646f\nส้มพีช', true)).toEqual([
      { value: 'ส้มพีช', swatch: '#f4a683' },
      { value: 'แดงอิฐ', swatch: null },
      { value: 'โรสวู้ด', swatch: '#b5646f' },
    ]);
    expect(parseOptionValues('S #000000, M', false)).toEqual([
      { value: 'S', swatch: null },
      { value: 'M', swatch: null },
    ]);
  });

  it('lists every combination, the first option changing slowest, and refuses too many in Thai', () => {
    const options = [
      { name: 'สี', values: [{ value: 'แดง', swatch: null }, { value: 'ดำ', swatch: null }] },
      { name: 'ขนาด', values: [{ value: 'S', swatch: null }, { value: 'M', swatch: null }] },
    ];
    expect(combinations(options)).toEqual([['แดง', 'S'], ['แดง', 'M'], ['ดำ', 'S'], ['ดำ', 'M']]);
    expect(optionsProblem(options)).toBeNull();
    expect(optionsProblem([])).toMatch(/[\u0E00-\u0E7F]/);
    expect(optionsProblem([{ name: 'สี', values: [] }])).toContain('สี');
    expect(optionsProblem([{ name: '', values: [{ value: 'แดง', swatch: null }] }])).toContain('แดง');
    const many = Array.from({ length: 15 }, (_, index) => ({ value: `v${index}`, swatch: null }));
    expect(optionsProblem([{ name: 'สี', values: many }, { name: 'ขนาด', values: many }])).toContain('225');
  });

  it('keeps exact matches first, fits a variant without values into the first free combination, and leaves the rest', () => {
    const combos = [['แดง', 'S'], ['แดง', 'M'], ['ดำ', 'S']];
    // A one-variant product's variant (no values) becomes the first combination.
    expect(matchCombinations(combos, [[null, null, null]])).toEqual({ kept: [0, null, null], left: [] });
    // An added option: existing shades take its first value; an exact match is never moved.
    expect(matchCombinations(combos, [['ดำ', null, null], ['แดง', 'M', null]])).toEqual({ kept: [null, 1, 0], left: [] });
    // A value taken out of the list: its variant is left, not reused.
    expect(matchCombinations([['แดง']], [['แดง', null, null], ['ฟ้า', null, null]])).toEqual({ kept: [0], left: [1] });
  });
});
