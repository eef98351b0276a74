/**
 * Thai phone numbers are kept in one form, 0XXXXXXXX(X), so the unique index and logins by phone work
 * whether the member typed dashes, spaces or +66.
 */
export function normalizeThaiPhone(input: string): string {
  let digits = input.replace(/[\s\-().]/g, '');
  if (digits.startsWith('+66')) digits = `0${digits.slice(3)}`;
  else if (/^66\d{9}$/.test(digits)) digits = `0${digits.slice(2)}`;
  return digits;
}

/** Mobile numbers (06/08/09 + 8 digits) and landlines (0 + 8 digits). */
export function isThaiPhone(normalized: string): boolean {
  return /^0[689]\d{8}$/.test(normalized) || /^0[2-7]\d{7}$/.test(normalized);
}

/** 0812345678 → 081-234-5678, Bangkok 021234567 → 02-123-4567, elsewhere 053123456 → 053-123-456. */
export function formatThaiPhone(normalized: string): string {
  if (/^0\d{9}$/.test(normalized)) return `${normalized.slice(0, 3)}-${normalized.slice(3, 6)}-${normalized.slice(6)}`;
  if (/^02\d{7}$/.test(normalized)) return `${normalized.slice(0, 2)}-${normalized.slice(2, 5)}-${normalized.slice(5)}`;
  if (/^0\d{8}$/.test(normalized)) return `${normalized.slice(0, 3)}-${normalized.slice(3, 6)}-${normalized.slice(6)}`;
  return normalized;
}
