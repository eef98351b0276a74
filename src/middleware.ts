import type { MiddlewareHandler } from 'astro';
import { refusalPage } from './server/http/refusal-page';
import { badBody, badUrlPart, REFUSED_TEXT_MESSAGE } from './server/security/control-chars';
import { originAllowed } from './server/security/origin';
import { bodyRefusal } from './server/http/body-limit';

const jsonHeaders = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

/** `/api/*` answers in the `{ message, code }` envelope; pages get the shop's error page. */
function refuse(url: URL, status: number, code: string, message: string, pageTitle: string): Response {
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
    return new Response(JSON.stringify({ message, code }), { status, headers: jsonHeaders });
  }
  return refusalPage(status, pageTitle, message);
}

/**
 * The edge of the shop, before any route runs:
 *  - every state-changing request must come from the shop's own pages (docs/decisions/052:
 *    this replaces Astro's `security.checkOrigin`, whose English plain-text refusal is not our
 *    envelope), and
 *  - no text with control characters, NUL or broken encoding reaches a route (docs/decisions/141).
 */
let devMailWorker = false;

export const onRequest: MiddlewareHandler = async (context, next) => {
  // `astro dev` has no runtime/main.ts to start the mail worker and the order expiry sweep; the built
  // server never runs this.
  if (import.meta.env.DEV && !devMailWorker) {
    devMailWorker = true;
    void import('./server/mail/outbox-worker').then((worker) => worker.startMailWorker());
    void import('./server/orders/order-sweeper').then((sweeper) => sweeper.startOrderSweeper());
  }
  const { request, url } = context;
  if (!originAllowed(request, url)) {
    return refuse(
      url,
      403,
      'cross_origin',
      'คำขอนี้ไม่ได้มาจากหน้าเว็บของร้าน จึงไม่สามารถดำเนินการได้',
      'ไม่สามารถดำเนินการได้',
    );
  }
  if (badUrlPart(url) !== null || (await badBody(request))) {
    return refuse(url, 400, 'invalid_characters', REFUSED_TEXT_MESSAGE, 'ข้อมูลไม่ถูกต้อง');
  }
  const refused = bodyRefusal(context.request, context.url.pathname);
  if (refused) return refused;
  return next();
};
