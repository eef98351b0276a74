import type { MiddlewareHandler } from 'astro';
import { originAllowed } from './server/security/origin';

/**
 * Astro's security.checkOrigin covers form content types only; this covers every state-changing request
 * (JSON included), so a foreign page cannot use a member's cookie to act for them.
 */
export const onRequest: MiddlewareHandler = (context, next) => {
  if (!originAllowed(context.request, context.url)) {
    return new Response(JSON.stringify({ message: 'คำขอนี้ไม่ได้มาจากหน้าเว็บของร้าน จึงไม่สามารถดำเนินการได้', code: 'cross_origin' }), {
      status: 403,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  }
  return next();
};
