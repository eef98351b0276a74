import { badRequest } from '../../../server/http/errors';
import { errorResponse } from '../../../server/http/responses';

/**
 * The old `/api/login/{email},{password}` form put credentials in URLs (logs, history, proxies). It is
 * refused without looking at them; runtime/main.ts never logs this path.
 */
export const ALL = () =>
  errorResponse(badRequest('credentials_in_path', 'กรุณาส่งอีเมลและรหัสผ่านในเนื้อหาคำขอของ /api/auth/login ไม่ใช่ในที่อยู่ URL'));
