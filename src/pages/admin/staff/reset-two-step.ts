import { adminForm } from '../../../server/admin/forms';
import { confirmPassword } from '../../../server/admin/staff.service';
import { resetTwoFactorForMember } from '../../../server/auth/two-factor.service';

/** Owner only: clears a team member's two-step sign-in (lost phone, locked second step), after the owner's password again. */
export const POST = adminForm(
  'staff',
  () => '/admin/staff',
  async ({ staff, actor, form }) => {
    await confirmPassword(staff.member.id, String(form.get('password') ?? ''));
    const result = await resetTwoFactorForMember(actor, String(form.get('member_id') ?? ''));
    return { message: `ล้างการยืนยันสองขั้นตอนของ ${result.email} แล้ว และส่งอีเมลแจ้งแล้ว`, data: result };
  },
);
