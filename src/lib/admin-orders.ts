import { z } from './zod.ts';
import { statusGroupLabel, statusLabels, type OrderStatus } from './orders.ts';
import { parseSlipFilter } from './slip-check.ts';

/**
 * The back office's view of orders (docs/design.md section 10): its status tabs, the list query in the URL,
 * the carriers it knows the tracking-number format of. Pure: pages, islands and the server share it.
 */
export type AdminOrderTab = 'all' | 'to-pay' | 'review' | 'to-ship' | 'shipping' | 'done' | 'closed';

export const adminOrderTabs: readonly { key: AdminOrderTab; label: string; statuses: readonly OrderStatus[] }[] = [
  { key: 'all', label: 'ทั้งหมด', statuses: ['pending_payment', 'payment_review', 'paid', 'shipped', 'delivered', 'cancelled', 'expired'] },
  // A tab of one status is named by it (issue 32, screen 10: the same state in the same words everywhere).
  { key: 'to-pay', label: statusLabels.pending_payment, statuses: ['pending_payment'] },
  { key: 'review', label: statusLabels.payment_review, statuses: ['payment_review'] },
  { key: 'to-ship', label: statusLabels.paid, statuses: ['paid'] },
  { key: 'shipping', label: statusLabels.shipped, statuses: ['shipped'] },
  { key: 'done', label: statusLabels.delivered, statuses: ['delivered'] },
  { key: 'closed', label: statusGroupLabel(['cancelled', 'expired']), statuses: ['cancelled', 'expired'] },
];

export function adminTabOf(key: string | null | undefined): (typeof adminOrderTabs)[number] {
  return adminOrderTabs.find((tab) => tab.key === key) ?? adminOrderTabs[0]!;
}

export const ADMIN_ORDER_PAGE_SIZE = 20;

const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
  .optional()
  .catch(undefined);

/** The list's filters as they sit in the URL. Anything malformed falls back to "no filter", never a 500. */
export const adminOrderQuerySchema = z.object({
  tab: z
    .string()
    .optional()
    .transform((value) => adminTabOf(value).key),
  q: z.string().trim().max(100).optional().catch(undefined),
  from: isoDate,
  to: isoDate,
  /** Only on the review tab: slips without a readable QR, or with a warning. */
  slip: z
    .string()
    .optional()
    .transform((value) => parseSlipFilter(value) ?? undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
export type AdminOrderQuery = z.infer<typeof adminOrderQuerySchema>;

export function parseAdminOrderQuery(params: URLSearchParams): AdminOrderQuery {
  return adminOrderQuerySchema.parse(Object.fromEntries(params));
}

/** The URL of the list with these filters (empty ones left out, so links stay short). */
export function adminOrderListUrl(query: Partial<AdminOrderQuery>): string {
  const params = new URLSearchParams();
  if (query.tab && query.tab !== 'all') params.set('tab', query.tab);
  if (query.q) params.set('q', query.q);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (query.slip && query.tab === 'review') params.set('slip', query.slip);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `/admin/orders?${search}` : '/admin/orders';
}

/**
 * Tracking-number formats of carriers whose format is public and stable. A carrier not listed here
 * takes any 6–30 letters and digits.
 */
export const carrierFormats: readonly { match: RegExp; name: string; pattern: RegExp; example: string }[] = [
  // Thailand Post (UPU S10): two letters, nine digits, TH.
  { match: /ไปรษณีย์|thai\s*post|ems/i, name: 'ไปรษณีย์ไทย', pattern: /^[A-Z]{2}\d{9}TH$/, example: 'EF123456789TH' },
  { match: /kerry|เคอรี่/i, name: 'Kerry Express', pattern: /^[A-Z]{3,5}\d{9,12}$/, example: 'SHP5012345678' },
  { match: /flash|แฟลช/i, name: 'Flash Express', pattern: /^TH\d{10,12}[A-Z]?$/, example: 'TH0123456789A' },
  { match: /j\s*&\s*t|เจแอนด์ที/i, name: 'J&T Express', pattern: /^\d{12}$/, example: '820012345678' },
];

/** null when the number fits the carrier (or the carrier has no known format); otherwise a Thai reason. */
export function trackingProblem(carrier: string, trackingNo: string): string | null {
  const value = trackingNo.trim().toUpperCase();
  if (!/^[A-Z0-9-]{6,30}$/.test(value)) return 'เลขพัสดุต้องเป็นตัวอักษรภาษาอังกฤษหรือตัวเลข 6–30 ตัว';
  const known = carrierFormats.find((format) => format.match.test(carrier));
  if (known && !known.pattern.test(value)) return `เลขพัสดุไม่ตรงรูปแบบของ ${known.name} (ตัวอย่าง ${known.example})`;
  return null;
}

/** Calendar date in Bangkok (YYYY-MM-DD) for a moment: the shop's "today". */
export function bangkokDate(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Bangkok', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The instant a Bangkok calendar date starts (UTC+7, no daylight saving). */
export function bangkokDayStart(date: string): Date {
  return new Date(`${date}T00:00:00+07:00`);
}
