import { useState, type FormEvent } from 'react';
import { fieldErrors, resetPasswordSchema, resetRequestSchema } from '../../lib/account-schemas';
import { postJson } from './api';
import Field from './Field';

interface Props {
  /** The token from the mailed link; without one the form asks for the email. */
  token: string | null;
  /** False when the link is unknown, used or expired (checked by the page). */
  tokenUsable: boolean;
}

export default function ResetPasswordForm({ token, tokenUsable }: Props) {
  if (token === null) return <RequestForm />;
  if (!tokenUsable) {
    return (
      <div className="alert alert-warning" role="alert">
        ลิงก์ตั้งรหัสผ่านใหม่ไม่ถูกต้อง ถูกใช้ไปแล้ว หรือหมดอายุ <a href="/resetpassword">ขอลิงก์ใหม่</a>
      </div>
    );
  }
  return <NewPasswordForm token={token} />;
}

function RequestForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = resetRequestSchema.safeParse({ email });
    if (!parsed.success) {
      setError(fieldErrors(parsed.error).email);
      return;
    }
    setError(undefined);
    setBusy(true);
    const result = await postJson<{ message: string }>('/api/auth/reset-request', parsed.data);
    setBusy(false);
    if (result.ok && result.data) setDone(result.data.message);
    else setError(result.message);
  }

  if (done) {
    return (
      <div className="alert alert-success" role="status">
        {done}
      </div>
    );
  }
  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} aria-label="ขอตั้งรหัสผ่านใหม่">
      <p className="text-secondary">กรอกอีเมลที่ใช้สมัครสมาชิก เราจะส่งลิงก์สำหรับตั้งรหัสผ่านใหม่ให้ทางอีเมล</p>
      <Field id="reset-email" label="อีเมล" type="email" autoComplete="email" value={email} error={error} onChange={(event) => setEmail(event.target.value)} />
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        ส่งลิงก์ตั้งรหัสผ่านใหม่
      </button>
    </form>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const [values, setValues] = useState({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage('');
    const parsed = resetPasswordSchema.safeParse({ token, ...values });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await postJson<{ message: string }>('/api/auth/reset-password', parsed.data);
    setBusy(false);
    if (result.ok && result.data) setDone(result.data.message);
    else {
      setErrors(result.fields);
      setMessage(result.message);
    }
  }

  if (done) {
    return (
      <div className="alert alert-success" role="status">
        {done} <a href="/login">เข้าสู่ระบบ</a>
      </div>
    );
  }
  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} aria-label="ตั้งรหัสผ่านใหม่">
      {message && (
        <div className="alert alert-danger py-2" role="alert">
          {message}
        </div>
      )}
      <Field
        id="reset-password"
        label="รหัสผ่านใหม่"
        type="password"
        autoComplete="new-password"
        value={values.password}
        error={errors.password}
        onChange={(event) => setValues((current) => ({ ...current, password: event.target.value }))}
      />
      <Field
        id="reset-confirm"
        label="ยืนยันรหัสผ่านใหม่"
        type="password"
        autoComplete="new-password"
        value={values.confirmPassword}
        error={errors.confirmPassword}
        onChange={(event) => setValues((current) => ({ ...current, confirmPassword: event.target.value }))}
      />
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        ตั้งรหัสผ่านใหม่
      </button>
    </form>
  );
}
