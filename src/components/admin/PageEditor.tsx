import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { COMPANY_PLACEHOLDERS, pageDraftSchema } from '../../lib/content-schemas';

/**
 * The content page editor (docs/design.md section 12): a Markdown text box with a Thai toolbar, so an editor
 * never has to know the syntax, and a live preview rendered by the server's own renderer and sanitiser
 * (POST /admin/pages/preview), shown at phone or desktop width. The form is a plain POST, so it saves
 * even before this island hydrates.
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

interface Edit {
  text: string;
  selectionStart: number;
  selectionEnd: number;
}

/** Wraps the selection (or a placeholder word) in `before`/`after`. */
function wrap(edit: Edit, before: string, after: string, placeholder: string): Edit {
  const { text, selectionStart: start, selectionEnd: end } = edit;
  const selected = text.slice(start, end) || placeholder;
  const next = text.slice(0, start) + before + selected + after + text.slice(end);
  return { text: next, selectionStart: start + before.length, selectionEnd: start + before.length + selected.length };
}

/** Puts `prefix` at the start of every selected line (headings, lists); numbered lists count up. */
function prefixLines(edit: Edit, prefix: (index: number) => string, placeholder: string): Edit {
  const { text, selectionStart, selectionEnd } = edit;
  const lineStart = text.lastIndexOf('\n', selectionStart - 1) + 1;
  const nextBreak = text.indexOf('\n', selectionEnd);
  const lineEnd = nextBreak === -1 ? text.length : nextBreak;
  const original = text.slice(lineStart, lineEnd);
  const block = original || placeholder;
  const replaced = block
    .split('\n')
    .map((line, index) => prefix(index) + line.replace(/^(#{1,6}\s+|[-*]\s+|\d+\.\s+)/, ''))
    .join('\n');
  // A block element needs a blank line before it to start a new block in Markdown.
  const needsGap = lineStart > 0 && text.slice(0, lineStart).trimEnd().length > 0 && !text.slice(0, lineStart).endsWith('\n\n');
  const lead = needsGap ? '\n' : '';
  const next = text.slice(0, lineStart) + lead + replaced + text.slice(lineEnd);
  const start = lineStart + lead.length;
  // On an empty line the placeholder word is selected, so typing replaces it and keeps the "## " or "- ".
  if (!original) return { text: next, selectionStart: start + prefix(0).length, selectionEnd: start + replaced.length };
  return { text: next, selectionStart: start + replaced.length, selectionEnd: start + replaced.length };
}

function insertAt(edit: Edit, snippet: string): Edit {
  const { text, selectionStart: start, selectionEnd: end } = edit;
  return { text: text.slice(0, start) + snippet + text.slice(end), selectionStart: start + snippet.length, selectionEnd: start + snippet.length };
}

/**
 * Enter inside a list item starts the next item ("- " or the next number), as in a word processor;
 * Enter on an empty item ends the list. Returns null when Enter should behave as usual.
 */
export function continueList(edit: Edit): Edit | null {
  const { text, selectionStart, selectionEnd } = edit;
  if (selectionStart !== selectionEnd) return null;
  const lineStart = text.lastIndexOf('\n', selectionStart - 1) + 1;
  const line = text.slice(lineStart, selectionStart);
  const match = /^(\s*)([-*]|(\d+)\.)\s+(.*)$/.exec(line);
  if (!match) return null;
  const [, indent = '', marker = '', number, rest = ''] = match;
  if (rest.trim() === '') {
    const next = text.slice(0, lineStart) + text.slice(selectionStart);
    return { text: next, selectionStart: lineStart, selectionEnd: lineStart };
  }
  const bullet = number ? `${Number(number) + 1}.` : marker;
  return insertAt(edit, `\n${indent}${bullet} `);
}

export default function PageEditor(props: PageEditorProps) {
  const [title, setTitle] = useState(props.title);
  const [description, setDescription] = useState(props.description);
  const [body, setBody] = useState(props.body);
  const [inFooter, setInFooter] = useState(props.inFooter);
  const [html, setHtml] = useState(props.initialHtml);
  const [width, setWidth] = useState<Width>('desktop');
  const [previewState, setPreviewState] = useState<'idle' | 'loading' | 'failed'>('idle');
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const submitting = useRef(false);
  /** Where the cursor goes after a toolbar change, set right after React writes the new text. */
  const pendingSelection = useRef<{ start: number; end: number } | null>(null);

  useLayoutEffect(() => {
    const element = textarea.current;
    const selection = pendingSelection.current;
    if (!element || !selection) return;
    pendingSelection.current = null;
    element.focus();
    element.setSelectionRange(selection.start, selection.end);
  }, [body]);

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

  function apply(change: (edit: Edit) => Edit) {
    const element = textarea.current;
    if (!element) return;
    const next = change({ text: element.value, selectionStart: element.selectionStart, selectionEnd: element.selectionEnd });
    pendingSelection.current = { start: next.selectionStart, end: next.selectionEnd };
    setBody(next.text);
    setDirty(true);
  }

  async function addLink() {
    const { default: Swal } = await import('sweetalert2');
    const result = await Swal.fire({
      title: 'ใส่ลิงก์',
      input: 'url',
      inputLabel: 'ที่อยู่เว็บ (เช่น https://… หรือ /product)',
      inputPlaceholder: 'https://',
      showCancelButton: true,
      confirmButtonText: 'ตกลง',
      cancelButtonText: 'ยกเลิก',
      inputValidator: (value) => (/^(https?:\/\/|\/|mailto:|tel:)/i.test(value.trim()) ? null : 'ลิงก์ต้องขึ้นต้นด้วย https:// หรือ /'),
    });
    if (!result.isConfirmed || typeof result.value !== 'string') return;
    const url = result.value.trim().replace(/[()\s]/g, (ch) => encodeURIComponent(ch));
    apply((edit) => wrap(edit, '[', `](${url})`, 'ข้อความลิงก์'));
  }

  async function uploadPicture(file: File) {
    setUploading(true);
    setError(null);
    try {
      const form = new FormData();
      form.set('file', file);
      const response = await fetch('/admin/uploads?folder=pages', { method: 'POST', body: form });
      const json = (await response.json()) as { data?: { url: string; width: number; height: number }; message?: string };
      if (!response.ok || !json.data) throw new Error(json.message ?? 'อัปโหลดรูปไม่สำเร็จ');
      const alt = file.name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '') || 'รูปภาพ';
      const { url, width: w, height: h } = json.data;
      apply((edit) => insertAt(edit, `\n\n![${alt}](${url}#${w}x${h})\n\n`));
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'อัปโหลดรูปไม่สำเร็จ');
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

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
          <div className="btn-toolbar gap-1 mb-2 flex-wrap" role="toolbar" aria-label="เครื่องมือจัดรูปแบบ">
            <div className="btn-group btn-group-sm" role="group" aria-label="หัวข้อ">
              <button type="button" className="btn btn-outline-dark" onClick={() => apply((e) => prefixLines(e, () => '## ', 'หัวข้อ'))}>หัวข้อ</button>
              <button type="button" className="btn btn-outline-dark" onClick={() => apply((e) => prefixLines(e, () => '### ', 'หัวข้อย่อย'))}>หัวข้อย่อย</button>
            </div>
            <div className="btn-group btn-group-sm" role="group" aria-label="ตัวอักษร">
              <button type="button" className="btn btn-outline-dark fw-bold" onClick={() => apply((e) => wrap(e, '**', '**', 'ตัวหนา'))}>ตัวหนา</button>
              <button type="button" className="btn btn-outline-dark fst-italic" onClick={() => apply((e) => wrap(e, '*', '*', 'ตัวเอียง'))}>ตัวเอียง</button>
            </div>
            <div className="btn-group btn-group-sm" role="group" aria-label="รายการ">
              <button type="button" className="btn btn-outline-dark" onClick={() => apply((e) => prefixLines(e, () => '- ', 'รายการ'))}>• รายการ</button>
              <button type="button" className="btn btn-outline-dark" onClick={() => apply((e) => prefixLines(e, (i) => `${i + 1}. `, 'ขั้นตอน'))}>1. ลำดับ</button>
            </div>
            <div className="btn-group btn-group-sm" role="group" aria-label="แทรก">
              <button type="button" className="btn btn-outline-dark" onClick={() => void addLink()}>ลิงก์</button>
              <button type="button" className="btn btn-outline-dark" disabled={uploading} onClick={() => fileInput.current?.click()}>
                {uploading ? 'กำลังอัปโหลด…' : 'รูปภาพ'}
              </button>
            </div>
            <select
              className="form-select form-select-sm w-auto"
              aria-label="แทรกข้อมูลร้าน"
              value=""
              onChange={(e) => {
                const key = e.target.value;
                if (key) apply((edit) => insertAt(edit, `{{${key}}}`));
              }}
            >
              <option value="">แทรกข้อมูลร้าน…</option>
              {COMPANY_PLACEHOLDERS.map((item) => (
                <option key={item.key} value={item.key}>{item.label}</option>
              ))}
            </select>
            <input
              ref={fileInput}
              type="file"
              accept="image/*"
              className="d-none"
              aria-label="เลือกรูปภาพ"
              data-testid="picture-input"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void uploadPicture(file);
              }}
            />
          </div>
          <label className="form-label visually-hidden" htmlFor="page-body">เนื้อหา</label>
          <textarea
            ref={textarea}
            className="form-control page-editor-body"
            id="page-body"
            name="body"
            rows={18}
            value={body}
            onChange={(e) => change(setBody)(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
              const element = e.currentTarget;
              const next = continueList({ text: element.value, selectionStart: element.selectionStart, selectionEnd: element.selectionEnd });
              if (!next) return;
              e.preventDefault();
              apply(() => next);
            }}
          />
          <p className="form-text small mb-2">
            ข้อความในวงเล็บปีกกา เช่น {'{{phone}}'} จะแสดงเป็นข้อมูลร้านจริง (แก้ที่ ตั้งค่าร้าน)
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
