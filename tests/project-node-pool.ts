import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ForksPoolWorker, type PoolOptions, type PoolRunnerInitializer } from 'vitest/node';

/**
 * The test files run on the project's Node (the `node` devDependency), whichever Node started vitest.
 * The shop's code needs type stripping (Node 22.18+): the PGlite worker thread and the server are
 * `.ts` files that Node loads itself. A plain `vitest` on an older system Node forked its workers on
 * that Node, and every integration file failed at its first database ("Unknown file extension .ts")
 * with its tests marked skipped.
 *
 * Vitest forks each worker with `child_process.fork`, which takes its binary from process.execPath
 * when the worker starts; this pool is vitest's own forks pool with that binary set to the project's
 * Node for the duration of the (synchronous) fork. When vitest already runs on a Node that strips
 * types, or the project's Node is not installed, the ordinary forks pool is used.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

function strips(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 18);
}

function projectNode(): string | null {
  if (strips(process.versions.node)) return null;
  const binary = path.join(root, 'node_modules/node/bin', process.platform === 'win32' ? 'node.exe' : 'node');
  return existsSync(binary) ? binary : null;
}

class ProjectNodeForksWorker extends ForksPoolWorker {
  override readonly name = 'project-node-forks';

  private readonly node: string;

  constructor(options: PoolOptions, node: string) {
    super(options);
    this.node = node;
  }

  override start(): Promise<void> {
    const own = process.execPath;
    process.execPath = this.node;
    try {
      return super.start();
    } finally {
      process.execPath = own;
    }
  }
}

/** The pool for vitest.config.ts: `forks`, on the project's Node when the running one is too old. */
export function projectNodePool(): 'forks' | PoolRunnerInitializer {
  const node = projectNode();
  if (node === null) return 'forks';
  return { name: 'project-node-forks', createPoolWorker: (options) => new ProjectNodeForksWorker(options, node) };
}
