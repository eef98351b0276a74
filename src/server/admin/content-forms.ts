import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import { AppError, badRequest } from '../http/errors.ts';
import { toErrorResponse, validationError } from '../http/responses.ts';
import type { Permission } from '../../lib/roles.ts';
import { requireStaff, type StaffMember } from './guard.ts';
import { seeOther, setFlash, type Flash } from './flash.ts';

/** Only our own back-office addresses are followed after a form post. */
export function safeAdminPath(value: unknown, fallback: string): string {
  return typeof value === 'string' && /^\/admin(?:[/?#]|$)/.test(value) && !value.startsWith('//') && !value.includes('\\') ? value : fallback;
}

export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.includes('application/x-www-form-urlencoded') && !type.includes('multipart/form-data')) {
    throw badRequest('form_expected', 'ข้อมูลที่ส่งมาไม่ถูกต้อง');
  }
  try {
    return await request.formData();
  } catch {
    throw badRequest('form_invalid', 'ข้อมูลที่ส่งมาไม่ถูกต้อง');
  }
}

/** Text fields of a form as strings (files and repeated names: use FormData directly). */
export function textFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === 'string' && !(key in out)) out[key] = value;
  return out;
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export interface FormResult {
  /** Where to go after success. */
  to: string;
  flash?: Flash;
}

/**
 * A form endpoint: the handler returns where to go with a message. A rule the user can fix (4xx other
 * than 401/403/404) goes back to `back` with the Thai message; no role or no right answers 404/403 as
 * every admin endpoint does; anything else is the usual error envelope.
 */
export function formEndpoint(
  permission: Permission,
  handler: (context: APIContext, form: FormData, staff: StaffMember) => Promise<FormResult>,
  back: (context: APIContext) => string,
): APIRoute {
  return async (context) => {
    let form: FormData | undefined;
    try {
      // Who first: a caller without the right learns nothing about the form's rules.
      const staff = await requireStaff(context, permission);
      form = await readForm(context.request);
      const result = await handler(context, form, staff);
      if (result.flash) setFlash(context.cookies, context.url, result.flash);
      return seeOther(result.to);
    } catch (error) {
      const appError = error instanceof AppError ? error : error instanceof z.ZodError ? validationError(error) : null;
      if (appError && appError.status >= 400 && appError.status < 500 && ![401, 403, 404].includes(appError.status)) {
        setFlash(context.cookies, context.url, { kind: 'danger', text: appError.message, form: context.url.pathname, values: typedValues(form) });
        const fallback = back(context);
        return seeOther(safeAdminPath(form?.get('back'), fallback));
      }
      return toErrorResponse(error, context);
    }
  };
}

/** What was typed in a refused form, never a password (it would sit in a cookie). */
function typedValues(form: FormData | undefined): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  if (!form) return values;
  for (const [key, value] of form) {
    if (typeof value !== 'string' || /password/i.test(key)) continue;
    (values[key] ??= []).push(value.slice(0, 2000));
  }
  return values;
}

/** The value to show in a field: what was typed before a refusal, else the saved one. */
export function retried(flash: Flash | null, form: string, name: string, saved: string, index = 0): string {
  if (flash?.form !== form || !flash.values) return saved;
  return flash.values[name]?.[index] ?? '';
}

/** Whether a checkbox was ticked before a refusal, else the saved state. */
export function retriedCheck(flash: Flash | null, form: string, name: string, saved: boolean): boolean {
  if (flash?.form !== form || !flash.values) return saved;
  return (flash.values[name]?.length ?? 0) > 0;
}

/** How many repeated rows were sent before a refusal (bank accounts, delivery options). */
export function retriedRows(flash: Flash | null, form: string, name: string): number | null {
  if (flash?.form !== form || !flash.values) return null;
  return flash.values[name]?.length ?? 0;
}

export const checkbox = (form: FormData, name: string) => form.get(name) === 'on' || form.get(name) === 'true' || form.get(name) === '1';
