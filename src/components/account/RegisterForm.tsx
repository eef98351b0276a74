import { useEffect, useRef, useState, type FormEvent } from 'react';
import { checkEmailSchema, checkPhoneSchema, fieldErrors, registerSchema } from '../../lib/account-schemas';
import { withNextPath } from '../../lib/safe-redirect';
import { setUser, type AuthUser } from '../../stores/auth';
import { postJson } from './api';
import Field from './Field';

type Key = 'firstName' | 'lastName' | 'email' | 'phone' | 'password' | 'confirmPassword' | 'acceptTerms';
type Availability = 'idle' | 'checking' | 'available' | 'taken';

const empty = { firstName: '', lastName: '', email: '', phone: '', password: '', confirmPassword: '', acceptTerms: false };

/** Asks the server whether an email or phone is free while the member types (debounced). */
function useAvailability(kind: 'email' | 'phone', value: string): Availability {
  const [state, setState] = useState<{ value: string; availability: Availability }>({ value: '', availability: 'idle' });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    clearTimeout(timer.current);
    const schema = kind === 'email' ? checkEmailSchema : checkPhoneSchema;
    const parsed = schema.safeParse({ [kind]: value });
    if (!parsed.success) return;
    let cancelled = false;
    timer.current = setTimeout(() => {
      setState({ value, availability: 'checking' });
      void postJson<{ available: boolean }>(`/api/check-${kind}/`, parsed.data).then((result) => {
        if (cancelled) return;
        // A refused check (rate limit, network) leaves the decision to the server at submit.
        setState({ value, availability: result.ok && result.data ? (result.data.available ? 'available' : 'taken') : 'idle' });
      });
    }, 400);
    return () => {
      cancelled = true;
      clearTimeout(timer.current);
    };
  }, [kind, value]);
  return state.value === value ? state.availability : 'idle';
}

interface Props {
  /** Where to go after sign-up: already checked by the server to be a local path. */
  next: string;
  /** What a plain form post (before or without JavaScript) sent, and what the server said about it. */
  initialValues?: Partial<Pick<typeof empty, 'firstName' | 'lastName' | 'email' | 'phone' | 'acceptTerms'>>;
  initialErrors?: Record<string, string>;
  initialMessage?: string;
  /** The server's code for that answer (`email_taken` offers login and password reset). */
  initialCode?: string;
}

export default function RegisterForm({ next, initialValues = {}, initialErrors = {}, initialMessage = '', initialCode = '' }: Props) {
  const [values, setValues] = useState({ ...empty, ...initialValues });
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>(() => Object.fromEntries(Object.keys(initialErrors).map((key) => [key, true])));
  const [serverErrors, setServerErrors] = useState<Record<string, string>>(initialErrors);
  const [message, setMessage] = useState(initialMessage);
  const [code, setCode] = useState(initialCode);
  const [busy, setBusy] = useState(false);
  const emailState = useAvailability('email', values.email);
  const phoneState = useAvailability('phone', values.phone);

  const parsed = registerSchema.safeParse(values);
  const errors: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error);
  if (emailState === 'taken') errors.email ??= 'อีเมลนี้ถูกใช้สมัครสมาชิกแล้ว';
  if (phoneState === 'taken') errors.phone ??= 'เบอร์โทรศัพท์นี้ถูกใช้สมัครสมาชิกแล้ว';
  for (const [key, text] of Object.entries(serverErrors)) errors[key] ??= text;

  // Someone who already has an account is offered the way in, still heading where they were going.
  const emailTaken = emailState === 'taken' || code === 'email_taken';

  const shown = (key: Key) => (touched[key] ? errors[key] : undefined);
  const valid = (key: Key) => Boolean(touched[key]) && !errors[key];

  function change(key: Key, value: string | boolean) {
    setValues((current) => ({ ...current, [key]: value }));
    if (key === 'email') setCode('');
    setServerErrors((current) => {
      if (!(key in current)) return current;
      const rest = { ...current };
      delete rest[key];
      return rest;
    });
  }
  const touch = (key: Key) => setTouched((current) => ({ ...current, [key]: true }));
  const input = (key: Exclude<Key, 'acceptTerms'>) => ({
    name: key,
    value: values[key],
    error: shown(key),
    valid: valid(key),
    onChange: (event: { target: { value: string } }) => change(key, event.target.value),
    onBlur: () => touch(key),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage('');
    setCode('');
    setTouched({ firstName: true, lastName: true, email: true, phone: true, password: true, confirmPassword: true, acceptTerms: true });
    if (!parsed.success || emailState === 'taken' || phoneState === 'taken') return;
    setBusy(true);
    const result = await postJson<{ user: AuthUser }>('/api/member-insert/', parsed.data);
    if (result.ok && result.data) {
      setUser(result.data.user);
      const { default: Swal } = await import('sweetalert2');
      await Swal.fire({ icon: 'success', title: 'สมัครสมาชิกเรียบร้อยแล้ว', text: `ยินดีต้อนรับคุณ${result.data.user.firstName}`, confirmButtonText: 'ตกลง', timer: 1500 });
      window.location.assign(next);
      return;
    }
    setBusy(false);
    setServerErrors(result.fields);
    setMessage(result.message);
    setCode(result.code);
  }

  const availabilityHint = (state: Availability, free: string) =>
    state === 'checking' ? 'กำลังตรวจสอบ…' : state === 'available' ? free : undefined;

  return (
    <form method="post" action={withNextPath('/register', next)} noValidate onSubmit={(event) => void submit(event)} aria-label="สมัครสมาชิก">
      {message && (
        <div className="alert alert-danger py-2" role="alert">
          {message}
        </div>
      )}
      <div className="row g-2">
        <Field id="register-first-name" className="col-sm-6 mb-3" label="ชื่อ" autoComplete="given-name" maxLength={100} {...input('firstName')} />
        <Field id="register-last-name" className="col-sm-6 mb-3" label="นามสกุล" autoComplete="family-name" maxLength={100} {...input('lastName')} />
      </div>
      <Field
        id="register-email"
        label="อีเมล"
        type="email"
        autoComplete="email"
        maxLength={254}
        hint={availabilityHint(emailState, 'ใช้อีเมลนี้ได้')}
        {...input('email')}
        valid={valid('email') && emailState === 'available'}
      />
      {emailTaken && (
        <p className="small mt-n2 mb-3">
          เป็นสมาชิกอยู่แล้ว? <a href={withNextPath('/login', next)}>เข้าสู่ระบบ</a> หรือ <a href={withNextPath('/resetpassword', next)}>ลืมรหัสผ่าน</a>
        </p>
      )}
      <Field
        id="register-phone"
        label="เบอร์โทรศัพท์"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        maxLength={20}
        placeholder="เช่น 0812345678"
        hint={availabilityHint(phoneState, 'ใช้เบอร์นี้ได้')}
        {...input('phone')}
        valid={valid('phone') && phoneState === 'available'}
      />
      <Field
        id="register-password"
        label="รหัสผ่าน"
        type="password"
        autoComplete="new-password"
        hint="อย่างน้อย 8 ตัวอักษร ใช้ประโยคหรือหลายคำที่จำง่ายก็ได้"
        {...input('password')}
      />
      <Field id="register-confirm" label="ยืนยันรหัสผ่าน" type="password" autoComplete="new-password" {...input('confirmPassword')} />
      <div className="form-check mb-3">
        <input
          id="register-terms"
          className={`form-check-input${shown('acceptTerms') ? ' is-invalid' : ''}`}
          type="checkbox"
          name="acceptTerms"
          value="true"
          checked={values.acceptTerms}
          onChange={(event) => {
            change('acceptTerms', event.target.checked);
            touch('acceptTerms');
          }}
        />
        <label className="form-check-label" htmlFor="register-terms">
          ฉันยอมรับ
          <a href="/terms" target="_blank" rel="noopener">
            ข้อตกลงและเงื่อนไขการใช้บริการ
          </a>{' '}
          และ
          <a href="/privacy" target="_blank" rel="noopener">
            นโยบายความเป็นส่วนตัว
          </a>
          ของร้าน
        </label>
        {shown('acceptTerms') && <div className="invalid-feedback d-block">{shown('acceptTerms')}</div>}
      </div>
      <button type="submit" className="btn btn-success w-100" disabled={busy}>
        {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
        สมัครสมาชิก
      </button>
    </form>
  );
}
