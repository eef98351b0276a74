// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Editor } from '@tiptap/core';
import { MarkdownManager } from '@tiptap/markdown';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanPastedHtml } from '../../src/components/admin/rich-text/clean-paste';
import { contentExtensions, isAllowedLink, tidyMarkdown } from '../../src/components/admin/rich-text/extensions';
import { pictureDescriptionError } from '../../src/lib/content-schemas';
import { renderMarkdown } from '../../src/server/content/markdown';
import type { CompanyInfo } from '../../src/lib/types';
import { GOOGLE_DOCS_HTML, WORD_HTML } from '../fixtures/office-paste';

/**
 * Issue 32, screen 7: the rich-text editor stores the same Markdown the shop renders (decision 199). Its
 * conversions are checked here without a browser: every seeded page survives the trip into the editor and
 * back to the same HTML for the shopper, headings land on the levels pages use, and a paste from Word or
 * Google Docs comes out as clean Markdown.
 */

const company = {
  name: 'ร้านทดสอบ',
  nameEn: 'Test',
  phone: '081-234-5678',
  lineId: '@shop',
  email: 'shop@example.test',
  address: 'กรุงเทพฯ',
  mapUrl: 'https://maps.example/?q=1',
  facebookUrl: 'https://facebook.example/shop',
  openingHours: 'ทุกวัน 09:00–18:00',
  tagline: '',
} as CompanyInfo;

const manager = new MarkdownManager({ extensions: contentExtensions(), markedOptions: { gfm: true } });
const roundTrip = (markdown: string) => tidyMarkdown(manager.serialize(manager.parse(markdown)));

const SEEDS = join(import.meta.dirname, '../../src/content/pages');

let editor: Editor | undefined;
afterEach(() => {
  editor?.destroy();
  editor = undefined;
});

function pasteInto(html: string): string {
  editor = new Editor({
    element: document.createElement('div'),
    extensions: contentExtensions(),
    editorProps: { transformPastedHTML: cleanPastedHtml },
  });
  editor.view.pasteHTML(html);
  return tidyMarkdown(editor.getMarkdown());
}

describe('the editor keeps what the shop renders', () => {
  it('every seeded page goes into the editor and back to the same HTML for the shopper', () => {
    const files = readdirSync(SEEDS).filter((file) => file.endsWith('.md'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const body = readFileSync(join(SEEDS, file), 'utf8').replace(/^---[\s\S]*?---\n/, '');
      expect(renderMarkdown(roundTrip(body), company), file).toBe(renderMarkdown(body, company));
    }
  });

  it('keeps pictures with their size, links to the shop, phone links with placeholders, lists, quotes and rules', () => {
    const body = [
      '## หัวข้อ',
      '### หัวข้อย่อย',
      '![หน้าร้านยามเช้า](/media/pages/0123456789abcdef01234567-1280.webp#1280x853)',
      'ข้อความ **หนา** *เอียง* ~~ขีดฆ่า~~ [สินค้า](/product) [โทรหาเรา](tel:{{phoneTel}}) [เพจ]({{facebookUrl}})',
      '> คำพูดของลูกค้า',
      '---',
      '1. หนึ่ง\n2. สอง',
      '- ก\n- ข',
    ].join('\n\n');
    expect(roundTrip(body)).toBe(body);
  });

  it('puts headings from elsewhere on the levels pages use: H1 becomes H2, H4 to H6 become H3', () => {
    expect(roundTrip('# ใหญ่\n\n#### เล็ก\n\n###### เล็กมาก')).toBe('## ใหญ่\n\n### เล็ก\n\n### เล็กมาก');
  });

  it('stores no empty paragraphs or runs of blank lines, and leaves fenced code alone', () => {
    expect(tidyMarkdown('ก\n\n\n\n&nbsp;\n\n![รูป](/media/x.webp#1x1)\n\n')).toBe('ก\n\n![รูป](/media/x.webp#1x1)');
    expect(tidyMarkdown('```\na\n\n\n\nb\n```\n\n\n\nค')).toBe('```\na\n\n\n\nb\n```\n\nค');
  });

  it('the shop shows a Markdown body’s H1 as H2 and H4 to H6 as H3, as the editor makes them', () => {
    expect(renderMarkdown('# ก\n\n## ข\n\n### ค\n\n#### ง\n\n##### จ\n\n###### ฉ', company)).toBe('<h2>ก</h2>\n<h2>ข</h2>\n<h3>ค</h3>\n<h3>ง</h3>\n<h3>จ</h3>\n<h3>ฉ</h3>\n');
  });

  it('allows only the links the sanitiser keeps', () => {
    for (const ok of ['https://shop.example', 'http://a.b', '/product/P1', 'mailto:a@b.c', 'tel:021234567', '{{facebookUrl}}', '#top']) expect(isAllowedLink(ok), ok).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '//evil.example', 'vbscript:x', 'file:///C:/a.png']) expect(isAllowedLink(bad), bad).toBe(false);
  });
});

describe('a paste from Word or Google Docs ends clean', () => {
  it('Word: no styles, spans, comments or fonts; its heading, bold, list and link kept; its picture left out', () => {
    const markdown = pasteInto(WORD_HTML);
    expect(markdown).toContain('## ของขวัญสำหรับทุกโอกาส');
    expect(markdown).toContain('ร้านเรามี**ของแท้**ทุกชิ้น');
    expect(markdown).toContain('- ห่อของขวัญฟรี\n- ส่งไวภายใน 24 ชั่วโมง');
    expect(markdown).toContain('[ดูแคตตาล็อก](https://example.com/catalog)');
    expect(markdown).not.toMatch(/<|>|style|mso|Mso|font|Calibri|Sarabun|Angsana|file:|clip_image|·|StartFragment|\{|\}/);
  });

  it('Google Docs: the wrapper is not bold, styled spans keep their bold and italic, the numbered list stays', () => {
    const markdown = pasteInto(GOOGLE_DOCS_HTML);
    expect(markdown).toContain('## วิธีสั่งของชำร่วย');
    expect(markdown).toContain('**สั่งล่วงหน้า** อย่างน้อย 7 วัน *สำหรับงานแต่ง*');
    expect(markdown).toContain('1. เลือกแบบ\n2. โอนมัดจำ');
    expect(markdown).not.toMatch(/<|style|docs-internal|font|Arial|\*\*วิธี/);
  });

  it('the cleaner itself leaves only tags and link addresses', () => {
    const html = cleanPastedHtml(WORD_HTML);
    expect(html).not.toMatch(/style=|class=|lang=|<span|<font|<!--|<o:p|<img|<meta/i);
    expect(html).toContain('<a href="https://example.com/catalog">');
  });
});

describe('a picture needs a Thai description, never its file name', () => {
  it('refuses empty, non-Thai and file-name descriptions with a Thai message', () => {
    expect(pictureDescriptionError('', 'IMG_2034.jpg')).toMatch(/คำอธิบาย/);
    expect(pictureDescriptionError('   ', 'IMG_2034.jpg')).toMatch(/คำอธิบาย/);
    expect(pictureDescriptionError('shop front', 'IMG_2034.jpg')).toMatch(/ภาษาไทย/);
    expect(pictureDescriptionError('หน้าร้าน', 'หน้าร้าน.png')).toMatch(/ชื่อไฟล์/);
    expect(pictureDescriptionError('รูปหน้าร้าน.jpg', 'a.png')).toMatch(/ชื่อไฟล์/);
    expect(pictureDescriptionError('ก'.repeat(201), 'a.png')).toMatch(/ยาว/);
    expect(pictureDescriptionError('หน้าร้านยามเช้า มีป้ายชื่อร้านสีเขียว', 'IMG_2034.jpg')).toBeNull();
  });
});
