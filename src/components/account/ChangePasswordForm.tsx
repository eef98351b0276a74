import { useState, type FormEvent } from 'react';
import { changePasswordSchema, fieldErrors } from '../../lib/account-schemas';
import { postJson } from './api';
import Field from './Field';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

export default function ChangePasswordForm() {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ kind: 'success' | 'danger'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    const parsed = changePasswordSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await postJson<{ message: string }>('/api/user/password', parsed.data);
    setBusy(false);
    if (result.ok && result.data) {
      setValues(empty);
      setMessage({ kind: 'success', text: `${result.data.message} อุปกรณ์อื่นที่เคยเข้าสู่ระบบไว้ถูกออกจากระบบแล้ว` });
    } else {
      setErrors(result.fields);
      setMessage({ kind: 'danger', text: result.message });
    }
  }

  const set = (key: keyof typeof values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [key]: event.target.value }));

  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="card card-body" aria-label="เปลี่ยนรหัสผ่าน">
      {message && (
        <div className={`alert alert-${message.kind} py-2`} role={message.kind === 'success' ? 'status' : 'alert'}>
          {message.text}
        </div>
      )}
      <Field id="password-current" label="รหัสผ่านปัจจุบัน" type="password" autoComplete="current-password" value={values.currentPassword} error={errors.currentPassword} onChange={set('currentPassword')} />
      <Field id="password-new" label="รหัสผ่านใหม่" type="password" autoComplete="new-password" hint="อย่างน้อย 8 ตัวอักษร" value={values.newPassword} error={errors.newPassword} onChange={set('newPassword')} />
      <Field id="password-confirm" label="ยืนยันรหัสผ่านใหม่" type="password" autoComplete="new-password" value={values.confirmPassword} error={errors.confirmPassword} onChange={set('confirmPassword')} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          เปลี่ยนรหัสผ่าน
        </button>
      </div>
    </form>
  );
}
