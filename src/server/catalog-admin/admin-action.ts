import type { APIContext, APIRoute } from 'astro';
import { AppError } from '../http/errors.ts';
import { ok, toErrorResponse } from '../http/responses.ts';
import { auditActor, requireStaff, type StaffMember } from '../admin/guard.ts';
import { setFlash } from '../admin/flash.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import type { Permission } from '../../lib/roles.ts';

/**
 * Back-office form endpoints that work before JavaScript arrives and from islands alike: a plain form
 * post gets a 303 back to the page with a Thai flash message (admin/flash.ts: a cookie, not the URL);
 * a fetch that asks for JSON gets `{ data }` or `{ message, code, fields }`. The staff check runs first,
 * before the body is read.
 */
export function wantsJson(request: Request): boolean {
  return /application\/(json|x-ndjson)/.test(request.headers.get('accept') ?? '');
}

/** Only a back-office path of this shop; anything else falls back. */
export function adminBack(raw: unknown, fallback: string): string {
  if (typeof raw !== 'string' || raw.length > 1000) return fallback;
  if (!/^\/admin(\/[A-Za-z0-9_\-/.%]*)?(\?[A-Za-z0-9_\-=&%.+]*)?$/.test(raw) || raw.includes('//') || raw.includes('..')) return fallback;
  return raw;
}

export interface ActionResult {
  /** Thai text for the flash. */
  message: string;
  /** Where a form post goes next (default: the `back` field or the fallback). */
  location?: string;
  data?: unknown;
}

export interface ActionContext {
  context: APIContext;
  staff: StaffMember;
  actor: AuditActor;
}

/** A form endpoint of the back office. `fallback` is where a form post returns when it names no `back`. */
export function adminAction(
  permission: Permission,
  fallback: string,
  handler: (action: ActionContext) => Promise<ActionResult>,
): APIRoute {
  return async (context) => {
    const json = wantsJson(context.request);
    let staff: StaffMember;
    try {
      staff = await requireStaff(context, permission);
    } catch (error) {
      return toErrorResponse(error, context);
    }
    const back = adminBack(context.url.searchParams.get('back'), fallback);
    try {
      const result = await handler({ context, staff, actor: auditActor(staff, context) });
      if (json) return ok(result.data ?? { message: result.message, location: result.location ?? back });
      setFlash(context.cookies, context.url, { kind: 'success', text: result.message });
      return context.redirect(result.location ?? back, 303);
    } catch (error) {
      if (json || !(error instanceof AppError)) return toErrorResponse(error, context);
      setFlash(context.cookies, context.url, { kind: 'danger', text: error.message });
      return context.redirect(back, 303);
    }
  };
}

