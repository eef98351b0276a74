import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';
import { IMPORT_BATCH, readImportRows, type ImportRead } from './csv-read.ts';

/**
 * An import file read off the rendering thread (docs/decisions/196). Parsing and checking a 50 MB CSV on
 * the thread that renders pages held every other request, /healthz included, for seconds; on a worker
 * thread the rendering thread only plans each batch of rows against the catalog and waits for the
 * database, as it does for any page. One worker per file read, ended when the reading ends or stops.
 */

export interface CsvReadStart {
  bytes: Uint8Array;
  batchSize: number;
}

export type CsvReadReply = { part: ImportRead } | { done: true } | { error: { status: number; code: string; message: string } };

/** Where the worker's source is: beside this file, or under the working directory from the bundle. */
export function csvReadWorkerFile(): string | null {
  const beside = fileURLToPath(new URL('./csv-read-worker.ts', import.meta.url));
  if (existsSync(beside)) return beside;
  const fromRoot = path.resolve('src/server/catalog-admin/csv-read-worker.ts');
  return existsSync(fromRoot) ? fromRoot : null;
}

let warned = false;

/** The file's header and batches of rows, read on a worker thread (on this one if none can be found). */
export async function* readImportRowsOffThread(bytes: Uint8Array, batchSize = IMPORT_BATCH): AsyncGenerator<ImportRead> {
  const file = csvReadWorkerFile();
  if (!file) {
    if (!warned) log.warn('csv-read-worker.ts not found: import files are read on the rendering thread');
    warned = true;
    yield* readImportRows(bytes, batchSize);
    return;
  }
  const worker = new Worker(file, { workerData: { bytes, batchSize } satisfies CsvReadStart });
  const replies: CsvReadReply[] = [];
  let wake: (() => void) | null = null;
  // Set from the worker's events; an object, so the loop below reads what the handlers wrote.
  const stopped: { error: Error | null } = { error: null };
  worker.on('message', (reply: CsvReadReply) => {
    replies.push(reply);
    wake?.();
  });
  worker.on('error', (error) => {
    stopped.error = error;
    wake?.();
  });
  worker.on('exit', (code) => {
    stopped.error ??= new Error(`the CSV reading thread stopped (exit code ${code})`);
    wake?.();
  });
  try {
    for (;;) {
      while (replies.length === 0) {
        if (stopped.error) throw stopped.error;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      const reply = replies.shift()!;
      if ('done' in reply) return;
      if ('error' in reply) throw new AppError(reply.error.status, reply.error.code, reply.error.message);
      yield reply.part;
      worker.postMessage('next');
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}
