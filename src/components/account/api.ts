/** JSON calls from the account islands to our own endpoints (same origin, the cookie rides along). */
export interface ApiResult<T> {
  ok: boolean;
  status: number;
  data: T | undefined;
  message: string;
  code: string;
  fields: Record<string, string>;
}

export async function callApi<T>(url: string, method: string, body?: unknown): Promise<ApiResult<T>> {
  try {
    const response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json().catch(() => ({}))) as { data?: T; message?: string; code?: string; fields?: Record<string, string> };
    return {
      ok: response.ok,
      status: response.status,
      data: json.data,
      message: json.message ?? (response.ok ? '' : 'เกิดข้อผิดพลาด กรุณาลองใหม่อีกครั้ง'),
      code: json.code ?? '',
      fields: json.fields ?? {},
    };
  } catch {
    return { ok: false, status: 0, data: undefined, message: 'ไม่สามารถเชื่อมต่อเซิร์ฟเวอร์ได้ กรุณาตรวจสอบอินเทอร์เน็ตแล้วลองใหม่', code: 'network', fields: {} };
  }
}

export const postJson = <T,>(url: string, body?: unknown) => callApi<T>(url, 'POST', body ?? {});
