import { defineLiveCollection } from 'astro:content';
import { contentPagesLoader } from './server/content/pages-loader';

/**
 * Live content collections (read on request, not at build): the content pages editors change in
 * /admin/pages. Built-in collections of Markdown files are gone; src/content/pages/*.md only seed the
 * database once (src/server/content/page-seed.ts).
 */
const pages = defineLiveCollection({ loader: contentPagesLoader() });

export const collections = { pages };
