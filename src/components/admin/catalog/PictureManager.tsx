import { useRef, useState, type DragEvent } from 'react';
import { pictureAtLeast } from '../../../lib/pictures';

export interface PictureValue {
  url: string;
  alt: string;
  width: number | null;
  height: number | null;
}

interface Props {
  initial: PictureValue[];
  max: number;
}

const TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/heic', 'image/heif'];
const MAX_BYTES = 15 * 1024 * 1024;

/**
 * The product's pictures inside the product form: drop several files (or pick them with the phone's
 * camera or photo library), see them stored at once, reorder, describe (alt text) and remove. What the
 * form posts are hidden fields in order (picture_url/alt/width/height). Before this island wakes up the
 * same fields are rendered by the server, with a plain file input, so the form works without JavaScript.
 */
export default function PictureManager({ initial, max }: Props) {
  const [pictures, setPictures] = useState<PictureValue[]>(initial);
  const [busy, setBusy] = useState(0);
  const [error, setError] = useState('');
  const [over, setOver] = useState(false);
  const [dragged, setDragged] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);

  async function upload(files: File[]) {
    setError('');
    const room = max - pictures.length;
    if (room <= 0) return setError(`รูปสินค้ามีได้ไม่เกิน ${max} รูป`);
    const chosen = files.slice(0, room);
    for (const file of chosen) {
      if (file.size > MAX_BYTES) return setError(`${file.name}: ไฟล์รูปภาพต้องมีขนาดไม่เกิน 15 MB`);
      if (file.type && !TYPES.includes(file.type)) return setError(`${file.name}: ไฟล์นี้ไม่ใช่รูปภาพที่รองรับ`);
    }
    setBusy(chosen.length);
    for (const file of chosen) {
      const body = new FormData();
      body.append('files', file);
      try {
        const response = await fetch('/api/admin/products/pictures', { method: 'POST', body, headers: { Accept: 'application/json' }, credentials: 'same-origin' });
        const answer = (await response.json().catch(() => ({}))) as { data?: { url: string; width: number; height: number }[]; message?: string };
        if (!response.ok || !answer.data) {
          setError(`${file.name}: ${answer.message ?? 'อัปโหลดไม่สำเร็จ'}`);
        } else {
          const stored = answer.data.map((picture) => ({ url: picture.url, alt: '', width: picture.width, height: picture.height }));
          setPictures((current) => [...current, ...stored].slice(0, max));
        }
      } catch {
        setError('เชื่อมต่อไม่สำเร็จ กรุณาลองใหม่');
      }
      setBusy((count) => count - 1);
    }
    if (input.current) input.current.value = '';
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    if (dragged !== null) return;
    void upload([...event.dataTransfer.files]);
  }

  function move(from: number, to: number) {
    if (to < 0 || to >= pictures.length || from === to) return;
    setPictures((current) => {
      const next = [...current];
      const [item] = next.splice(from, 1);
      next.splice(to, 0, item as PictureValue);
      return next;
    });
  }

  return (
    <div className="picture-manager" data-testid="picture-manager">
      <div
        className={`picture-drop border border-2 border-dashed rounded-3 p-3 text-center ${over ? 'border-success bg-success-subtle' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          if (dragged === null) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p className="mb-2 small">ลากรูปมาวางที่นี่ หรือ</p>
        <label className="btn btn-outline-dark btn-sm" htmlFor="picture-files">
          เลือกรูป / ถ่ายรูป
        </label>
        <input
          ref={input}
          id="picture-files"
          type="file"
          accept="image/*"
          multiple
          className="visually-hidden"
          onChange={(event) => void upload([...(event.target.files ?? [])])}
        />
        <p className="form-text mb-0">JPEG, PNG, WebP, HEIC ไม่เกิน 15 MB ต่อรูป สูงสุด {max} รูป รูปแรกคือรูปหลัก</p>
        {busy > 0 && (
          <p className="small mt-2 mb-0" role="status">
            <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            กำลังอัปโหลด {busy} รูป…
          </p>
        )}
      </div>
      {error && (
        <div className="alert alert-danger py-2 small mt-2" role="alert">
          {error}
        </div>
      )}
      <ol className="list-unstyled row g-2 mt-1 mb-0" aria-label="รูปสินค้า">
        {pictures.map((picture, index) => (
          <li
            key={picture.url}
            className="col-6 col-sm-4 col-xl-3"
            draggable
            onDragStart={() => setDragged(index)}
            onDragEnd={() => setDragged(null)}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => {
              event.preventDefault();
              if (dragged !== null) move(dragged, index);
              setDragged(null);
            }}
          >
            <div className="card h-100">
              <img src={pictureAtLeast(picture.url, 320)} alt={picture.alt || `รูปที่ ${index + 1}`} width={160} height={160} className="card-img-top picture-thumb" />
              <div className="card-body p-2">
                {index === 0 && <span className="badge text-bg-success mb-1">รูปหลัก</span>}
                <input type="hidden" name="picture_url" value={picture.url} />
                <input type="hidden" name="picture_width" value={picture.width ?? ''} />
                <input type="hidden" name="picture_height" value={picture.height ?? ''} />
                <label className="visually-hidden" htmlFor={`picture-alt-${index}`}>
                  คำอธิบายรูปที่ {index + 1}
                </label>
                <input
                  id={`picture-alt-${index}`}
                  name="picture_alt"
                  className="form-control form-control-sm"
                  placeholder="คำอธิบายรูป (alt)"
                  value={picture.alt}
                  maxLength={200}
                  onChange={(event) => {
                    const alt = event.target.value;
                    setPictures((current) => current.map((item, at) => (at === index ? { ...item, alt } : item)));
                  }}
                />
                <div className="btn-group btn-group-sm w-100 mt-1" role="group" aria-label={`จัดการรูปที่ ${index + 1}`}>
                  <button type="button" className="btn btn-outline-secondary" onClick={() => move(index, index - 1)} disabled={index === 0} aria-label={`เลื่อนรูปที่ ${index + 1} ขึ้น`}>
                    ←
                  </button>
                  <button type="button" className="btn btn-outline-secondary" onClick={() => move(index, index + 1)} disabled={index === pictures.length - 1} aria-label={`เลื่อนรูปที่ ${index + 1} ลง`}>
                    →
                  </button>
                  <button type="button" className="btn btn-outline-danger" onClick={() => setPictures((current) => current.filter((_, at) => at !== index))} aria-label={`ลบรูปที่ ${index + 1}`}>
                    ลบ
                  </button>
                </div>
              </div>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
