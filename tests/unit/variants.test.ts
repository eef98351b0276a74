import { describe, expect, it } from 'vitest';
import { optionLabel, variantDisplayName, variantOptions } from '../../src/lib/variants';
import { chosenVariant, defaultVariant, optionValues, variantForValues, type ChoosableVariant } from '../../src/lib/variant-choice';

const v = (code: string, values: (string | null)[], stock: number, active = true): ChoosableVariant => ({ code, values, swatch: null, priceSatang: 100, stock, active });

describe('variant names', () => {
  it('runs Thai values into the option name and spaces Latin letters and digits', () => {
    expect(optionLabel({ name: 'สี', value: 'ส้มพีช' })).toBe('สีส้มพีช');
    expect(optionLabel({ name: 'ขนาด', value: 'M' })).toBe('ขนาด M');
    expect(optionLabel({ name: 'ขนาด', value: '50 มล.' })).toBe('ขนาด 50 มล.');
    expect(optionLabel({ name: 'สี', value: 'สีแดง' })).toBe('สีแดง');
    expect(variantDisplayName('ลิปสติกเนื้อแมตต์', variantOptions(['สี'], ['ส้มพีช']))).toBe('ลิปสติกเนื้อแมตต์ — สีส้มพีช');
    expect(variantDisplayName('เสื้อยืด', variantOptions(['สี', 'ขนาด'], ['ดำ', 'L']))).toBe('เสื้อยืด — สีดำ / ขนาด L');
    expect(variantDisplayName('ปากกา', variantOptions([], [null]))).toBe('ปากกา');
  });
});

describe('choosing a variant', () => {
  const shirt = [v('T-BK-M', ['ดำ', 'M'], 0), v('T-BK-L', ['ดำ', 'L'], 3), v('T-WH-M', ['ขาว', 'M'], 2), v('T-WH-S', ['ขาว', 'S'], 0, false)];

  it('opens on the first variant with stock, and a code names its variant but the product code none', () => {
    expect(defaultVariant(shirt)?.code).toBe('T-BK-L');
    expect(chosenVariant({ code: 'T', variants: shirt }, 't-wh-m')?.code).toBe('T-WH-M');
    expect(chosenVariant({ code: 'T', variants: shirt }, 'T')).toBeNull();
    expect(chosenVariant({ code: 'T', variants: shirt }, 'T-WH-S')).toBeNull();
  });

  it('keeps the value just chosen when the combination does not exist', () => {
    expect(variantForValues(shirt, ['ขาว', 'L'], 0)?.code).toBe('T-WH-M');
    expect(variantForValues(shirt, ['ขาว', 'M'], 1)?.code).toBe('T-WH-M');
  });

  it('marks values that cannot be had with the others, or are sold out with them; inactive ones are left out', () => {
    expect(optionValues(shirt, 1, ['ขาว', 'M'])).toEqual([
      { value: 'M', swatch: null, exists: true, inStock: true },
      { value: 'L', swatch: null, exists: false, inStock: false },
    ]);
    expect(optionValues(shirt, 1, ['ดำ', 'L'])).toEqual([
      { value: 'M', swatch: null, exists: true, inStock: false },
      { value: 'L', swatch: null, exists: true, inStock: true },
    ]);
  });
});
