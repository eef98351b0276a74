import { describe, expect, it } from 'vitest';
import { addressSchema, changePasswordSchema, fieldErrors, loginSchema, profileSchema, registerSchema } from '../../src/lib/account-schemas';
import { formatThaiPhone, isThaiPhone, normalizeThaiPhone } from '../../src/lib/phone';

const valid = {
  firstName: '  สมชาย ',
  lastName: 'ใจดี',
  email: ' Somchai@Example.COM ',
  phone: '081-234-5678',
  password: 'ช้างน้อยเดินเล่น',
  confirmPassword: 'ช้างน้อยเดินเล่น',
  acceptTerms: true,
};

describe('registerSchema', () => {
  it('normalises a valid registration', () => {
    const parsed = registerSchema.parse(valid);
    expect(parsed).toMatchObject({ firstName: 'สมชาย', email: 'somchai@example.com', phone: '0812345678' });
  });

  it.each([
    ['firstName', { firstName: '   ' }, 'กรุณากรอกชื่อ'],
    ['lastName', { lastName: '' }, 'กรุณากรอกนามสกุล'],
    ['email', { email: 'not-an-email' }, 'รูปแบบอีเมลไม่ถูกต้อง'],
    ['phone', { phone: '12345' }, 'เบอร์โทรศัพท์ไม่ถูกต้อง (ตัวอย่าง 0812345678)'],
    ['password', { password: 'short', confirmPassword: 'short' }, 'รหัสผ่านต้องมีอย่างน้อย 8 ตัวอักษร'],
    ['confirmPassword', { confirmPassword: 'something else' }, 'รหัสผ่านและการยืนยันรหัสผ่านไม่ตรงกัน'],
    ['acceptTerms', { acceptTerms: false }, 'กรุณายอมรับข้อตกลงและเงื่อนไข'],
  ])('gives a Thai message for %s', (field, change, message) => {
    const result = registerSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    if (!result.success) expect(fieldErrors(result.error)[field]).toBe(message);
  });

  it('reports a wrong confirmation even when the password itself is refused', () => {
    const result = registerSchema.safeParse({ ...valid, password: '12345678', confirmPassword: '1234' });
    expect(result.success).toBe(false);
    if (!result.success) {
      const fields = fieldErrors(result.error);
      expect(fields.password).toMatch(/ถูกใช้บ่อย/);
      expect(fields.confirmPassword).toBe('รหัสผ่านและการยืนยันรหัสผ่านไม่ตรงกัน');
    }
  });

  it('keeps SQL and markup as text', () => {
    const parsed = registerSchema.parse({ ...valid, firstName: "'; DROP TABLE members; --", lastName: '<img src=x onerror=alert(1)>' });
    expect(parsed.firstName).toBe("'; DROP TABLE members; --");
    expect(parsed.lastName).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('other account schemas', () => {
  it('login needs both fields but does not judge the password', () => {
    expect(loginSchema.safeParse({ login: 'a@b.co', password: 'x' }).success).toBe(true);
    expect(loginSchema.safeParse({ login: '', password: 'x' }).success).toBe(false);
    expect(loginSchema.safeParse({ login: 'a@b.co', password: 'x'.repeat(600) }).success).toBe(false);
  });

  it('profile birthday may be empty, must be a real past date', () => {
    const base = { firstName: 'ก', lastName: 'ข', phone: '0812345678' };
    expect(profileSchema.parse({ ...base, birthday: '' }).birthday).toBeNull();
    expect(profileSchema.parse({ ...base }).birthday).toBeNull();
    expect(profileSchema.parse({ ...base, birthday: '1995-02-28' }).birthday).toBe('1995-02-28');
    expect(profileSchema.safeParse({ ...base, birthday: '1995-02-30' }).success).toBe(false);
    expect(profileSchema.safeParse({ ...base, birthday: '2999-01-01' }).success).toBe(false);
  });

  it('change password applies the new-password rules and the confirmation', () => {
    expect(changePasswordSchema.safeParse({ currentPassword: 'old', newPassword: 'password', confirmPassword: 'password' }).success).toBe(false);
    expect(changePasswordSchema.safeParse({ currentPassword: 'old', newPassword: 'ทะเลสีครามใส', confirmPassword: 'ทะเลสีครามใส' }).success).toBe(true);
  });

  it('address needs every part and a 5-digit postcode', () => {
    const address = { recipientName: 'ก', phone: '0812345678', line1: '1', subdistrict: 'ลุมพินี', district: 'ปทุมวัน', province: 'กรุงเทพมหานคร', postcode: '10330' };
    expect(addressSchema.parse(address).isDefault).toBe(false);
    const bad = addressSchema.safeParse({ ...address, postcode: '1033', subdistrict: '' });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(Object.keys(fieldErrors(bad.error)).sort()).toEqual(['postcode', 'subdistrict']);
  });
});

describe('Thai phone numbers', () => {
  it.each([
    ['081-234-5678', '0812345678', true],
    ['+66 81 234 5678', '0812345678', true],
    ['66812345678', '0812345678', true],
    ['02 123 4567', '021234567', true],
    ['0212345678', '0212345678', false],
    ['1234567890', '1234567890', false],
  ])('%s → %s (valid %s)', (input, normalized, validPhone) => {
    expect(normalizeThaiPhone(input)).toBe(normalized);
    expect(isThaiPhone(normalized)).toBe(validPhone);
  });

  it('formats for display', () => {
    expect(formatThaiPhone('0812345678')).toBe('081-234-5678');
    expect(formatThaiPhone('021234567')).toBe('02-123-4567');
    expect(formatThaiPhone('053123456')).toBe('053-123-456');
  });
});
