import { parse } from 'csv-parse/sync';
import { getDb } from '../db/client.ts';
import { AppError, badRequest } from '../http/errors.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import { getCompany } from '../company/company.service.ts';
import { trackingProblem } from '../../lib/admin-orders.ts';
import { statusLabels } from '../../lib/orders.ts';
import * as adminRepo from './admin-orders.repo.ts';
import { changeOrderStatus } from './order.service.ts';

/**
 * Shipping many orders from a carrier's CSV (docs/design.md section 10): order number, tracking number and,
 * optionally, the carrier. A preview checks every row first and says why each refused row is refused;
 * applying checks again under the row lock, since orders may move between preview and apply.
 */
export const MAX_IMPORT_BYTES = 1024 * 1024;
export const MAX_IMPORT_ROWS = 2000;

export interface ImportRow {
  line: number;
  orderNo: string;
  trackingNo: string;
  carrier: string;
  /** null: this row will ship the order. */
  problem: string | null;
}

const HEADER_NAMES: Record<string, 'order' | 'tracking' | 'carrier'> = {
  order_no: 'order',
  order: 'order',
  orderno: 'order',
  'เลขที่คำสั่งซื้อ': 'order',
  'คำสั่งซื้อ': 'order',
  tracking_no: 'tracking',
  tracking: 'tracking',
  trackingno: 'tracking',
  'เลขพัสดุ': 'tracking',
  carrier: 'carrier',
  'ขนส่ง': 'carrier',
  'บริษัทขนส่ง': 'carrier',
};

function parseCsv(text: string): { line: number; orderNo: string; trackingNo: string; carrier: string }[] {
  if (Buffer.byteLength(text, 'utf8') > MAX_IMPORT_BYTES) throw badRequest('csv_too_large', 'ไฟล์ CSV ต้องมีขนาดไม่เกิน 1 MB');
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true, delimiter: [',', ';', '\t'] }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw badRequest('csv_invalid', `อ่านไฟล์ CSV ไม่ได้${line ? ` (บรรทัดที่ ${line})` : ''}: ตรวจเครื่องหมายคำพูดและจุลภาค`);
  }
  if (records.length === 0) throw badRequest('csv_empty', 'ไฟล์ CSV ไม่มีข้อมูล');
  let columns = { order: 0, tracking: 1, carrier: 2 };
  let first = 0;
  const header = records[0]!.map((cell) => cell.trim().toLowerCase().replace(/\s+/g, '_'));
  if (header.some((cell) => HEADER_NAMES[cell])) {
    const find = (kind: 'order' | 'tracking' | 'carrier') => header.findIndex((cell) => HEADER_NAMES[cell] === kind);
    columns = { order: find('order'), tracking: find('tracking'), carrier: find('carrier') };
    if (columns.order < 0 || columns.tracking < 0) throw badRequest('csv_header', 'หัวตารางต้องมีคอลัมน์ order_no (เลขที่คำสั่งซื้อ) และ tracking_no (เลขพัสดุ)');
    first = 1;
  }
  const rows = records.slice(first);
  if (rows.length > MAX_IMPORT_ROWS) throw badRequest('csv_too_many_rows', `นำเข้าได้ครั้งละไม่เกิน ${MAX_IMPORT_ROWS} แถว`);
  return rows.map((cells, index) => ({
    line: index + first + 1,
    orderNo: (cells[columns.order] ?? '').trim().toUpperCase(),
    trackingNo: (cells[columns.tracking] ?? '').trim().toUpperCase(),
    carrier: columns.carrier >= 0 ? (cells[columns.carrier] ?? '').trim() : '',
  }));
}

/** Every row with the reason it would be refused, or null when it will ship. Nothing changes. */
export async function previewTrackingImport(text: string): Promise<ImportRow[]> {
  const parsed = parseCsv(text);
  const db = await getDb();
  const company = await getCompany();
  const known = await adminRepo.ordersByNumbers(db, [...new Set(parsed.map((row) => row.orderNo).filter(Boolean))]);
  const byNo = new Map(known.map((row) => [row.orderNo, row]));
  const seen = new Set<string>();
  return parsed.map((row) => {
    const problem = (() => {
      if (!row.orderNo) return 'ไม่มีเลขที่คำสั่งซื้อ';
      if (!/^[A-Z0-9-]{4,40}$/.test(row.orderNo)) return 'เลขที่คำสั่งซื้อไม่ถูกต้อง';
      if (seen.has(row.orderNo)) return 'เลขที่คำสั่งซื้อซ้ำกับแถวก่อนหน้าในไฟล์';
      seen.add(row.orderNo);
      const order = byNo.get(row.orderNo);
      if (!order) return 'ไม่พบคำสั่งซื้อนี้';
      if (order.status !== 'paid') return `สถานะตอนนี้คือ "${statusLabels[order.status]}" ไม่ใช่ "${statusLabels.paid}"`;
      if (!row.trackingNo) {
        const needs = company.deliveryOptions.find((option) => option.code === order.deliveryCode)?.trackingUrl != null;
        return needs ? 'ไม่มีเลขพัสดุ' : null;
      }
      return trackingProblem(row.carrier || order.deliveryName, row.trackingNo);
    })();
    return { ...row, problem };
  });
}

export interface ImportResult {
  shipped: string[];
  refused: { line: number; orderNo: string; reason: string }[];
}

/** Ships every row the preview accepts; each order in its own transaction with its audit row. */
export async function applyTrackingImport(actor: AuditActor, text: string): Promise<ImportResult> {
  const rows = await previewTrackingImport(text);
  const result: ImportResult = { shipped: [], refused: [] };
  for (const row of rows) {
    if (row.problem) {
      result.refused.push({ line: row.line, orderNo: row.orderNo, reason: row.problem });
      continue;
    }
    try {
      await changeOrderStatus(
        { type: 'staff', id: actor.id },
        row.orderNo,
        { action: 'ship', trackingNo: row.trackingNo || undefined, carrier: row.carrier || undefined, note: 'นำเข้าเลขพัสดุจากไฟล์ CSV' },
        { audit: actor, expectedStatus: 'paid' },
      );
      result.shipped.push(row.orderNo);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      result.refused.push({ line: row.line, orderNo: row.orderNo, reason: error.message });
    }
  }
  return result;
}

/** The CSV text of an upload (a file field) or a paste (a text field), whichever was sent. */
export async function csvFromForm(form: FormData): Promise<string> {
  const file = form.get('file');
  if (file instanceof File && file.size > 0) {
    if (file.size > MAX_IMPORT_BYTES) throw badRequest('csv_too_large', 'ไฟล์ CSV ต้องมีขนาดไม่เกิน 1 MB');
    return new TextDecoder('utf-8').decode(await file.arrayBuffer());
  }
  const text = String(form.get('csv') ?? '');
  if (!text.trim()) throw badRequest('csv_missing', 'กรุณาเลือกไฟล์ CSV หรือวางข้อมูล');
  return text;
}
