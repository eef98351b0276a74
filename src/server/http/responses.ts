import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import { log, errorFields } from '../log.ts';
import { AppError, badRequest } from './errors.ts';

const jsonHeaders = { 'Content-Type': 'application/json; charset=utf-8' };

/** `{ data }` success envelope (docs/design.md section 6). */
export function ok<T>(data: T, init: ResponseInit & { extra?: Record<string, unknown> } = {}): Response {
  const { extra, ...rest } = init;
  return new Response(JSON.stringify({ data, ...extra }), {
    ...rest,
    headers: { ...jsonHeaders, ...(rest.headers as Record<string, string> | undefined) },
  });
}

export function paged<T>(data: T[], meta: { total: number; totalCapped?: boolean; page: number; pageSize: number }): Response {
  return ok(data, { extra: meta });
}

export function errorResponse(error: AppError): Response {
  const body: Record<string, unknown> = { message: error.message, code: error.code };
  if (error.fields) body.fields = error.fields;
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: {
      ...jsonHeaders,
      'Cache-Control': 'no-store',
      ...(error.retryAfterSeconds !== undefined ? { 'Retry-After': String(error.retryAfterSeconds) } : {}),
    },
  });
}

/**
 * A refusal shown on a page rather than in the JSON envelope: the page answers with the error's status
 * (and Retry-After when it has one); returns the Thai message the page shows.
 */
export function refuseOnPage(response: { status?: number; headers: Headers }, error: AppError): string {
  response.status = error.status;
  if (error.retryAfterSeconds !== undefined) response.headers.set('Retry-After', String(error.retryAfterSeconds));
  return error.message;
}

/** Maps anything thrown into the `{ message, code }` envelope; unknown errors are logged and become 500. */
export function toErrorResponse(error: unknown, context?: { request: Request }): Response {
  if (error instanceof AppError) return errorResponse(error);
  if (error instanceof z.ZodError) return errorResponse(validationError(error));
  if (error instanceof SyntaxError) return errorResponse(badRequest('invalid_json', 'ข้อมูลที่ส่งมาไม่ถูกต้อง'));
  log.error('unhandled error', { path: context ? new URL(context.request.url).pathname : undefined, ...errorFields(error) });
  return errorResponse(new AppError(500, 'internal_error', 'เกิดข้อผิดพลาดในระบบ กรุณาลองใหม่อีกครั้ง'));
}

export function validationError(error: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  const first = error.issues[0]?.message ?? 'ข้อมูลไม่ถูกต้อง';
  return badRequest('validation_failed', first, fields);
}

/** Wraps an endpoint so every failure answers with the error envelope. */
export function endpoint(handler: (context: APIContext) => Promise<Response> | Response): APIRoute {
  return async (context) => {
    try {
      return await handler(context);
    } catch (error) {
      return toErrorResponse(error, context);
    }
  };
}

/** Reads and validates a JSON body with a zod schema; a missing or malformed body is a 400. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    const text = await request.text();
    body = text.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw badRequest('invalid_json', 'ข้อมูลที่ส่งมาไม่ถูกต้อง');
  }
  const result = schema.safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
}
