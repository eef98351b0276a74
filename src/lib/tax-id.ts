/**
 * Thai 13-digit tax id (เลขประจำตัวผู้เสียภาษี, the same scheme as the national id): the last digit is
 * (11 − Σ dᵢ·(13 − i) mod 11) mod 10 over the first twelve digits. Dashes and spaces are allowed in input.
 */
export function normaliseTaxId(value: string): string {
  return value.replace(/[\s-]/g, '');
}

export function isValidThaiTaxId(value: string): boolean {
  const digits = normaliseTaxId(value);
  if (!/^\d{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (13 - i);
  return (11 - (sum % 11)) % 10 === Number(digits[12]);
}

/** 0-1055-12345-67-8 style, as printed on Thai documents. */
export function formatTaxId(value: string): string {
  const d = normaliseTaxId(value);
  if (d.length !== 13) return value;
  return `${d[0]}-${d.slice(1, 5)}-${d.slice(5, 10)}-${d.slice(10, 12)}-${d[12]}`;
}
