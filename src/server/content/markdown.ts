import { Marked, type Tokens } from 'marked';
import sanitizeHtml from 'sanitize-html';
import type { CompanyInfo } from '../../lib/types.ts';
import { fillCompanyHtml } from './company-text.ts';
import { escapeHtml } from '../../lib/html.ts';

/**
 * The one way a content page's Markdown becomes HTML, for the shop and for the editor's preview alike
 * (so what an editor sees is what is published). Order matters: Markdown first, then the company
 * placeholders, then the sanitiser LAST, so nothing an editor writes and nothing a company value holds
 * can bring a script, an event handler or a `javascript:` link to a shopper (docs/decisions/110).
 */

const PICTURE_WIDTHS = [320, 640, 1280];
/** `/media/<folder>/<hash>-<width>.webp#<width>x<height>`: the editor writes the size after the hash. */
const STORED_PICTURE = /^(\/media\/[a-z]+\/[a-f0-9]{24})-(\d+)\.webp(?:#(\d+)x(\d+))?$/;

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    image({ href, title, text }: Tokens.Image): string {
      const match = STORED_PICTURE.exec(href);
      const alt = escapeHtml(text);
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
      if (!match) return `<img src="${escapeHtml(href)}" alt="${alt}"${titleAttr} loading="lazy">`;
      const [, stem, widest, w, h] = match;
      const widestWidth = Number(widest);
      const size = w && h ? ` width="${w}" height="${h}"` : '';
      const srcset = [...PICTURE_WIDTHS.filter((candidate) => candidate < widestWidth), widestWidth].map((candidate) => `${stem}-${candidate}.webp ${candidate}w`);
      return `<img src="${stem}-${widest}.webp" srcset="${srcset.join(', ')}" sizes="(min-width: 992px) 800px, 100vw" alt="${alt}"${size}${titleAttr} loading="lazy">`;
    },
  },
});

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2', 'h3', 'p', 'br', 'hr', 'strong', 'b', 'em', 'i', 'del', 's', 'u', 'mark', 'small',
    'blockquote', 'ul', 'ol', 'li', 'a', 'img', 'code', 'pre', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
    'figure', 'figcaption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'srcset', 'sizes', 'alt', 'title', 'width', 'height', 'loading'],
    th: ['align'],
    td: ['align'],
    ol: ['start'],
  },
  // Relative addresses (/media/…, /product/…) pass; any other scheme (javascript:, data:, vbscript:) goes.
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'srcset'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  allowedStyles: {},
  transformTags: {
    // The page's own title is the only h1, and pages use two levels under it (decision 199): whatever a
    // body written as Markdown asks for, a shopper sees an h2 or an h3, as the rich-text editor makes.
    h1: 'h2',
    h4: 'h3',
    h5: 'h3',
    h6: 'h3',
    a: (tagName, attribs) => {
      const external = /^https?:\/\//i.test(attribs.href ?? '');
      const next: Record<string, string> = { ...attribs };
      delete next.target;
      delete next.rel;
      if (external) Object.assign(next, { target: '_blank', rel: 'noopener noreferrer' });
      return { tagName, attribs: next };
    },
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/** Sanitises HTML for a shopper's eyes; exported for the tests that throw payloads at it directly. */
export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

export function renderMarkdown(body: string, company: CompanyInfo): string {
  const html = marked.parse(body, { async: false });
  return sanitizeContentHtml(fillCompanyHtml(html, company));
}
