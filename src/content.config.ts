import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/**
 * Static pages written by content editors as Markdown (src/content/pages/*.md). Company values are
 * written as placeholders (`{{phone}}`, `{{lineId}}`, `{{address}}`, `{{mapUrl}}`…) and filled from
 * the company record when the page renders, so a changed phone number is changed in one place.
 */
const pages = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/pages' }),
  schema: z.object({
    title: z.string().min(1),
    description: z.string().default(''),
    /** Shown in the page's own heading; the navbar uses the fixed words of DESIGN.md section 5. */
    heading: z.string().optional(),
  }),
});

export const collections = { pages };
