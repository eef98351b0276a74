/**
 * The four built-in pages as they were written in src/content/pages/*.md: copied into the database the
 * first time pages are read, never again (editors own them from then on). Bundled as text, so the built
 * server does not need the source tree.
 */
const files = import.meta.glob('../../content/pages/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export interface SeedPage {
  slug: string;
  title: string;
  description: string;
  body: string;
}

/** Reads the small front matter the pages use (`key: value` lines between `---`). */
export function parseFrontMatter(source: string): { data: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { data: {}, body: source };
  const data: Record<string, string> = {};
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const pair = /^(\w+):\s*(.*)$/.exec(line);
    if (pair) data[pair[1] as string] = (pair[2] ?? '').replace(/^(['"])(.*)\1$/, '$2').trim();
  }
  return { data, body: source.slice(match[0].length).replace(/^\s*\n/, '') };
}

export function seedPages(): SeedPage[] {
  return Object.entries(files)
    .map(([path, source]) => {
      const slug = /([^/]+)\.md$/.exec(path)?.[1] ?? '';
      const { data, body } = parseFrontMatter(source);
      return { slug, title: data.title ?? slug, description: data.description ?? '', body };
    })
    .filter((page) => page.slug);
}
