import { adminForm } from '../../../server/admin/forms';
import { confirmPassword, setRequireTwoFactor } from '../../../server/admin/staff.service';

/** Owner only: requires (or stops requiring) two-step sign-in for everyone in the back office. */
export const POST = adminForm(
  'staff',
  () => '/admin/staff',
  async ({ staff, actor, form }) => {
    await confirmPassword(staff.member.id, String(form.get('password') ?? ''));
    const value = String(form.get('require_two_factor') ?? '') === 'true';
    await setRequireTwoFactor(actor, value);
    return { message: value ? 'บังคับการยืนยันสองขั้นตอนสำหรับทีมงานทุกคนแล้ว' : 'เลิกบังคับการยืนยันสองขั้นตอนแล้ว', data: { requireTwoFactor: value } };
  },
);
