import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import { AppError } from '../http/errors.ts';
import { readForm } from '../http/body-limit.ts';
import { ok, toErrorResponse, validationError } from '../http/responses.ts';
import { seeOther, setFlash, type Flash } from './flash.ts';
import { auditActor, requireStaff, type StaffMember } from './guard.ts';
import { keepTypedValues } from './form-retries.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import type { Permission } from '../../lib/roles.ts';
import { safeAdminPath } from '../../lib/safe-redirect.ts';

/**
 * The one way to write a back-office form endpoint (docs/decisions/169-one-back-office-form-wrapper.md).
 * Forms post and get 303 back to a page with a one-time Thai message (post/redirect/get, flash.ts), so
 * they work before JavaScript arrives and a reload never repeats an action. A client that asks for JSON
 * (`Accept: application/json`) gets the `{ data }` / `{ message, code, fields }` envelope with the real
 * status instead.
 */
export function wantsJson(request: Request): boolean {
  return /application\/(json|x-ndjson)/.test(request.headers.get('accept') ?? '');
}

export interface AdminFormContext {
  context: APIContext;
  staff: StaffMember;
  actor: AuditActor;
  form: FormData;
}

export interface AdminFormOutcome {
  /** Thai text for the flash (and the JSON answer when there is no `data`). */
  message: string;
  kind?: Flash['kind'];
  details?: string[];
  /** Where a form post goes next; the form's `back` otherwise. */
  redirect?: string;
  /** The JSON answer's `data`. */
  data?: unknown;
}

/** Refusals the person can act on; 401/403/404 keep their envelope, as on every other endpoint. */
function refusalToShow(error: unknown): AppError | null {
  const refusal = error instanceof AppError ? error : error instanceof z.ZodError ? validationError(error) : null;
  if (!refusal || refusal.status < 400 || refusal.status >= 500 || [401, 403, 404].includes(refusal.status)) return null;
  return refusal;
}

/**
 * A back-office form endpoint. In this order: the role check (404 without a role, 403 without the right,
 * before a byte of the body is read); the body, read once (413 too large, 400 not a form); the action.
 * `back` is the form's `back` field, else the query's `back`, else `fallback`, and always a path inside
 * /admin. A refusal (4xx other than 401/403/404, zod errors included) goes back with a danger flash and
 * keeps what was typed for the page (form-retries.ts); anything else is the error envelope.
 */
export function adminForm(
  permission: Permission,
  fallback: (context: APIContext) => string,
  handle: (action: AdminFormContext) => Promise<AdminFormOutcome>,
): APIRoute {
  return async (context) => {
    let staff: StaffMember;
    try {
      staff = await requireStaff(context, permission);
    } catch (error) {
      return toErrorResponse(error, context);
    }
    const json = wantsJson(context.request);
    const fromQuery = context.url.searchParams.get('back');
    let back = safeAdminPath(fromQuery, fallback(context));
    let form: FormData | undefined;
    try {
      form = await readForm(context.request);
      back = safeAdminPath(form.get('back') ?? fromQuery, fallback(context));
      const outcome = await handle({ context, staff, actor: auditActor(staff, context, json ? 'api' : 'web'), form });
      const next = outcome.redirect ?? back;
      if (json) {
        const data = outcome.data ?? { message: outcome.message, details: outcome.details ?? [], location: next };
        return ok(data, { headers: { 'Cache-Control': 'private, no-store' } });
      }
      setFlash(context.cookies, context.url, { kind: outcome.kind ?? 'success', text: outcome.message, details: outcome.details ?? [] });
      return seeOther(next);
    } catch (error) {
      const refusal = json ? null : refusalToShow(error);
      if (!refusal) return toErrorResponse(error, context);
      const retry = form ? await keepTypedValues(staff.member.id, context.url.pathname, form) : null;
      setFlash(context.cookies, context.url, { kind: 'danger', text: refusal.message, ...(retry ? { retry } : {}) });
      return seeOther(back);
    }
  };
}

/** Text fields of a form as strings, the first value of a repeated name (files and repeats: use FormData). */
export function textFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === 'string' && !(key in out)) out[key] = value;
  return out;
}

/** Validates with a zod schema; a failure is the Thai 400 of its first issue, with every field's message. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** A ticked checkbox (browsers send "on"; scripts may send true or 1). */
export const checkbox = (form: FormData, name: string) => form.get(name) === 'on' || form.get(name) === 'true' || form.get(name) === '1';
