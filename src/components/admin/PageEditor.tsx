import { Component, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { pageDraftSchema } from '../../lib/content-schemas';
import RichBodyEditor from './rich-text/RichBodyEditor';
import './rich-text/rich-body.css';

/**
 * The content page editor (docs/design.md section 12): a rich-text editor with a Thai toolbar (TipTap,
 * decision 199) whose content is the same Markdown the shop renders, and a live preview rendered by the
 * server's own renderer and sanitiser (POST /admin/pages/preview), shown at phone or desktop width. The
 * server renders a plain Markdown text box, so without JavaScript (or before the editor has loaded) the
 * page is edited as before; the form is a plain POST either way.
 */
export interface PageEditorProps {
  slug: string;
  title: string;
  description: string;
  body: string;
  inFooter: boolean;
  /** The preview as the server rendered it for the first paint. */
  initialHtml: string;
}

type Width = 'phone' | 'desktop';


/** The Markdown box without a name of its own: the hidden `body` field carries the text while it shows. */
function PlainBody({ value, onChange, label }: { value: string; onChange?: (value: string) => void; label: string }) {
  return (
    <textarea
      className="form-control page-editor-body"
      rows={18}
      value={value}
      readOnly={!onChange}
      aria-label={label}
      onChange={(e) => onChange?.(e.target.value)}
    />
  );
}

/** If the rich-text editor fails, the page keeps working as a Markdown box. */
class RichEditorBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export default function PageEditor(props: PageEditorProps) {
  const [title, setTitle] = useState(props.title);
  const [description, setDescription] = useState(props.description);
  const [body, setBody] = useState(props.body);
  const [inFooter, setInFooter] = useState(props.inFooter);
  const [html, setHtml] = useState(props.initialHtml);
  const [width, setWidth] = useState<Width>('desktop');
  const [previewState, setPreviewState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const [error, setError] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  /** False on the server and in the first paint, so the page starts as the plain text box it is without JavaScript. */
  const [rich, setRich] = useState(false);
  const submitting = useRef(false);

  useEffect(() => setRich(true), []);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setPreviewState('loading');
      try {
        const response = await fetch('/admin/pages/preview', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ body }),
          signal: controller.signal,
        });
        const json = (await response.json()) as { data?: { html: string }; message?: string };
        if (!response.ok || !json.data) throw new Error(json.message ?? 'preview failed');
        setHtml(json.data.html);
        setPreviewState('idle');
      } catch (cause) {
        if (!controller.signal.aborted) setPreviewState('failed');
        void cause;
      }
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [body]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!submitting.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const result = pageDraftSchema.safeParse({ title, description, body, inFooter });
    if (!result.success) {
      event.preventDefault();
      setError(result.error.issues[0]?.message ?? 'ข้อมูลไม่ถูกต้อง');
      return;
    }
    submitting.current = true;
  }

  const change = <T,>(setter: (value: T) => void) => (value: T) => {
    setter(value);
    setDirty(true);
  };

  return (
    <div className="row g-3 page-editor" data-testid="page-editor">
      <div className="col-12 col-xl-6">
        <form method="post" action={`/admin/pages/${props.slug}/save`} onSubmit={onSubmit} className="bg-white rounded-3 shadow-sm p-3" id="page-form">
          {error && (
            <div className="alert alert-danger py-2" role="alert">
              {error}
            </div>
          )}
          <div className="mb-2">
            <label className="form-label" htmlFor="page-title">ชื่อหน้า</label>
            <input className="form-control" id="page-title" name="title" value={title} maxLength={120} required onChange={(e) => change(setTitle)(e.target.value)} />
          </div>
          <div className="mb-2">
            <label className="form-label" htmlFor="page-description">คำอธิบายสั้น (แสดงใน Google)</label>
            <input className="form-control" id="page-description" name="description" value={description} maxLength={300} onChange={(e) => change(setDescription)(e.target.value)} />
          </div>
          {rich ? (
            <>
              <input type="hidden" name="body" value={body} />
              <RichEditorBoundary fallback={<PlainBody value={body} onChange={change(setBody)} label="เนื้อหา (Markdown)" />}>
                <RichBodyEditor markdown={body} onChange={change(setBody)} />
              </RichEditorBoundary>
            </>
          ) : (
            <>
              <label className="form-label visually-hidden" htmlFor="page-body">เนื้อหา</label>
              <textarea className="form-control page-editor-body" id="page-body" name="body" rows={18} value={body} onChange={(e) => change(setBody)(e.target.value)} />
            </>
          )}
          <p className="form-text small mb-2">
            {rich ? 'ข้อความในวงเล็บปีกกา เช่น {{phone}} จะแสดงเป็นข้อมูลร้านจริง (แก้ที่ ตั้งค่าร้าน)' : 'เขียนแบบ Markdown: ## หัวข้อ, - รายการ, [ข้อความ](ลิงก์) ข้อความในวงเล็บปีกกา เช่น {{phone}} จะแสดงเป็นข้อมูลร้านจริง'}
          </p>
          <div className="form-check mb-3">
            <input className="form-check-input" type="checkbox" id="page-footer" name="inFooter" checked={inFooter} onChange={(e) => change(setInFooter)(e.target.checked)} />
            <label className="form-check-label" htmlFor="page-footer">แสดงลิงก์ที่ท้ายเว็บ</label>
          </div>
          <div className="d-flex flex-wrap gap-2">
            <button className="btn btn-outline-primary" type="submit" name="intent" value="draft">บันทึกร่าง</button>
            <button className="btn btn-success" type="submit" name="intent" value="publish">เผยแพร่</button>
          </div>
        </form>
      </div>
      <div className="col-12 col-xl-6">
        <section className="bg-white rounded-3 shadow-sm p-3 h-100" aria-labelledby="preview-heading">
          <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
            <h2 className="h6 mb-0 me-auto" id="preview-heading">ตัวอย่างที่ลูกค้าจะเห็น</h2>
            <div className="btn-group btn-group-sm" role="group" aria-label="ขนาดหน้าจอตัวอย่าง">
              <button type="button" className={`btn ${width === 'phone' ? 'btn-dark' : 'btn-outline-dark'}`} aria-pressed={width === 'phone'} onClick={() => setWidth('phone')}>มือถือ</button>
              <button type="button" className={`btn ${width === 'desktop' ? 'btn-dark' : 'btn-outline-dark'}`} aria-pressed={width === 'desktop'} onClick={() => setWidth('desktop')}>คอมพิวเตอร์</button>
            </div>
          </div>
          <p className="small text-secondary mb-2" aria-live="polite">
            {previewState === 'loading' ? 'กำลังอัปเดตตัวอย่าง…' : previewState === 'failed' ? 'อัปเดตตัวอย่างไม่สำเร็จ ลองพิมพ์อีกครั้ง' : '\u00a0'}
          </p>
          <div className={`page-preview-frame page-preview-${width} mx-auto`} data-testid="page-preview" data-width={width}>
            <article className="content-page p-3">
              <h1 className="h3 mb-3">{title}</h1>
              <div className="content-body" dangerouslySetInnerHTML={{ __html: html }} />
            </article>
          </div>
        </section>
      </div>
    </div>
  );
}
