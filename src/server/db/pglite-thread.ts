import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import type { PgliteThreadInit, PgliteThreadReply, PgliteThreadRequest, SerializedDatabaseError } from './pglite-thread-messages.ts';

/**
 * The embedded database run on a worker thread of its own (docs/decisions/156), seen from the main
 * thread through the part of PGlite's interface the shop and Drizzle use: `query`, `exec`,
 * `transaction`, `listen`, `close`. PGlite is WebAssembly on the thread that calls it; in the same
 * thread as rendering, a third of an uncached page's time went to it. On its own thread it works while
 * the main thread renders other requests, as a PostgreSQL server's processes do.
 */

type Request = PgliteThreadRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;
type Parsers = NonNullable<QueryOptions['parsers']>;

/** The type ids of parsers that return a value's text unchanged (Drizzle's, for dates and times). */
const textTypesOf = new WeakMap<Parsers, number[]>();
function textTypes(parsers: Parsers | undefined): number[] | undefined {
  if (!parsers) return undefined;
  let types = textTypesOf.get(parsers);
  if (!types) {
    types = Object.entries(parsers).map(([type, parse]) => {
      // A function cannot cross to the other thread; one that keeps the text can be named instead.
      const probe = '2000-01-02 03:04:05';
      if (parse(probe, Number(type)) !== probe) throw new Error(`the database thread takes only parsers that keep a value's text (type ${type})`);
      return Number(type);
    });
    textTypesOf.set(parsers, types);
  }
  return types;
}

/** The error as thrown in the database's thread, with a DatabaseError's fields (code, constraint, …). */
function revive(serialized: SerializedDatabaseError): Error {
  const { name, message, ...fields } = serialized;
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  return error;
}

export interface PgliteThreadTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Results[]>;
  readonly closed: boolean;
}

export interface PgliteThread extends PgliteThreadTransaction {
  transaction<T>(run: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Where the worker's source is: beside this file, or under the working directory from the bundle. */
export function pgliteWorkerFile(): string | null {
  const beside = fileURLToPath(new URL('./pglite-worker.ts', import.meta.url));
  if (existsSync(beside)) return beside;
  const fromRoot = path.resolve('src/server/db/pglite-worker.ts');
  return existsSync(fromRoot) ? fromRoot : null;
}

export async function startPgliteThread(workerFile: string, init: PgliteThreadInit): Promise<PgliteThread> {
  const worker = new Worker(workerFile, { workerData: init });
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let counter = 0;
  let closed = false;
  let exited: Error | null = null;

  try {
    await new Promise<void>((resolve, reject) => {
      const onStartFailure = (error: Error) => reject(error);
      worker.once('error', onStartFailure);
      worker.once('message', (reply: PgliteThreadReply) => {
        worker.off('error', onStartFailure);
        if ('ready' in reply && reply.ready) resolve();
        else reject('error' in reply && reply.error ? revive(reply.error) : new Error('the database thread did not start'));
      });
    });
  } catch (error) {
    await worker.terminate();
    throw error;
  }

  worker.unref();
  worker.on('message', (reply: PgliteThreadReply) => {
    if ('notify' in reply) {
      for (const listener of listeners.get(reply.notify) ?? []) listener(reply.payload);
      return;
    }
    if (!('id' in reply)) return;
    const pending = waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id);
    if (waiting.size === 0) worker.unref();
    if (reply.error) pending.reject(revive(reply.error));
    else pending.resolve(reply.result);
  });
  const failAll = (error: Error) => {
    exited = error;
    closed = true;
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  };
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`the database thread stopped (exit code ${code})`)));

  function call<T>(request: Request): Promise<T> {
    if (exited) return Promise.reject(exited);
    const id = ++counter;
    // Held open only while an answer is awaited, so a script that forgets to close still ends.
    if (waiting.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id } as PgliteThreadRequest);
    });
  }

  function session(tx: number | undefined): PgliteThreadTransaction {
    return {
      query: async <T,>(text: string, params: unknown[] = [], options?: QueryOptions) => {
        if (options?.blob || options?.serializers || options?.paramTypes) {
          throw new Error('the database thread takes no blobs, serializers or parameter types');
        }
        return call<Results<T>>({ op: 'query', text, params, rowMode: options?.rowMode, textTypes: textTypes(options?.parsers), tx });
      },
      exec: (text: string) => call<Results[]>({ op: 'exec', text, tx }),
      get closed() {
        return closed;
      },
    };
  }

  return {
    ...session(undefined),
    get closed() {
      return closed;
    },
    async transaction<T>(run: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T> {
      const tx = await call<number>({ op: 'begin' });
      let result: T;
      try {
        result = await run(session(tx));
      } catch (error) {
        await call({ op: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    async listen(channel: string, onMessage: (payload: string) => void) {
      let channelListeners = listeners.get(channel);
      if (!channelListeners) {
        channelListeners = new Set();
        listeners.set(channel, channelListeners);
        await call({ op: 'listen', channel });
      }
      channelListeners.add(onMessage);
      return async () => {
        const current = listeners.get(channel);
        current?.delete(onMessage);
        if (current?.size === 0) {
          listeners.delete(channel);
          if (!closed) await call({ op: 'unlisten', channel });
        }
      };
    },
    async close() {
      if (closed) return;
      await call({ op: 'close' });
      closed = true;
      await worker.terminate();
    },
  };
}
