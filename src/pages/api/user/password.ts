import { changePasswordSchema } from '../../../lib/account-schemas';
import { currentSession } from '../../../server/auth/guard';
import { unauthorized } from '../../../server/http/errors';
import { PRIVATE } from '../../../server/http/private';
import { endpoint, ok, readJson } from '../../../server/http/responses';
import { changePassword } from '../../../server/members/member.service';

/** Changes the password; this session stays, every other session of the member ends. */
export const POST = endpoint(async (context) => {
  const session = await currentSession(context);
  if (!session) throw unauthorized();
  const input = await readJson(context.request, changePasswordSchema);
  await changePassword(session.member.id, session.tokenHash, input);
  return ok({ message: 'เปลี่ยนรหัสผ่านเรียบร้อยแล้ว' }, { headers: PRIVATE });
});
