import { storage } from '../storage/storage.ts';
import type { ImportReport } from './csv-import.service.ts';

/** What the import page shows for a kept file: its check, and once applied, the result. Private storage. */
export interface StoredImportReport {
  stage: 'checked' | 'applied';
  fileName: string;
  report: ImportReport;
}

const keyOf = (token: string) => `imports/${token}.json`;

export async function saveImportReport(token: string, value: StoredImportReport): Promise<void> {
  await storage().put('private', keyOf(token), new TextEncoder().encode(JSON.stringify(value)), 'application/json');
}

export async function loadImportReport(token: string): Promise<StoredImportReport | null> {
  if (!/^[a-f0-9]{32}$/.test(token)) return null;
  const stored = await storage().get('private', keyOf(token));
  if (!stored) return null;
  try {
    return JSON.parse(new TextDecoder().decode(stored.bytes)) as StoredImportReport;
  } catch {
    return null;
  }
}
