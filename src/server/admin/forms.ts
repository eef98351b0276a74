import type { APIContext } from 'astro';
import { AppError, badRequest } from '../http/errors.ts';
import { z } from 'zod';
import { endpoint, ok, toErrorResponse, validationError } from '../http/responses.ts';
import { seeOther, setFlash, type Flash } from './flash.ts';
import { auditActor, requireStaff, type StaffMember } from './guard.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import type { Permission } from '../../lib/roles.ts';

/**
 * Back-office forms post to endpoints that answer 303 back to the page with a one-time Thai message
 * (post/redirect/get, flash.ts), so they work before JavaScript arrives and a reload never repeats an action.
 * A client that asks for JSON (`Accept: application/json`) gets the `{ data }` / `{ message, code }`
 * envelope with the real status instead.
 */
/** A local back-office path to return to, or the fallback. */
export function backPath(value: FormDataEntryValue | null | undefined, fallback: string): string {
  const text = typeof value === 'string' ? value : '';
  return /^\/admin(\/[\w\-/.]*)?(\?[\w\-=&%.+]*)?$/.test(text) && !text.includes('//') ? text : fallback;
}

export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw badRequest('invalid_form', 'ข้อมูลที่ส่งมาไม่ถูกต้อง');
  }
}

export function wantsJson(request: Request): boolean {
  return (request.headers.get('accept') ?? '').includes('application/json');
}

export interface ActionContext {
  context: APIContext;
  staff: StaffMember;
  actor: AuditActor;
  form: FormData;
}

export interface ActionOutcome {
  message: string;
  kind?: Flash['kind'];
  details?: string[];
  /** Where to go next; the form's `back` field or the fallback otherwise. */
  redirect?: string;
  data?: unknown;
}

/**
 * A back-office form endpoint: the role check first (404 without a role, 403 without the right, before
 * the body is read), then the action. Refusals the person can act on (400, 409) come back as a flash.
 */
export function adminAction(
  permission: Permission,
  fallback: (context: APIContext) => string,
  handle: (action: ActionContext) => Promise<ActionOutcome>,
) {
  return endpoint(async (context) => {
    const staff = await requireStaff(context, permission);
    const form = await readForm(context.request);
    const back = backPath(form.get('back'), fallback(context));
    const json = wantsJson(context.request);
    try {
      const outcome = await handle({ context, staff, actor: auditActor(staff, context, json ? 'api' : 'web'), form });
      if (json) return ok(outcome.data ?? { message: outcome.message, details: outcome.details ?? [] }, { headers: { 'Cache-Control': 'private, no-store' } });
      setFlash(context.cookies, context.url, { kind: outcome.kind ?? 'success', text: outcome.message, details: outcome.details ?? [] });
      return seeOther(outcome.redirect ?? back);
    } catch (error) {
      if (json) return toErrorResponse(error, context);
      const refusal = error instanceof z.ZodError ? validationError(error) : error;
      if (refusal instanceof AppError && refusal.status < 500) {
        setFlash(context.cookies, context.url, { kind: 'danger', text: refusal.message });
        return seeOther(back);
      }
      throw error;
    }
  });
}

/** The form's fields as a plain object for a zod schema (the last value of a repeated name wins). */
export function formObject(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === 'string') out[key] = value;
  return out;
}
