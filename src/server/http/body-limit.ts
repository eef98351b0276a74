import { AppError, badRequest } from './errors.ts';

/**
 * Request body sizes (docs/decisions/102-upload-size-limits.md). The adapter's limit is set for the
 * largest legitimate upload, a whole-catalog CSV in the back office (64 MB); every other path keeps 8 MB,
 * and must say its size up front, so an anonymous caller can never make the shop buffer more than that.
 * Back-office endpoints read their bodies only after the staff check.
 */
export const BODY_LIMIT = 8 * 1024 * 1024;
export const ADMIN_BODY_LIMIT = 64 * 1024 * 1024;

const json = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ message, code }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' },
  });

/** A 411/413 answer for a body this path does not take, or null. */
export function bodyRefusal(request: Request, pathname: string): Response | null {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return null;
  const limit = pathname.startsWith('/api/admin/') ? ADMIN_BODY_LIMIT : BODY_LIMIT;
  const declared = request.headers.get('content-length');
  if (declared === null) {
    // A chunked body does not say its size; outside the back office it is refused rather than buffered.
    if (limit === ADMIN_BODY_LIMIT || !request.headers.has('transfer-encoding')) return null;
    return json(411, 'length_required', 'คำขอนี้ต้องระบุขนาดข้อมูล');
  }
  if (Number(declared) > limit) {
    return json(413, 'body_too_large', `ไฟล์หรือข้อมูลที่ส่งมีขนาดใหญ่เกิน ${Math.round(limit / 1024 / 1024)} MB`);
  }
  return null;
}

/**
 * The shop's one form reader. A body that is not a form (wrong content type, or broken) is a Thai 400;
 * a body cut off by the adapter's size limit is a Thai 413, not a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    throw badRequest('form_expected', 'ข้อมูลที่ส่งมาไม่ใช่แบบฟอร์ม กรุณาส่งจากหน้าแบบฟอร์มอีกครั้ง');
  }
  try {
    return await request.formData();
  } catch (error) {
    const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : '';
    if (/size limit/i.test(text)) throw new AppError(413, 'body_too_large', 'ไฟล์หรือข้อมูลที่ส่งมีขนาดใหญ่เกินกำหนด');
    throw badRequest('invalid_form', 'ข้อมูลที่ส่งมาไม่ถูกต้อง');
  }
}
