import type { AnyExtension } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import Heading from '@tiptap/extension-heading';
import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import { Markdown } from '@tiptap/markdown';

/**
 * What the content page editor can hold (docs/design.md section 12, decision 199): exactly what the shop's
 * Markdown renderer and sanitiser publish, so nothing an editor makes is lost on the way to a shopper and
 * nothing the shop cannot show can be made. The same list serves the editor in the browser and the tests
 * that convert the seeded pages back and forth.
 */

/** Headings below the page title's H1: a section and a sub-section, as the seeded pages use them. */
export const HEADING_LEVELS = [2, 3] as const;

/** Links the sanitiser keeps: web, mail, phone, the shop's own paths and company placeholders like {{facebookUrl}}. */
export function isAllowedLink(url: string): boolean {
  const value = url.trim();
  return /^(https?:\/\/|mailto:|tel:|\/(?!\/)|#|\{\{\w+\}\})/i.test(value);
}

/** A heading from elsewhere (a pasted H1, an old page's H4) at the nearest level pages use. */
export function headingLevelFor(level: number): (typeof HEADING_LEVELS)[number] {
  return level <= 2 ? 2 : 3;
}

/** Every heading level is read, and kept at the level pages use, rather than turned into plain text. */
const PageHeading = Heading.extend({
  parseHTML() {
    return [1, 2, 3, 4, 5, 6].map((level) => ({ tag: `h${level}`, attrs: { level: headingLevelFor(level) } }));
  },
  parseMarkdown(token, helpers) {
    return helpers.createNode('heading', { level: headingLevelFor(token.depth ?? 2) }, helpers.parseInline(token.tokens ?? []));
  },
}).configure({ levels: [...HEADING_LEVELS] });

/** Pictures come from the shop's own storage (the picture dialog); a pasted picture from elsewhere is not read. */
const PagePicture = Image.extend({
  parseHTML() {
    return [{ tag: 'img[src^="/media/"]' }];
  },
}).configure({ inline: false, allowBase64: false });

export function contentExtensions(): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: false,
      // Markdown has no underline; the published page could not keep it.
      underline: false,
      link: {
        openOnClick: false,
        // Off: a typed link would otherwise swallow the words typed after it (the mark is inclusive with autolink).
        autolink: false,
        linkOnPaste: true,
        defaultProtocol: 'https',
        protocols: ['tel', 'mailto'],
        isAllowedUri: (url) => isAllowedLink(url),
        HTMLAttributes: { rel: null, target: null },
      },
    }),
    PageHeading,
    PagePicture,
    TableKit.configure({ table: { resizable: false } }),
    Markdown.configure({ markedOptions: { gfm: true, breaks: false } }),
  ];
}

/**
 * The Markdown a page stores, from the editor's content. The Markdown converter writes an empty paragraph
 * as `&nbsp;` and keeps runs of blank lines; a page needs neither (the shop spaces its paragraphs), and a
 * paste from Word brings many. Fenced code is left as it is.
 */
export function tidyMarkdown(markdown: string): string {
  return markdown
    .split(/(^```[^\n]*\n[\s\S]*?^```[ \t]*$)/m)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/^(?:&nbsp;|\u00a0)[ \t]*$/gm, '').replace(/\n{3,}/g, '\n\n')))
    .join('')
    .trim();
}
