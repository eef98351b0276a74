import { resetPasswordSchema } from '../../../lib/account-schemas';
import { resetPassword } from '../../../server/auth/reset.service';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok, readJson } from '../../../server/http/responses';

export const POST = endpoint(async (context) => {
  const input = await readJson(context.request, resetPasswordSchema);
  await resetPassword(input.token, input.password);
  return ok({ message: 'ตั้งรหัสผ่านใหม่เรียบร้อยแล้ว กรุณาเข้าสู่ระบบด้วยรหัสผ่านใหม่' }, { headers: PRIVATE });
});
