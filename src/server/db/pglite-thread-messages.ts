/**
 * What the main thread and the embedded database's thread (pglite-worker.ts) say to each other. Types
 * only, so both sides name the same shapes.
 */
export interface PgliteThreadInit {
  /** The database's directory, or null for one in memory. */
  dataDir: string | null;
  migrationsFolder: string;
  /** For a database in memory: the PGlite dump it starts from, or null for an empty one. */
  snapshot?: string | null;
}

interface Numbered {
  id: number;
}

export type PgliteThreadRequest = Numbered &
  (
    | {
        op: 'query';
        text: string;
        params: unknown[];
        rowMode: 'array' | 'object' | undefined;
        /** Type ids whose values stay text (the only parsers a caller may bring across). */
        textTypes: number[] | undefined;
        tx: number | undefined;
      }
    | { op: 'exec'; text: string; tx: number | undefined }
    | { op: 'begin' }
    | { op: 'end'; tx: number; commit: boolean }
    | { op: 'listen'; channel: string }
    | { op: 'unlisten'; channel: string }
    | { op: 'close' }
  );

/** An error as it crosses: its message and name, and a DatabaseError's fields (code, constraint, …). */
export type SerializedDatabaseError = { name: string; message: string } & Record<string, unknown>;

export type PgliteThreadReply =
  | { id: number; result: unknown; error?: undefined }
  | { id: number; error: SerializedDatabaseError; result?: undefined }
  | { notify: string; payload: string }
  | { ready: true }
  | { ready: false; error: SerializedDatabaseError };
