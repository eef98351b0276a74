/**
 * One error type for the whole shop: a permanent machine code, an HTTP status and a Thai message for
 * people. Database and library details never reach the client; they are logged.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  /** Sent as `Retry-After` (429 answers). */
  retryAfterSeconds?: number;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

export const badRequest = (code: string, message: string, fields?: Record<string, string>) =>
  new AppError(400, code, message, fields);
export const unauthorized = (message = 'กรุณาเข้าสู่ระบบก่อนดำเนินการ') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'คุณไม่มีสิทธิ์ทำรายการนี้') => new AppError(403, 'forbidden', message);
export const notFound = (code = 'not_found', message = 'ไม่พบข้อมูลที่ต้องการ') => new AppError(404, code, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const tooManyRequests = (message = 'ทำรายการบ่อยเกินไป กรุณารอสักครู่แล้วลองใหม่', retryAfterSeconds?: number) => {
  const error = new AppError(429, 'rate_limited', message);
  if (retryAfterSeconds !== undefined) error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return error;
};
