import type { APIContext, MiddlewareHandler, MiddlewareNext } from 'astro';
import { badUrlPart, REFUSED_TEXT_MESSAGE, scanBody } from './server/security/control-chars';
import { originAllowed } from './server/security/origin';
import { bodyLimitFor, bodyRefusal, bodyTooLarge, needsStaffAllowance } from './server/http/body-limit';
import { currentStaff } from './server/admin/guard';

const jsonHeaders = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

/**
 * `/api/*` answers in the `{ message, code }` envelope; pages get the shop's error page with its layout,
 * the search box and a way home, rendered in place of the refused route (docs/decisions/176).
 */
async function refuse(context: APIContext, next: MiddlewareNext, status: number, code: string, message: string, pageTitle: string): Promise<Response> {
  const { pathname } = context.url;
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    return new Response(JSON.stringify({ message, code }), { status, headers: jsonHeaders });
  }
  context.locals.errorPage = { status, title: pageTitle, message };
  // Astro answers its 404 route with 404 whatever the page sets, so the refusal's status is put back.
  const page = await next('/404');
  return new Response(page.body, { status, headers: page.headers });
}

/**
 * The edge of the shop, before any route runs:
 *  - every state-changing request must come from the shop's own pages (docs/decisions/052:
 *    this replaces Astro's `security.checkOrigin`, whose English plain-text refusal is not our
 *    envelope), and
 *  - no text with control characters, NUL or broken encoding reaches a route (docs/decisions/141), and
 *  - no body over its limit is read: refused from its declared size first, then scanned only up to its
 *    limit (docs/decisions/102, 173).
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
  if (context.locals.requestRoute) context.locals.requestRoute.route = context.routePattern;
  const { request, url } = context;
  if (!originAllowed(request, url)) {
    return refuse(
      context,
      next,
      403,
      'cross_origin',
      'คำขอนี้ไม่ได้มาจากหน้าเว็บของร้าน จึงไม่สามารถดำเนินการได้',
      'ไม่สามารถดำเนินการได้',
    );
  }
  if (badUrlPart(url, request.url) !== null) return refuse(context, next, 400, 'invalid_characters', REFUSED_TEXT_MESSAGE, 'ข้อมูลไม่ถูกต้อง');
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null) {
    // The back office's 64 MB are for staff: a large or unsized back-office body costs one session
    // lookup (kept for the endpoint's own check), everyone else keeps 8 MB before they are known.
    const staff = needsStaffAllowance(request, url.pathname) && (await currentStaff(context)) !== null;
    const refused = bodyRefusal(request, url.pathname, staff);
    if (refused) return refused;
    const limit = bodyLimitFor(url.pathname, staff);
    const scan = await scanBody(request, limit);
    if (scan === 'too_large') return bodyTooLarge(limit);
    if (scan === 'refused_text') return refuse(context, next, 400, 'invalid_characters', REFUSED_TEXT_MESSAGE, 'ข้อมูลไม่ถูกต้อง');
  }
  return next();
};
