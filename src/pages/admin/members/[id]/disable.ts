import { adminForm } from '../../../../server/admin/forms';
import { setMemberDisabled } from '../../../../server/admin/members-admin.service';
import { badRequest } from '../../../../server/http/errors';

/** Disables (or enables again) a member's account; a disabled member cannot log in. */
export const POST = adminForm(
  'members',
  (context) => `/admin/members/${encodeURIComponent(context.params.id ?? '')}`,
  async ({ context, actor, form }) => {
    const disabled = String(form.get('disabled') ?? 'true') !== 'false';
    const reason = String(form.get('reason') ?? '').trim();
    if (disabled && !reason) throw badRequest('reason_required', 'กรุณาระบุเหตุผลที่ระงับบัญชี', { reason: 'กรุณาระบุเหตุผล' });
    await setMemberDisabled(actor, String(context.params.id ?? ''), disabled, reason);
    return { message: disabled ? 'ระงับบัญชีแล้ว สมาชิกคนนี้จะเข้าสู่ระบบไม่ได้' : 'เปิดใช้งานบัญชีอีกครั้งแล้ว', data: { disabled } };
  },
);
