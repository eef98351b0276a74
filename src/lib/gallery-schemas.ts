import { z } from './zod.ts';

/** Albums and job posts of the back office (/admin/gallery, /admin/recruitment). */
export const albumSchema = z.object({
  code: z
    .string({ error: 'กรุณาใส่รหัสอัลบั้ม' })
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/, 'รหัสอัลบั้มใช้ a-z 0-9 และขีดกลาง (ไม่เกิน 60 ตัว)'),
  title: z.string({ error: 'กรุณาใส่ชื่ออัลบั้ม' }).trim().min(1, 'กรุณาใส่ชื่ออัลบั้ม').max(120, 'ชื่ออัลบั้มยาวเกิน 120 ตัวอักษร'),
  description: z.string().trim().max(500, 'คำอธิบายยาวเกิน 500 ตัวอักษร').default(''),
});
export type AlbumInput = z.infer<typeof albumSchema>;

export const captionSchema = z.string().trim().max(200, 'คำบรรยายภาพยาวเกิน 200 ตัวอักษร');

export const jobSchema = z.object({
  title: z.string({ error: 'กรุณาใส่ตำแหน่งงาน' }).trim().min(1, 'กรุณาใส่ตำแหน่งงาน').max(120, 'ตำแหน่งงานยาวเกิน 120 ตัวอักษร'),
  description: z.string().trim().max(3000, 'รายละเอียดยาวเกิน 3,000 ตัวอักษร').default(''),
  location: z.string().trim().max(120, 'สถานที่ทำงานยาวเกิน 120 ตัวอักษร').default(''),
  employmentType: z.string().trim().max(60, 'ประเภทการจ้างยาวเกิน 60 ตัวอักษร').default(''),
  salary: z.string().trim().max(60, 'เงินเดือนยาวเกิน 60 ตัวอักษร').default(''),
  open: z.boolean(),
});
export type JobInput = z.infer<typeof jobSchema>;
