import { adminForm } from '../../../server/admin/forms';
import { confirmPassword, removeRole } from '../../../server/admin/staff.service';

/** Owner only: takes a member's back-office role away (never the last owner's). */
export const POST = adminForm(
  'staff',
  () => '/admin/staff',
  async ({ staff, actor, form }) => {
    await confirmPassword(staff.member.id, String(form.get('password') ?? ''));
    const result = await removeRole(actor, String(form.get('member_id') ?? ''));
    return { message: `นำสิทธิ์ของ ${result.email} ออกแล้ว`, data: result };
  },
);
