import { useState, type FormEvent } from 'react';
import { setUser } from '../../stores/auth';
import { callApi } from './api';
import Field from './Field';

/**
 * issue 29: the member's PDPA rights on /user/account/profile: download their data (JSON) and close
 * their account (password again, a ticked confirmation, then one last question).
 */
export default function AccountData() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  async function close(event: FormEvent) {
    event.preventDefault();
    setMessage('');
    const missing: Record<string, string> = {};
    if (!password) missing.password = 'กรุณากรอกรหัสผ่าน';
    if (!confirm) missing.confirm = 'กรุณาติ๊กยืนยันว่าต้องการปิดบัญชี';
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    const { default: Swal } = await import('sweetalert2');
    const answer = await Swal.fire({
      title: 'ปิดบัญชีถาวร ?',
      text: 'ข้อมูลส่วนตัว สมุดที่อยู่ และการเข้าสู่ระบบทั้งหมดจะถูกลบ คุณจะไม่สามารถย้อนกลับได้ !',
      icon: 'warning',
      showCancelButton: true,
      confirmButtonText: 'ปิดบัญชี',
      cancelButtonText: 'ยกเลิก',
      confirmButtonColor: '#dc3545',
      focusCancel: true,
    });
    if (!answer.isConfirmed) return;
    setBusy(true);
    const result = await callApi<{ message: string }>('/api/user/close', 'POST', { password, confirm });
    setBusy(false);
    if (result.ok) {
      setUser(null);
      // The saved cart went with the account; the copy in this browser goes too.
      const { endMemberCartSync } = await import('../../stores/member-cart-sync');
      await endMemberCartSync({ send: false });
      await Swal.fire({ title: 'ปิดบัญชีแล้ว', text: result.data?.message ?? 'ปิดบัญชีเรียบร้อยแล้ว', icon: 'success', confirmButtonText: 'ตกลง' });
      window.location.assign('/');
      return;
    }
    setErrors(result.fields);
    setMessage(result.message);
  }

  return (
    <div className="d-grid gap-4 mt-4 account-data">
      <section aria-labelledby="my-data-title">
        <h2 className="h5" id="my-data-title">
          ข้อมูลส่วนบุคคลของฉัน
        </h2>
        <p className="small text-secondary mb-2">
          ดาวน์โหลดสำเนาข้อมูลที่ร้านเก็บไว้ (โปรไฟล์ สมุดที่อยู่ คำสั่งซื้อ ใบเสนอราคา และประวัติการเข้าสู่ระบบ) เป็นไฟล์ JSON อ่านเพิ่มเติมที่
          <a href="/privacy">นโยบายความเป็นส่วนตัว</a>
        </p>
        <a className="btn btn-outline-primary" href="/api/user/data" download>
          ดาวน์โหลดข้อมูลของฉัน (JSON)
        </a>
      </section>
      <section aria-labelledby="close-account-title" className="border border-danger rounded p-3">
        <h2 className="h5 text-danger" id="close-account-title">
          ปิดบัญชี
        </h2>
        <p className="small mb-2">
          เมื่อปิดบัญชี ร้านจะลบชื่อ อีเมล เบอร์โทรศัพท์ สมุดที่อยู่ และออกจากระบบทุกอุปกรณ์ คำสั่งซื้อและใบกำกับภาษีจะถูกเก็บไว้ตามที่กฎหมายกำหนด โดยไม่มีชื่อและที่อยู่ของคุณ
          (ใบกำกับภาษีเต็มรูปที่ขอไว้ยังคงมีข้อมูลผู้ซื้อตามกฎหมาย) ปิดบัญชีได้เมื่อไม่มีคำสั่งซื้อที่ยังไม่เสร็จสิ้น
        </p>
        <form onSubmit={(event) => void close(event)} noValidate>
          <Field
            id="close-password"
            label="รหัสผ่านของคุณ"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={errors.password}
          />
          <div className="form-check mb-3">
            <input
              id="close-confirm"
              className={`form-check-input${errors.confirm ? ' is-invalid' : ''}`}
              type="checkbox"
              checked={confirm}
              onChange={(event) => setConfirm(event.target.checked)}
            />
            <label className="form-check-label" htmlFor="close-confirm">
              ฉันเข้าใจว่าการปิดบัญชีย้อนกลับไม่ได้
            </label>
            {errors.confirm && <div className="invalid-feedback d-block">{errors.confirm}</div>}
          </div>
          {message && (
            <div className="alert alert-danger py-2" role="alert">
              {message}
            </div>
          )}
          <button type="submit" className="btn btn-outline-danger" disabled={busy}>
            ปิดบัญชีของฉัน
          </button>
        </form>
      </section>
    </div>
  );
}
