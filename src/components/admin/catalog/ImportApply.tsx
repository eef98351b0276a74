import { useState, type FormEvent } from 'react';

interface Props {
  token: string;
  rows: number;
  good: number;
}

/**
 * Applies a checked import with a progress bar: the server streams a line per thousand rows. Without
 * JavaScript the same form posts normally and the page comes back with the result.
 */
export default function ImportApply({ token, rows, good }: Props) {
  const [done, setDone] = useState<number | null>(null);
  const [error, setError] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError('');
    setDone(0);
    const body = new FormData();
    body.set('file', token);
    try {
      const response = await fetch('/api/admin/import/apply', { method: 'POST', body, headers: { Accept: 'application/x-ndjson, application/json' }, credentials: 'same-origin' });
      if (!response.ok || !response.body) {
        const answer = (await response.json().catch(() => ({}))) as { message?: string };
        setError(answer.message ?? 'นำเข้าไม่สำเร็จ');
        setDone(null);
        return;
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += value;
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const line = JSON.parse(buffer.slice(0, newline)) as { done?: number; error?: string; location?: string };
          buffer = buffer.slice(newline + 1);
          if (typeof line.done === 'number') setDone(line.done);
          if (line.error) {
            setError(line.error);
            setDone(null);
          }
          if (line.location) window.location.assign(line.location);
          newline = buffer.indexOf('\n');
        }
      }
    } catch {
      setError('เชื่อมต่อไม่สำเร็จ ไม่มีข้อมูลใดถูกเปลี่ยน กรุณาลองใหม่');
      setDone(null);
    }
  }

  const percent = done === null || rows === 0 ? 0 : Math.round((done / rows) * 100);
  return (
    <form method="post" action="/api/admin/import/apply" onSubmit={(event) => void submit(event)}>
      <input type="hidden" name="file" value={token} />
      <button type="submit" className="btn btn-success" disabled={done !== null || good === 0}>
        นำเข้า {good.toLocaleString('th-TH')} รายการ
      </button>
      {done !== null && (
        <div className="mt-3">
          <div className="progress" role="progressbar" aria-label="ความคืบหน้าการนำเข้า" aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100}>
            <div className="progress-bar bg-success" style={{ width: `${percent}%` }}>
              {percent}%
            </div>
          </div>
          <p className="small mt-1" role="status">
            นำเข้าแล้ว {done.toLocaleString('th-TH')} จาก {rows.toLocaleString('th-TH')} แถว…
          </p>
        </div>
      )}
      {error && (
        <div className="alert alert-danger mt-2" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}
