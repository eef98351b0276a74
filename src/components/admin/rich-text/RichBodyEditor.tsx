import { Editor } from '@tiptap/core';
import { useEffect, useRef, useState } from 'react';
import { COMPANY_PLACEHOLDERS } from '../../../lib/content-schemas';
import { cleanPastedHtml } from './clean-paste';
import { contentExtensions, tidyMarkdown } from './extensions';
import { askForLink, askForPicture } from './dialogs';

/**
 * The rich-text body of a content page (issue 32, decision 199): TipTap on ProseMirror, holding only what
 * the shop's renderer publishes, and answering Markdown for the form's hidden `body` field on every change.
 * Part of the editor page's island only; the server renders the plain Markdown box it replaces, so the
 * page works before and without it.
 */
export interface RichBodyEditorProps {
  markdown: string;
  onChange: (markdown: string) => void;
}

interface ToolbarState {
  h2: boolean;
  h3: boolean;
  bold: boolean;
  italic: boolean;
  bullet: boolean;
  ordered: boolean;
  link: boolean;
  canUndo: boolean;
  canRedo: boolean;
}

function toolbarState(editor: Editor | null): ToolbarState {
  return {
    h2: editor?.isActive('heading', { level: 2 }) ?? false,
    h3: editor?.isActive('heading', { level: 3 }) ?? false,
    bold: editor?.isActive('bold') ?? false,
    italic: editor?.isActive('italic') ?? false,
    bullet: editor?.isActive('bulletList') ?? false,
    ordered: editor?.isActive('orderedList') ?? false,
    link: editor?.isActive('link') ?? false,
    canUndo: editor?.can().undo() ?? false,
    canRedo: editor?.can().redo() ?? false,
  };
}

function ToolButton({ label, active, disabled, onClick, className = '' }: { label: string; active?: boolean; disabled?: boolean; onClick: () => void; className?: string }) {
  return (
    <button
      type="button"
      className={`btn ${active ? 'btn-dark' : 'btn-outline-dark'} ${className}`}
      aria-pressed={active === undefined ? undefined : active}
      disabled={disabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {label}
    </button>
  );
}

export default function RichBodyEditor({ markdown, onChange }: RichBodyEditorProps) {
  // TipTap's core, not @tiptap/react: its React binding imports React in a way that made the bundler
  // move its helpers into a chunk of their own that every catalog page then loaded (decision 199).
  const host = useRef<HTMLDivElement>(null);
  const [initial] = useState(() => ({ markdown, onChange }));
  const [editor, setEditor] = useState<Editor | null>(null);
  const [state, setState] = useState<ToolbarState>(() => toolbarState(null));

  useEffect(() => {
    const instance = new Editor({
      element: host.current,
      extensions: contentExtensions(),
      content: initial.markdown,
      contentType: 'markdown',
      editorProps: {
        transformPastedHTML: cleanPastedHtml,
        attributes: {
          id: 'page-body',
          class: 'form-control page-rich-body content-body',
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': 'เนื้อหา',
          'data-testid': 'rich-body',
        },
      },
      onUpdate: ({ editor: current }) => initial.onChange(tidyMarkdown(current.getMarkdown())),
      onTransaction: ({ editor: current }) => setState(toolbarState(current)),
    });
    setEditor(instance);
    setState(toolbarState(instance));
    return () => instance.destroy();
  }, [initial]);

  async function link(): Promise<void> {
    if (!editor) return;
    const { from, to, empty } = editor.state.selection;
    const current = editor.getAttributes('link').href as string | undefined;
    const answer = await askForLink({ href: current ?? '', needsText: empty && !current });
    const chain = editor.chain().focus();
    if (!answer) {
      chain.run();
    } else if (answer.href === '') {
      chain.extendMarkRange('link').unsetLink().run();
    } else if (empty && !current) {
      chain.insertContent({ type: 'text', text: answer.text, marks: [{ type: 'link', attrs: { href: answer.href } }] }).run();
    } else {
      chain.setTextSelection({ from, to }).extendMarkRange('link').setLink({ href: answer.href }).run();
    }
  }

  async function picture(): Promise<void> {
    if (!editor) return;
    const answer = await askForPicture();
    const chain = editor.chain().focus();
    if (answer) chain.setImage({ src: `${answer.url}#${answer.width}x${answer.height}`, alt: answer.description });
    chain.run();
  }

  return (
    <div data-testid="rich-editor">
      <div className="btn-toolbar gap-1 mb-2 flex-wrap" role="toolbar" aria-label="เครื่องมือจัดรูปแบบ">
        <div className="btn-group btn-group-sm" role="group" aria-label="หัวข้อ">
          <ToolButton label="หัวข้อ" active={state.h2} onClick={() => editor?.chain().focus().toggleHeading({ level: 2 }).run()} />
          <ToolButton label="หัวข้อย่อย" active={state.h3} onClick={() => editor?.chain().focus().toggleHeading({ level: 3 }).run()} />
        </div>
        <div className="btn-group btn-group-sm" role="group" aria-label="ตัวอักษร">
          <ToolButton label="ตัวหนา" className="fw-bold" active={state.bold} onClick={() => editor?.chain().focus().toggleBold().run()} />
          <ToolButton label="ตัวเอียง" className="fst-italic" active={state.italic} onClick={() => editor?.chain().focus().toggleItalic().run()} />
        </div>
        <div className="btn-group btn-group-sm" role="group" aria-label="รายการ">
          <ToolButton label="• รายการ" active={state.bullet} onClick={() => editor?.chain().focus().toggleBulletList().run()} />
          <ToolButton label="1. ลำดับ" active={state.ordered} onClick={() => editor?.chain().focus().toggleOrderedList().run()} />
        </div>
        <div className="btn-group btn-group-sm" role="group" aria-label="แทรก">
          <ToolButton label="ลิงก์" active={state.link} onClick={() => void link()} />
          <ToolButton label="รูปภาพ" onClick={() => void picture()} />
        </div>
        <div className="btn-group btn-group-sm" role="group" aria-label="เลิกทำ">
          <ToolButton label="เลิกทำ" disabled={!state.canUndo} onClick={() => editor?.chain().focus().undo().run()} />
          <ToolButton label="ทำซ้ำ" disabled={!state.canRedo} onClick={() => editor?.chain().focus().redo().run()} />
        </div>
        <select
          className="form-select form-select-sm w-auto"
          aria-label="แทรกข้อมูลร้าน"
          value=""
          onChange={(event) => {
            const key = event.target.value;
            if (key) editor?.chain().focus().insertContent(`{{${key}}}`).run();
          }}
        >
          <option value="">แทรกข้อมูลร้าน…</option>
          {COMPANY_PLACEHOLDERS.map((item) => (
            <option key={item.key} value={item.key}>{item.label}</option>
          ))}
        </select>
      </div>
      <div ref={host} />
    </div>
  );
}
