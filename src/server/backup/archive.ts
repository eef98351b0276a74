/**
 * The shop's backup archive: one gzip-compressed tar file (tar-stream) of a table per file
 * (`tables/<name>.json`, its rows as a JSON array), the uploads (`files/<public|private>/<key>`) and,
 * last, `manifest.json` with the sha256 of every other entry. A reader checks every checksum, and a cut
 * or damaged file fails in gunzip or in the tar reader, so a restore never starts from a broken archive.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { Visibility } from '../storage/driver.ts';

export const ARCHIVE_FORMAT = 'yimlamai-shop-backup';
export const ARCHIVE_VERSION = 1;

export interface TableEntry {
  name: string;
  rows: number;
  sha256: string;
}

export interface FileEntry {
  visibility: Visibility;
  key: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  shopVersion: string;
  /** How many of drizzle/'s migrations the database had, and the last one's tag. */
  migrations: { count: number; last: string };
  createdAt: string;
  database: 'pglite' | 'postgres';
  tables: TableEntry[];
  /** Each sequence's state, for `setval` after the rows are in (order numbers continue without a gap). */
  sequences: Record<string, { value: string; isCalled: boolean }>;
  files: FileEntry[];
}

export class ArchiveError extends Error {}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Writes entries as they come; `finish` adds the manifest with their checksums. */
export function archiveWriter(file: string) {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip({ level: 6 }), createWriteStream(file, { mode: 0o600 }));
  const add = (name: string, bytes: Uint8Array) =>
    new Promise<string>((resolve, reject) => {
      pack.entry({ name, size: bytes.byteLength, mtime: new Date(0), mode: 0o600 }, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), (error) =>
        error ? reject(error) : resolve(sha256(bytes)),
      );
    });
  return {
    async table(name: string, rows: unknown[]): Promise<TableEntry> {
      return { name, rows: rows.length, sha256: await add(`tables/${name}.json`, Buffer.from(JSON.stringify(rows))) };
    },
    async file(visibility: Visibility, key: string, bytes: Uint8Array): Promise<FileEntry> {
      return { visibility, key, bytes: bytes.byteLength, sha256: await add(`files/${visibility}/${key}`, bytes) };
    },
    async finish(manifest: Manifest): Promise<void> {
      await add('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
      pack.finalize();
      await written;
    },
    async abort(): Promise<void> {
      pack.destroy();
      await written.catch(() => {});
    },
  };
}

export interface ReadArchive {
  manifest: Manifest;
  tableRows(name: string): Record<string, unknown>[];
  fileBytes(visibility: Visibility, key: string): Uint8Array;
}

/**
 * Reads a whole archive into memory and checks it: gzip and tar intact, a manifest of this format,
 * every entry named in it present with its checksum, nothing else. Throws ArchiveError with the reason.
 */
export async function readArchive(file: string): Promise<ReadArchive> {
  const entries = new Map<string, Buffer>();
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      entries.set(header.name, Buffer.concat(chunks));
      next();
    });
    // A cut archive fails inside an entry; the pipeline below reports it.
    stream.on('error', () => {});
    stream.resume();
  });
  try {
    await pipeline(createReadStream(file), createGunzip(), extract);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ArchiveError(`no such file: ${file}`);
    throw new ArchiveError(`the archive is damaged or cut short (${code ?? (error as Error).message})`);
  }
  const manifestBytes = entries.get('manifest.json');
  if (!manifestBytes) throw new ArchiveError('the archive has no manifest.json (cut short, or not a shop backup)');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
  } catch {
    throw new ArchiveError('manifest.json is not valid JSON');
  }
  if (manifest.format !== ARCHIVE_FORMAT) throw new ArchiveError('not a shop backup (manifest format)');
  if (manifest.version > ARCHIVE_VERSION) throw new ArchiveError(`archive format ${manifest.version} is newer than this shop reads (${ARCHIVE_VERSION})`);
  const expected = new Map<string, string>([
    ...manifest.tables.map((table) => [`tables/${table.name}.json`, table.sha256] as const),
    ...manifest.files.map((entry) => [`files/${entry.visibility}/${entry.key}`, entry.sha256] as const),
  ]);
  for (const [name, checksum] of expected) {
    const bytes = entries.get(name);
    if (!bytes) throw new ArchiveError(`${name} is missing from the archive`);
    if (sha256(bytes) !== checksum) throw new ArchiveError(`${name} does not match its checksum`);
  }
  for (const name of entries.keys()) {
    if (name !== 'manifest.json' && !expected.has(name)) throw new ArchiveError(`${name} is in the archive but not in its manifest`);
  }
  return {
    manifest,
    tableRows(name) {
      return JSON.parse(entries.get(`tables/${name}.json`)!.toString('utf8')) as Record<string, unknown>[];
    },
    fileBytes(visibility, key) {
      return new Uint8Array(entries.get(`files/${visibility}/${key}`)!);
    },
  };
}
