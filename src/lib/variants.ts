/**
 * Product variants, the parts both sides use (docs/decisions/205): a product names up to three options
 * (`สี`, `ขนาด`, `กลิ่น`) and each variant has a value for each.
 */

/** One option value of a variant, with its option's name: `{ name: 'สี', value: 'ส้มพีช' }`. */
export interface VariantOption {
  name: string;
  value: string;
}

export const MAX_OPTIONS = 3;

/** A swatch colour as the shop stores it (`#e8a07a`): nothing else reaches a style attribute. */
export function isSwatchColour(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value);
}

/** The option values of a variant paired with the product's option names (values without a name are left out). */
export function variantOptions(optionNames: readonly string[], values: readonly (string | null | undefined)[]): VariantOption[] {
  const options: VariantOption[] = [];
  optionNames.slice(0, MAX_OPTIONS).forEach((name, index) => {
    const value = values[index];
    if (name && value) options.push({ name, value });
  });
  return options;
}

/**
 * One option value as a shopper reads it: the option's name and the value, run together in Thai
 * ("สีส้มพีช", "กลิ่นลาเวนเดอร์") and with a space before Latin letters or digits ("ขนาด M", "ขนาด 50 มล.").
 */
export function optionLabel(option: VariantOption): string {
  if (option.value.startsWith(option.name)) return option.value;
  return /^[\p{Script=Thai}]/u.test(option.value) ? `${option.name}${option.value}` : `${option.name} ${option.value}`;
}

/** The variant part of a name: "สีส้มพีช", "สีแดง / ขนาด M"; empty for a one-variant product. */
export function variantLabel(options: readonly VariantOption[]): string {
  return options.map(optionLabel).join(' / ');
}

/** The name of what was sold: "ลิปสติกเนื้อแมตต์ — สีส้มพีช" (the product's name alone without options). */
export function variantDisplayName(productName: string, options: readonly VariantOption[]): string {
  const label = variantLabel(options);
  return label ? `${productName} — ${label}` : productName;
}
