/**
 * Choosing a variant on the product page, the same on the server (the page without JavaScript, the
 * `?variant=` link) and in the picker island (docs/decisions/205, 206). Pure code, no server imports.
 */

export interface ChoosableVariant {
  code: string;
  /** Values for the product's option names, in order. */
  values: readonly (string | null)[];
  swatch: string | null;
  priceSatang: number;
  stock: number;
  active: boolean;
}

/** A value of one option as the picker shows it. */
export interface OptionValue {
  value: string;
  /** The colour of the first variant with this value (for the first option's swatches), or null. */
  swatch: string | null;
  /** Some active variant with this value and the other chosen values exists. */
  exists: boolean;
  /** …and has stock. */
  inStock: boolean;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The variant a code names, or null when the code is the product's own (the product's default then)
 * or names no variant of it.
 */
export function chosenVariant<V extends ChoosableVariant>(product: { code: string; variants: readonly V[] }, code: string): V | null {
  if (same(product.code, code)) return null;
  return product.variants.find((variant) => variant.active && same(variant.code, code)) ?? null;
}

/** What the page shows first: the first active variant with stock, else the first active one. */
export function defaultVariant<V extends ChoosableVariant>(variants: readonly V[]): V | null {
  return variants.find((variant) => variant.active && variant.stock > 0) ?? variants.find((variant) => variant.active) ?? null;
}

/**
 * The active variant with exactly these values; failing that (the shopper changed one option into a
 * combination that does not exist), the first active variant with the value just chosen and as many of
 * the others as can be kept.
 */
export function variantForValues<V extends ChoosableVariant>(variants: readonly V[], values: readonly (string | null)[], changed = 0): V | null {
  const active = variants.filter((variant) => variant.active);
  const exact = active.find((variant) => values.every((value, index) => (variant.values[index] ?? null) === (value ?? null)));
  if (exact) return exact;
  const withChanged = active.filter((variant) => (variant.values[changed] ?? null) === (values[changed] ?? null));
  const score = (variant: V) => values.filter((value, index) => (variant.values[index] ?? null) === (value ?? null)).length * 2 + (variant.stock > 0 ? 1 : 0);
  return [...withChanged].sort((a, b) => score(b) - score(a))[0] ?? null;
}

/** The values of option `index` in the shop's order, each with whether it can be had with the other chosen values. */
export function optionValues(variants: readonly ChoosableVariant[], index: number, chosen: readonly (string | null)[]): OptionValue[] {
  const found = new Map<string, OptionValue>();
  for (const variant of variants) {
    if (!variant.active) continue;
    const value = variant.values[index];
    if (!value) continue;
    const entry = found.get(value) ?? { value, swatch: index === 0 ? variant.swatch : null, exists: false, inStock: false };
    const others = chosen.every((other, at) => at === index || other === null || (variant.values[at] ?? null) === other);
    if (others) {
      entry.exists = true;
      if (variant.stock > 0) entry.inStock = true;
    }
    found.set(value, entry);
  }
  return [...found.values()];
}
