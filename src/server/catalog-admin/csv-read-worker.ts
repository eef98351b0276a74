import { parentPort, workerData } from 'node:worker_threads';
import { readImportRows } from './csv-read.ts';
import type { CsvReadReply, CsvReadStart } from './csv-read-thread.ts';

/**
 * Reads an import file on a thread of its own (csv-read-thread.ts starts it, docs/decisions/196): decodes
 * it, parses it piece by piece and checks every row, then hands the rows over one batch at a time,
 * reading on only when the main thread asks for the next (so a 60 MB file never waits whole in messages).
 * Erasable TypeScript only: Node runs this file directly, not through the bundle.
 */
const port = parentPort;
if (!port) throw new Error('csv-read-worker.ts runs as a worker thread');
const start = workerData as CsvReadStart;

const send = (reply: CsvReadReply) => port.postMessage(reply);
const asked = () => new Promise<void>((resolve) => port.once('message', () => resolve()));

try {
  for await (const part of readImportRows(start.bytes, start.batchSize)) {
    send({ part });
    await asked();
  }
  send({ done: true });
} catch (error) {
  const { status, code, message } = error as { status?: number; code?: string; message?: string };
  send({ error: { status: typeof status === 'number' ? status : 500, code: typeof code === 'string' ? code : 'csv_read_failed', message: message ?? String(error) } });
}
