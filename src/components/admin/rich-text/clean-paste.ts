/**
 * Cleans HTML pasted from Word or Google Docs before the editor reads it (decision 199). The editor's
 * schema already drops what it has no node for, but Office HTML needs more than that to come out as the
 * editor meant it:
 * - Word's own markup goes whole: comments and conditional comments, <style>, <meta>, <xml>, <o:p>, and
 *   the list markers Word writes as text (`·`, `1.`) in spans styled `mso-list:Ignore`;
 * - Word's list paragraphs (`MsoListParagraph…`, `mso-list:` in the style) become real lists again;
 * - Google Docs' wrapper `<b style="font-weight:normal" id="docs-internal-guid…">` is not bold, while its
 *   spans styled bold or italic are, so those become <strong>/<em> before every style goes;
 * - pictures go: a picture enters a page through the picture dialog, with a Thai description
 *   (a pasted `file:///C:/…` or data: picture could not be shown to a shopper anyway);
 * - every attribute but a link's address goes (class, style, id, lang, dir, align, width, fonts).
 * Runs in the browser (DOMParser); the unit tests run it in happy-dom.
 */

const DROP = 'style, meta, link, title, script, xml, img, picture, svg, object, iframe';
const KEEP_ATTRIBUTES: Record<string, readonly string[]> = { A: ['href'], TD: ['colspan', 'rowspan'], TH: ['colspan', 'rowspan'], OL: ['start'] };

function styleOf(element: Element): string {
  return (element.getAttribute('style') ?? '').toLowerCase().replace(/\s+/g, '');
}

function unwrap(element: Element): void {
  element.replaceWith(...Array.from(element.childNodes));
}

function removeComments(root: Node): void {
  const doc = root.ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root, 128 /* NodeFilter.SHOW_COMMENT */);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
}

/** A Word list paragraph: its class or its `mso-list` style says so. */
function isWordListItem(element: Element): boolean {
  return element.tagName === 'P' && (/MsoListParagraph/i.test(element.getAttribute('class') ?? '') || /mso-list:l\d/.test(styleOf(element)));
}

/** Word writes the marker as text in an ignored span; numbers, letters or Roman numerals mean an ordered list. */
function wordMarker(element: Element): { ordered: boolean } {
  const marker = element.querySelector('[style*="mso-list"]');
  const text = (marker?.textContent ?? element.textContent ?? '').replace(/\u00a0/g, ' ').trim();
  return { ordered: /^(\d+|[a-z]|[ivxlcdm]+)[.)]/i.test(text) };
}

function rebuildWordLists(body: HTMLElement): void {
  const doc = body.ownerDocument;
  for (const first of Array.from(body.querySelectorAll('p'))) {
    if (!first.isConnected || !isWordListItem(first) || (first.previousElementSibling && isWordListItem(first.previousElementSibling))) continue;
    const list = doc.createElement(wordMarker(first).ordered ? 'ol' : 'ul');
    first.before(list);
    let item: Element | null = first;
    while (item && isWordListItem(item)) {
      const next: Element | null = item.nextElementSibling;
      for (const marker of Array.from(item.querySelectorAll('[style*="mso-list"]'))) marker.remove();
      const li = doc.createElement('li');
      li.append(...Array.from(item.childNodes));
      // Word's markers leave non-breaking spaces at the start of the item.
      const lead = li.firstChild;
      if (lead && lead.nodeType === 3) lead.textContent = (lead.textContent ?? '').replace(/^[\s\u00a0]+/, '');
      list.append(li);
      item.remove();
      item = next;
    }
  }
}

/** Google Docs and Word mark bold and italic with styles on spans; keep the meaning, lose the style. */
function stylesToMarks(body: HTMLElement): void {
  const doc = body.ownerDocument;
  for (const element of Array.from(body.querySelectorAll('b, span, font'))) {
    const style = styleOf(element);
    if (element.tagName === 'B' && /font-weight:(normal|400)/.test(style)) {
      unwrap(element);
      continue;
    }
    if (element.tagName === 'B') continue;
    let inner: Element = element;
    if (/font-weight:(bold|[6-9]00)/.test(style)) {
      const strong = doc.createElement('strong');
      strong.append(...Array.from(inner.childNodes));
      inner.append(strong);
      inner = strong;
    }
    if (/font-style:italic/.test(style)) {
      const em = doc.createElement('em');
      em.append(...Array.from(inner.childNodes));
      inner.append(em);
    }
  }
}

function stripAttributes(body: HTMLElement): void {
  for (const element of Array.from(body.querySelectorAll('*'))) {
    const keep = KEEP_ATTRIBUTES[element.tagName] ?? [];
    for (const name of element.getAttributeNames()) if (!keep.includes(name)) element.removeAttribute(name);
    if (['SPAN', 'FONT', 'DIV', 'SECTION', 'ARTICLE', 'CENTER', 'U', 'SUP', 'SUB'].includes(element.tagName)) unwrap(element);
  }
}

export function cleanPastedHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const body = doc.body;
  removeComments(doc);
  rebuildWordLists(body);
  for (const element of Array.from(body.querySelectorAll(DROP))) element.remove();
  // Word's namespaced tags: <o:p> holds only Word's spacing; others (<st1:…>, <w:…>) keep their text.
  for (const element of Array.from(body.querySelectorAll('*'))) {
    if (element.tagName.toLowerCase() === 'o:p') element.remove();
    else if (element.tagName.includes(':')) unwrap(element);
  }
  stylesToMarks(body);
  stripAttributes(body);
  return body.innerHTML;
}
