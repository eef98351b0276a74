import { z } from './zod.ts';
import { isThaiPhone, normalizeThaiPhone } from './phone.ts';
import { passwordProblem, PASSWORD_MAX } from './password-rules.ts';

/**
 * Zod schemas shared by the account islands (field messages as the member types) and the endpoints
 * (the same rules, enforced). Messages are Thai: they are shown next to the fields.
 */

const name = (label: string) =>
  z
    .string({ error: `กรุณากรอก${label}` })
    .trim()
    .min(1, `กรุณากรอก${label}`)
    .max(100, `${label}ต้องไม่เกิน 100 ตัวอักษร`);

export const emailField = z
  .string({ error: 'กรุณากรอกอีเมล' })
  .trim()
  .min(1, 'กรุณากรอกอีเมล')
  .max(254, 'อีเมลยาวเกินไป')
  .pipe(z.email({ error: 'รูปแบบอีเมลไม่ถูกต้อง' }))
  .transform((value) => value.toLowerCase());

export const phoneField = z
  .string({ error: 'กรุณากรอกเบอร์โทรศัพท์' })
  .trim()
  .min(1, 'กรุณากรอกเบอร์โทรศัพท์')
  .max(20, 'เบอร์โทรศัพท์ไม่ถูกต้อง')
  .transform(normalizeThaiPhone)
  .refine(isThaiPhone, 'เบอร์โทรศัพท์ไม่ถูกต้อง (ตัวอย่าง 0812345678)');

export const newPasswordField = z
  .string({ error: 'กรุณากรอกรหัสผ่าน' })
  .superRefine((value, context) => {
    const problem = passwordProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/**
 * The confirmation is compared even while other fields are still wrong (zod skips object refinements
 * after a field error unless `when` says otherwise), so the form never shows a wrong confirmation as valid.
 */
const mismatch = {
  message: 'รหัสผ่านและการยืนยันรหัสผ่านไม่ตรงกัน',
  path: ['confirmPassword'],
  when: (payload: { value: unknown }) => {
    const value = payload.value as { confirmPassword?: unknown } | null;
    return typeof value?.confirmPassword === 'string' && value.confirmPassword.length > 0;
  },
};

export const registerSchema = z
  .object({
    firstName: name('ชื่อ'),
    lastName: name('นามสกุล'),
    email: emailField,
    phone: phoneField,
    password: newPasswordField,
    confirmPassword: z.string({ error: 'กรุณายืนยันรหัสผ่าน' }).min(1, 'กรุณายืนยันรหัสผ่าน'),
    acceptTerms: z.literal(true, { error: 'กรุณายอมรับข้อตกลงและเงื่อนไข' }),
  })
  .refine((value) => value.password === value.confirmPassword, mismatch);
export type RegisterInput = z.input<typeof registerSchema>;

export const loginSchema = z.object({
  login: z.string({ error: 'กรุณากรอกอีเมลหรือเบอร์โทรศัพท์' }).trim().min(1, 'กรุณากรอกอีเมลหรือเบอร์โทรศัพท์').max(254, 'อีเมลหรือเบอร์โทรศัพท์ไม่ถูกต้อง'),
  // Long enough for any real password, short enough that nobody makes us hash a megabyte.
  password: z.string({ error: 'กรุณากรอกรหัสผ่าน' }).min(1, 'กรุณากรอกรหัสผ่าน').max(PASSWORD_MAX * 4, 'รหัสผ่านยาวเกินไป'),
});
export type LoginInput = z.input<typeof loginSchema>;

export const checkEmailSchema = z.object({ email: emailField });
export const checkPhoneSchema = z.object({ phone: phoneField });
export const checkMemberSchema = z.object({ login: loginSchema.shape.login });

const birthday = z
  .union([z.literal(''), z.null(), z.iso.date({ error: 'วันเกิดไม่ถูกต้อง' })])
  .optional()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || (value >= '1900-01-01' && value <= new Date().toISOString().slice(0, 10)), 'วันเกิดไม่ถูกต้อง');

export const profileSchema = z.object({
  firstName: name('ชื่อ'),
  lastName: name('นามสกุล'),
  phone: phoneField,
  birthday,
});
export type ProfileInput = z.input<typeof profileSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ error: 'กรุณากรอกรหัสผ่านปัจจุบัน' }).min(1, 'กรุณากรอกรหัสผ่านปัจจุบัน').max(PASSWORD_MAX * 4),
    newPassword: newPasswordField,
    confirmPassword: z.string({ error: 'กรุณายืนยันรหัสผ่าน' }).min(1, 'กรุณายืนยันรหัสผ่าน'),
  })
  .refine((value) => value.newPassword === value.confirmPassword, mismatch);
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

export const resetRequestSchema = z.object({ email: emailField });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1, 'ลิงก์ตั้งรหัสผ่านใหม่ไม่ถูกต้อง').max(200, 'ลิงก์ตั้งรหัสผ่านใหม่ไม่ถูกต้อง'),
    password: newPasswordField,
    confirmPassword: z.string({ error: 'กรุณายืนยันรหัสผ่าน' }).min(1, 'กรุณายืนยันรหัสผ่าน'),
  })
  .refine((value) => value.password === value.confirmPassword, mismatch);

const text = (label: string, max: number) =>
  z.string({ error: `กรุณากรอก${label}` }).trim().min(1, `กรุณากรอก${label}`).max(max, `${label}ยาวเกินไป`);

export const addressSchema = z.object({
  recipientName: text('ชื่อผู้รับ', 200),
  phone: phoneField,
  line1: text('ที่อยู่ (บ้านเลขที่ ถนน ซอย)', 300),
  subdistrict: text('ตำบล/แขวง', 100),
  district: text('อำเภอ/เขต', 100),
  province: text('จังหวัด', 100),
  postcode: z.string({ error: 'กรุณากรอกรหัสไปรษณีย์' }).trim().regex(/^\d{5}$/, 'รหัสไปรษณีย์ต้องเป็นตัวเลข 5 หลัก'),
  isDefault: z.boolean().optional().default(false),
});
export type AddressInput = z.input<typeof addressSchema>;

export const addressIdSchema = z.object({ id: z.uuid({ error: 'ไม่พบที่อยู่' }) });

/** Field messages keyed by field name, first message per field: what the islands show under inputs. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Sign-up of a new LINE user (docs/decisions/211): no password, LINE is the way in until they set one. */
export const lineSignUpSchema = z.object({
  firstName: name('ชื่อ'),
  lastName: name('นามสกุล'),
  email: emailField,
  phone: phoneField,
  acceptTerms: z.literal(true, { error: 'กรุณายอมรับข้อตกลงและเงื่อนไข' }),
});
