import type { PGlite } from '@electric-sql/pglite';

/**
 * File sizes kept for the embedded database on disk (docs/decisions/125).
 *
 * PostgreSQL learns how many blocks a table or index has with `lseek(fd, 0, SEEK_END)`, for every
 * table and index a plan considers and at the start of every scan: a product page asks it 40 to 100
 * times. Natively that is a cheap system call; in PGlite's Emscripten file system over Node (NODEFS)
 * each one is an `fstatSync` and a Stats object, half a millisecond of a product page at 100,000
 * products. Only this process changes the data directory (it holds the directory's lock,
 * `takeDataDirLock` in client.ts), and every change of a file's size goes through one of the file system's
 * operations below, so a size read once stays true until one of them runs for that file.
 */
const SEEK_END = 2;

interface FileNode {
  mode: number;
}
interface Stream {
  node: FileNode;
}
type StreamOp = (this: unknown, stream: Stream, ...rest: unknown[]) => unknown;
interface NodeFs {
  stream_ops: Record<string, StreamOp> & { llseek: (this: unknown, stream: Stream, offset: number, whence: number) => number };
  node_ops: Record<string, (this: unknown, node: FileNode, ...rest: unknown[]) => unknown>;
}

/**
 * What can change a file's size in this file system: a write (`msync` writes through `write` too),
 * a truncate by descriptor or by path (`setattr`), and an open with O_TRUNC.
 */
const STREAM_OPS_THAT_RESIZE = ['write', 'setattr', 'open'];
const NODE_OPS_THAT_RESIZE = ['setattr'];

/** Returns false (and changes nothing) when this PGlite build's file system is not the expected one. */
export function keepFileSizes(client: PGlite): boolean {
  const nodeFs = (client.Module as unknown as { NODEFS?: NodeFs }).NODEFS;
  const streamOps = nodeFs?.stream_ops;
  const nodeOps = nodeFs?.node_ops;
  if (!streamOps || !nodeOps || typeof streamOps.llseek !== 'function') return false;
  if (!STREAM_OPS_THAT_RESIZE.every((op) => typeof streamOps[op] === 'function') || !NODE_OPS_THAT_RESIZE.every((op) => typeof nodeOps[op] === 'function')) return false;
  const sizes = new WeakMap<FileNode, number>();

  const { llseek } = streamOps;
  streamOps.llseek = function (stream, offset, whence) {
    if (whence !== SEEK_END) return llseek.call(this, stream, offset, whence);
    let size = sizes.get(stream.node);
    if (size === undefined) {
      size = llseek.call(this, stream, 0, SEEK_END);
      sizes.set(stream.node, size);
    }
    // A negative result is refused by the original, with its error.
    return size + offset < 0 ? llseek.call(this, stream, offset, whence) : size + offset;
  };
  for (const op of STREAM_OPS_THAT_RESIZE) {
    const original = streamOps[op]!;
    streamOps[op] = function (stream, ...rest) {
      try {
        return original.call(this, stream, ...rest);
      } finally {
        sizes.delete(stream.node);
      }
    };
  }
  for (const op of NODE_OPS_THAT_RESIZE) {
    const original = nodeOps[op]!;
    nodeOps[op] = function (node, ...rest) {
      try {
        return original.call(this, node, ...rest);
      } finally {
        sizes.delete(node);
      }
    };
  }
  return true;
}
