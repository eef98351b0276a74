import { useState, type FormEvent } from 'react';
import { fieldErrors, profileSchema } from '../../lib/account-schemas';
import { $user } from '../../stores/auth';
import { callApi } from './api';
import Field from './Field';

export interface ProfileFormValue {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  birthday: string | null;
}

export default function ProfileForm({ profile }: { profile: ProfileFormValue }) {
  const [values, setValues] = useState({ firstName: profile.firstName, lastName: profile.lastName, phone: profile.phone, birthday: profile.birthday ?? '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ kind: 'success' | 'danger'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const today = new Date().toISOString().slice(0, 10);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    const parsed = profileSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await callApi<ProfileFormValue>('/api/user/profile', 'PUT', parsed.data);
    setBusy(false);
    if (result.ok && result.data) {
      const saved = result.data;
      setValues({ firstName: saved.firstName, lastName: saved.lastName, phone: saved.phone, birthday: saved.birthday ?? '' });
      const user = $user.get();
      if (user) $user.set({ ...user, firstName: saved.firstName, lastName: saved.lastName, phone: saved.phone });
      setMessage({ kind: 'success', text: 'บันทึกข้อมูลเรียบร้อยแล้ว' });
    } else {
      setErrors(result.fields);
      setMessage({ kind: 'danger', text: result.message });
    }
  }

  const set = (key: keyof typeof values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [key]: event.target.value }));

  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="card card-body" aria-label="ข้อมูลของฉัน">
      {message && (
        <div className={`alert alert-${message.kind} py-2`} role={message.kind === 'success' ? 'status' : 'alert'}>
          {message.text}
        </div>
      )}
      <div className="mb-3">
        <label className="form-label" htmlFor="profile-email">
          อีเมล
        </label>
        <input id="profile-email" className="form-control-plaintext" readOnly value={profile.email} />
      </div>
      <div className="row g-2">
        <Field id="profile-first-name" className="col-sm-6 mb-3" label="ชื่อ" name="firstName" autoComplete="given-name" maxLength={100} value={values.firstName} error={errors.firstName} onChange={set('firstName')} />
        <Field id="profile-last-name" className="col-sm-6 mb-3" label="นามสกุล" name="lastName" autoComplete="family-name" maxLength={100} value={values.lastName} error={errors.lastName} onChange={set('lastName')} />
      </div>
      <div className="row g-2">
        <Field id="profile-phone" className="col-sm-6 mb-3" label="เบอร์โทรศัพท์" name="phone" type="tel" inputMode="tel" autoComplete="tel" maxLength={20} value={values.phone} error={errors.phone} onChange={set('phone')} />
        <Field id="profile-birthday" className="col-sm-6 mb-3" label="วันเกิด" name="birthday" type="date" min="1900-01-01" max={today} value={values.birthday} error={errors.birthday} onChange={set('birthday')} />
      </div>
      <div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          บันทึก
        </button>
      </div>
    </form>
  );
}
