import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { closePgliteInstance, openPgliteInstance } from './pglite-open.ts';
import type { PgliteThreadInit, PgliteThreadReply, PgliteThreadRequest, SerializedDatabaseError } from './pglite-thread-messages.ts';

/**
 * The embedded database on a thread of its own (pglite-thread.ts starts it, docs/decisions/156). It
 * owns the PGlite instance: it opens and migrates it, keeps its prepared statements, runs what the
 * main thread sends, holds transactions open between the main thread's statements, and passes on
 * NOTIFY payloads. Erasable TypeScript only: Node runs this file directly, not through the bundle.
 */
const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread');
const init = workerData as PgliteThreadInit;

/** The rejection a transaction is ended with when the main thread rolls it back. */
const ROLLBACK = Symbol('rollback');

interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean): void;
  ended: Promise<void>;
}

function serializeError(error: unknown): SerializedDatabaseError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  // DatabaseError's fields (code, constraint, detail, table, …) are own properties; the structured
  // clone of an Error would drop them.
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'object') continue;
    fields[key] = value;
  }
  return { ...fields, name: error.name, message: error.message };
}

/** Drizzle's parsers keep dates, times and intervals as their text; they are named by type id. */
const keepText = (value: string) => value;
const textParsersOf = new Map<string, Record<number, (value: string) => string>>();
function textParsers(types: number[] | undefined): Record<number, (value: string) => string> | undefined {
  if (!types?.length) return undefined;
  const key = types.join(',');
  let parsers = textParsersOf.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, keepText]));
    textParsersOf.set(key, parsers);
  }
  return parsers;
}

const transactions = new Map<number, OpenTransaction>();
const listeners = new Map<string, () => Promise<void>>();
let transactionCounter = 0;

function begin(client: PGlite): Promise<number> {
  const id = ++transactionCounter;
  return new Promise<number>((begun, failed) => {
    let end: (commit: boolean) => void = () => {};
    const decided = new Promise<void>((commit, rollback) => {
      end = (shouldCommit) => (shouldCommit ? commit() : rollback(ROLLBACK));
    });
    // Kept from an unhandled rejection until `ended` is awaited.
    decided.catch(() => {});
    const ended = client.transaction(async (tx) => {
      transactions.set(id, { tx, end, ended });
      begun(id);
      await decided;
    });
    ended.catch((error: unknown) => {
      if (!transactions.has(id)) failed(error);
    });
  });
}

async function finish(id: number, commit: boolean): Promise<void> {
  const open = transactions.get(id);
  if (!open) throw new Error(`no open transaction ${id}`);
  transactions.delete(id);
  open.end(commit);
  try {
    await open.ended;
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
}

function target(client: PGlite, tx: number | undefined): PGlite | Transaction {
  if (tx === undefined) return client;
  const open = transactions.get(tx);
  if (!open) throw new Error(`no open transaction ${tx}`);
  return open.tx;
}

async function answer(client: PGlite, request: PgliteThreadRequest): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const options = { rowMode: request.rowMode, parsers: textParsers(request.textTypes) };
      return target(client, request.tx).query(request.text, request.params, options);
    }
    case 'exec':
      return target(client, request.tx).exec(request.text);
    case 'begin':
      return begin(client);
    case 'end':
      return finish(request.tx, request.commit);
    case 'listen': {
      if (!listeners.has(request.channel)) {
        const channel = request.channel;
        const unlisten = await client.listen(channel, (payload) => port?.postMessage({ notify: channel, payload } satisfies PgliteThreadReply));
        listeners.set(channel, unlisten);
      }
      return undefined;
    }
    case 'unlisten': {
      const unlisten = listeners.get(request.channel);
      listeners.delete(request.channel);
      if (unlisten && !client.closed) await unlisten();
      return undefined;
    }
    case 'close':
      return closePgliteInstance(client);
  }
}

try {
  const client = await openPgliteInstance(init.dataDir, init.migrationsFolder, init.snapshot ?? null);
  port.on('message', (request: PgliteThreadRequest) => {
    answer(client, request).then(
      (result) => port.postMessage({ id: request.id, result } satisfies PgliteThreadReply),
      (error: unknown) => port.postMessage({ id: request.id, error: serializeError(error) } satisfies PgliteThreadReply),
    );
  });
  port.postMessage({ ready: true } satisfies PgliteThreadReply);
} catch (error) {
  port.postMessage({ ready: false, error: serializeError(error) } satisfies PgliteThreadReply);
}
