import { describe, expect, it } from 'vitest';
import commonPasswords from '../../src/lib/common-passwords.json';
import { isCommonPassword, passwordProblem, PASSWORD_MAX, PASSWORD_MIN } from '../../src/lib/password-rules';

describe('password rules', () => {
  it('ships a list of common passwords, all long enough to pass the length rule', () => {
    expect(commonPasswords.length).toBeGreaterThanOrEqual(1000);
    expect(commonPasswords.every((word: string) => word.length >= PASSWORD_MIN)).toBe(true);
  });

  it.each([
    ['short', 'abc1234', /อย่างน้อย 8/],
    ['too long', 'a'.repeat(PASSWORD_MAX + 1), /ไม่เกิน 128/],
    ['common', 'password', /ถูกใช้บ่อย/],
    ['common any case', 'PassWord1', /ถูกใช้บ่อย/],
    ['common digits', '123456789', /ถูกใช้บ่อย/],
  ])('refuses %s', (_name, password, message) => {
    expect(passwordProblem(password)).toMatch(message);
  });

  it.each([
    ['eight characters, no composition rules', 'kdjfhwqz'],
    ['a Thai passphrase', 'แมวส้มนอนบนหลังคา'],
    ['spaces allowed', 'correct horse battery staple'],
    ['exactly 128', 'x'.repeat(127) + 'y'],
    ['8 Thai characters counted by code point', 'กขคงจฉชซ'],
  ])('accepts %s', (_name, password) => {
    expect(passwordProblem(password)).toBeNull();
  });

  it('matches common passwords case-insensitively', () => {
    expect(isCommonPassword('QWERTYUIOP')).toBe(true);
    expect(isCommonPassword('not-in-any-list-42x')).toBe(false);
  });
});
