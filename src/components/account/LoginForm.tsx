import { useState, type FormEvent } from 'react';
import { loginSchema, fieldErrors } from '../../lib/account-schemas';
import { setUser, type AuthUser } from '../../stores/auth';
import { postJson } from './api';
import Field from './Field';

interface Props {
  /** Where to go after login: already checked by the server to be a local path. */
  next: string;
  /** What the server said about a plain form post (the form works before JavaScript has loaded). */
  initialMessage?: string;
  initialLogin?: string;
}

export default function LoginForm({ next, initialMessage = '', initialLogin = '' }: Props) {
  const [values, setValues] = useState({ login: initialLogin, password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState(initialMessage);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage('');
    const parsed = loginSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await postJson<{ user: AuthUser | null; two_factor_required?: boolean }>('/api/auth/login', parsed.data);
    if (result.ok && result.data?.two_factor_required) {
      window.location.assign(`/login/two-step?next=${encodeURIComponent(next)}`);
      return;
    }
    if (result.ok && result.data?.user) {
      setUser(result.data.user);
      window.location.assign(next);
      return;
    }
    setBusy(false);
    setMessage(result.message);
  }

  return (
    <form method="post" action={`/login${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`} noValidate onSubmit={(event) => void submit(event)} aria-label="เข้าสู่ระบบ">
      {message && (
        <div className="alert alert-danger py-2" role="alert">
          {message}
        </div>
      )}
      <Field
        id="login-id"
        label="อีเมลหรือเบอร์โทรศัพท์"
        name="login"
        autoComplete="username"
        inputMode="email"
        value={values.login}
        error={errors.login}
        onChange={(event) => setValues((current) => ({ ...current, login: event.target.value }))}
      />
      <Field
        id="login-password"
        label="รหัสผ่าน"
        name="password"
        type="password"
        autoComplete="current-password"
        value={values.password}
        error={errors.password}
        onChange={(event) => setValues((current) => ({ ...current, password: event.target.value }))}
      />
      <div className="d-flex justify-content-end mb-3">
        <a href="/resetpassword" className="small">
          ลืมรหัสผ่าน?
        </a>
      </div>
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
        เข้าสู่ระบบ
      </button>
    </form>
  );
}
