import { useState, type FormEvent } from 'react';

interface Props {
  orderNo: string;
  hasSlip: boolean;
}

const MAX_BYTES = 5 * 1024 * 1024;
const TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** Sends the payment slip; the server checks the content again and has the final word. */
export default function SlipUpload({ orderNo, hasSlip }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);

  function choose(selected: File | null) {
    setError('');
    setFile(null);
    if (!selected) return;
    if (selected.size > MAX_BYTES) return setError('ไฟล์สลิปต้องมีขนาดไม่เกิน 5 MB');
    if (selected.type && !TYPES.includes(selected.type)) return setError('ไฟล์สลิปต้องเป็นรูปภาพ JPEG, PNG หรือ WebP เท่านั้น');
    setFile(selected);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return setError('กรุณาเลือกไฟล์สลิปการโอนเงิน');
    setSending(true);
    setError('');
    const form = new FormData();
    form.set('no', orderNo);
    form.set('slip', file);
    try {
      const response = await fetch('/api/order-slip', { method: 'POST', body: form, credentials: 'same-origin', headers: { Accept: 'application/json' } });
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      if (response.ok) {
        window.location.assign(`/order/success?no=${encodeURIComponent(orderNo)}`);
        return;
      }
      setError(body.message ?? 'อัปโหลดสลิปไม่สำเร็จ กรุณาลองใหม่');
    } catch {
      setError('เชื่อมต่อไม่สำเร็จ กรุณาลองใหม่');
    }
    setSending(false);
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="slip-upload needs-js" noValidate>
      {hasSlip && <div className="alert alert-info py-2 small">ได้รับสลิปแล้ว กำลังรอร้านค้าตรวจสอบ หากแนบผิดสามารถแนบใหม่ได้</div>}
      <label htmlFor="slip-file" className="form-label">
        แนบสลิปการโอนเงิน <span className="small text-secondary">(JPEG, PNG หรือ WebP ไม่เกิน 5 MB)</span>
      </label>
      <input
        id="slip-file"
        name="slip"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        className={`form-control ${error ? 'is-invalid' : ''}`}
        onChange={(event) => choose(event.target.files?.[0] ?? null)}
        aria-describedby="slip-error"
      />
      <div id="slip-error" className="invalid-feedback" role="alert">
        {error}
      </div>
      <button type="submit" className="btn btn-success w-100 mt-2" disabled={sending}>
        {sending ? 'กำลังอัปโหลด…' : 'ส่งสลิปการโอนเงิน'}
      </button>
    </form>
  );
}
