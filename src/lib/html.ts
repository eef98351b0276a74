/**
 * Text and attribute values made safe for HTML written as a string, as Astro escapes expressions: the
 * five characters that can end a text run or a quoted attribute become entities. Pure: the one copy
 * for markup written outside Astro's templates (product cards, mail, content pages' pictures and
 * company values, the edge's refusal page).
 */
const ESCAPABLE = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  const text = String(value ?? '');
  // Most names and URLs have nothing to escape: no new string for them.
  ESCAPABLE.lastIndex = 0;
  return ESCAPABLE.test(text) ? text.replace(ESCAPABLE, (char) => ENTITIES[char] ?? char) : text;
}
