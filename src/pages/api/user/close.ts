import { z } from 'zod';
import { currentSession } from '../../../server/auth/guard';
import { clearSessionCookie } from '../../../server/auth/cookies';
import { unauthorized } from '../../../server/http/errors';
import { clientIp } from '../../../server/http/client';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok, readJson } from '../../../server/http/responses';
import { closeAccount } from '../../../server/members/account-data.service';

const closeSchema = z.object({
  password: z.string({ error: 'กรุณากรอกรหัสผ่าน' }).min(1, 'กรุณากรอกรหัสผ่าน').max(200, 'รหัสผ่านไม่ถูกต้อง'),
  confirm: z.literal(true, { error: 'กรุณาติ๊กยืนยันว่าต้องการปิดบัญชี' }),
});

/**
 * issue 29: the member closes their own account (password again and a ticked confirmation). Every
 * session ends, this one included, and the cookie goes.
 */
export const POST = endpoint(async (context) => {
  const session = await currentSession(context);
  if (!session) throw unauthorized();
  const input = await readJson(context.request, closeSchema);
  const result = await closeAccount(session.member.id, input.password, { ip: clientIp(context) });
  clearSessionCookie(context.cookies, context.url);
  return ok({ message: 'ปิดบัญชีเรียบร้อยแล้ว ข้อมูลส่วนบุคคลของคุณถูกลบแล้ว', ordersKept: result.orders }, { headers: PRIVATE });
});
