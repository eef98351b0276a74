import { z } from './zod.ts';

/**
 * What an editor may send for a content page, shared by the editor island (checks before posting) and
 * the endpoints (checks again). Slugs are the page's address: /aboutus for the built-in pages,
 * /pages/{slug} for pages editors add.
 */
/** issue 29: `privacy` and `terms` (sign-up asks to accept them) are built-in too, at /privacy and /terms. */
export const BUILT_IN_PAGES = ['aboutus', 'howtoorder', 'contact', 'address', 'privacy', 'terms'] as const;
/** Linked from the footer always (Footer.astro), so they are seeded outside the editors' footer list. */
export const ALWAYS_LINKED_PAGES: readonly string[] = ['privacy', 'terms'];
/** Words the admin routes use for themselves, so no page can shadow them. */
const RESERVED_SLUGS = new Set(['new', 'preview', 'upload', 'create']);

export const MAX_PAGE_BODY = 100_000;

export const pageSlugSchema = z
  .string({ error: 'กรุณาใส่ที่อยู่หน้า' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/, 'ที่อยู่หน้าใช้ได้เฉพาะ a-z 0-9 และขีดกลาง (ไม่เกิน 60 ตัว)')
  .refine((slug) => !RESERVED_SLUGS.has(slug), 'ชื่อนี้สงวนไว้สำหรับระบบ กรุณาใช้ชื่ออื่น');

export const pageDraftSchema = z.object({
  title: z.string({ error: 'กรุณาใส่ชื่อหน้า' }).trim().min(1, 'กรุณาใส่ชื่อหน้า').max(120, 'ชื่อหน้ายาวเกิน 120 ตัวอักษร'),
  description: z.string().trim().max(300, 'คำอธิบายยาวเกิน 300 ตัวอักษร').default(''),
  body: z.string().max(MAX_PAGE_BODY, 'เนื้อหายาวเกินไป (ไม่เกิน 100,000 ตัวอักษร)').default(''),
  inFooter: z.boolean().default(false),
});
export type PageDraft = z.infer<typeof pageDraftSchema>;

export const newPageSchema = z.object({ slug: pageSlugSchema, title: pageDraftSchema.shape.title });

/** Where shoppers find a page. */
export function pagePath(slug: string): string {
  return (BUILT_IN_PAGES as readonly string[]).includes(slug) ? `/${slug}` : `/pages/${slug}`;
}

/** The company values an editor may write as {{name}} in a page, with a Thai hint for the toolbar. */
export const COMPANY_PLACEHOLDERS: ReadonlyArray<{ key: string; label: string }> = [
  { key: 'name', label: 'ชื่อร้าน' },
  { key: 'phone', label: 'เบอร์โทร' },
  { key: 'lineId', label: 'LINE' },
  { key: 'email', label: 'อีเมล' },
  { key: 'address', label: 'ที่อยู่' },
  { key: 'openingHours', label: 'เวลาเปิด' },
  { key: 'mapUrl', label: 'ลิงก์แผนที่' },
  { key: 'facebookUrl', label: 'เพจ Facebook' },
];

const THAI_LETTER = /[\u0E01-\u0E4F]/;
const PICTURE_FILE = /\.(jpe?g|png|webp|gif|heic|heif|avif|bmp|tiff?)$/i;
export const MAX_PICTURE_DESCRIPTION = 200;

/**
 * Why a picture's description (its alt text) will not do, in Thai, or null when it will: shoppers who
 * cannot see the picture hear it read out, so it says what is in the picture, in Thai, and is never the
 * file's name (the old editor used the name; issue 32).
 */
export function pictureDescriptionError(description: string, fileName: string): string | null {
  const text = description.trim();
  if (!text) return 'กรุณาเขียนคำอธิบายรูป บอกว่าในรูปมีอะไร';
  if (text.length > MAX_PICTURE_DESCRIPTION) return `คำอธิบายรูปยาวเกิน ${MAX_PICTURE_DESCRIPTION} ตัวอักษร`;
  const base = fileName.trim().replace(/\.[^.]+$/, '').toLowerCase();
  if (PICTURE_FILE.test(text) || (base && text.toLowerCase() === base)) return 'คำอธิบายรูปต้องบอกว่าในรูปมีอะไร ไม่ใช่ชื่อไฟล์';
  if (!THAI_LETTER.test(text)) return 'กรุณาเขียนคำอธิบายรูปเป็นภาษาไทย';
  return null;
}
