import { adminForm } from '../../../server/admin/forms';
import { confirmPassword, grantRole } from '../../../server/admin/staff.service';
import { ROLE_LABELS } from '../../../lib/roles';

/** Owner only: gives a member a back-office role, after the owner's password again. */
export const POST = adminForm(
  'staff',
  () => '/admin/staff',
  async ({ staff, actor, form }) => {
    await confirmPassword(staff.member.id, String(form.get('password') ?? ''));
    const result = await grantRole(actor, { email: String(form.get('email') ?? ''), role: String(form.get('role') ?? '') });
    return { message: `ให้สิทธิ์ ${ROLE_LABELS[result.role]} แก่ ${result.email} แล้ว`, data: result };
  },
);
