/** What a shop API answered a script in the browser: its status, its `data` and its Thai `message`. */
export interface JsonAnswer<T> {
  /** 0 when the request never reached the shop. */
  status: number;
  ok: boolean;
  data: T | undefined;
  message?: string;
}

/** Said when the request never reached the shop (offline, a dropped connection). */
export const UNREACHED = 'เชื่อมต่อไม่สำเร็จ กรุณาลองใหม่อีกครั้ง';

/**
 * One JSON request of a page's script to the shop's own API, with the member's session cookie; never
 * throws: a network failure or an answer that is not JSON comes back as an answer too.
 */
export async function jsonCall<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<JsonAnswer<T>> {
  try {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as { data?: T; message?: string };
    return { status: response.status, ok: response.ok, data: json.data, message: json.message };
  } catch {
    return { status: 0, ok: false, data: undefined, message: UNREACHED };
  }
}
