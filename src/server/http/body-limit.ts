import { AppError, badRequest } from './errors.ts';

/**
 * Request body sizes (docs/decisions/102-upload-size-limits.md, 173-body-limits-before-reading.md). The
 * adapter's limit is set for the largest legitimate upload, a whole-catalog CSV in the back office
 * (64 MB). Only staff get it, and only on back-office paths; everyone else keeps 8 MB everywhere and must
 * say the size up front, so an anonymous caller can never make the shop read or buffer more than that.
 */
export const BODY_LIMIT = 8 * 1024 * 1024;
export const ADMIN_BODY_LIMIT = 64 * 1024 * 1024;

const json = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ message, code }), {
    // Connection: close, so the server stops taking the rest of a body it will never read.
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' },
    status,
  });

/** The back-office paths: JSON endpoints under /api/admin and the form endpoints under /admin. */
export function backOfficePath(pathname: string): boolean {
  return pathname.startsWith('/api/admin/') || pathname.startsWith('/admin/');
}

/** The most a body to this path may carry: the back office's allowance for staff, 8 MB for everyone else. */
export function bodyLimitFor(pathname: string, staff: boolean): number {
  return staff && backOfficePath(pathname) ? ADMIN_BODY_LIMIT : BODY_LIMIT;
}

/**
 * Whether the answer depends on who is asking: a back-office body larger than 8 MB, or of unknown size.
 * Only then is the session looked up before the body, so no other request pays for it.
 */
export function needsStaffAllowance(request: Request, pathname: string): boolean {
  if (!backOfficePath(pathname)) return false;
  const declared = request.headers.get('content-length');
  return declared === null ? request.headers.has('transfer-encoding') : Number(declared) > BODY_LIMIT;
}

export function bodyTooLarge(limit: number): Response {
  return json(413, 'body_too_large', `ไฟล์หรือข้อมูลที่ส่งมีขนาดใหญ่เกิน ${Math.round(limit / 1024 / 1024)} MB`);
}

/**
 * A 411/413 answer for a body this path does not take from this caller, or null. Decided from the
 * headers alone, before a byte of the body is read.
 */
export function bodyRefusal(request: Request, pathname: string, staff = false): Response | null {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return null;
  const limit = bodyLimitFor(pathname, staff);
  const declared = request.headers.get('content-length');
  if (declared === null) {
    // A chunked body does not say its size; without the staff allowance it is refused rather than read.
    if (limit === ADMIN_BODY_LIMIT || !request.headers.has('transfer-encoding')) return null;
    return json(411, 'length_required', 'คำขอนี้ต้องระบุขนาดข้อมูล');
  }
  if (Number(declared) > limit) return bodyTooLarge(limit);
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
