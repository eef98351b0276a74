import commonPasswords from './common-passwords.json' with { type: 'json' };

/**
 * NIST SP 800-63B / OWASP ASVS: length 8–128, no composition rules, refuse known common passwords.
 * The list (common-passwords.json) is the 1,000 most frequent passwords of 8+ characters from the
 * zxcvbn-ts frequency list plus a few Thai favourites; shorter ones are refused by length already.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const common = new Set<string>(commonPasswords as string[]);

export function isCommonPassword(password: string): boolean {
  return common.has(password.toLowerCase());
}

/** A Thai message for what is wrong with a new password, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `รหัสผ่านต้องมีอย่างน้อย ${PASSWORD_MIN} ตัวอักษร`;
  if (length > PASSWORD_MAX) return `รหัสผ่านต้องไม่เกิน ${PASSWORD_MAX} ตัวอักษร`;
  if (isCommonPassword(password)) return 'รหัสผ่านนี้ถูกใช้บ่อยเกินไปและเดาได้ง่าย กรุณาตั้งรหัสผ่านอื่น';
  return null;
}
