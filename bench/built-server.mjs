// Starts the built shop server (`npm run build` first) for a benchmark and waits until /readyz answers.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * @param {{ port: number, env?: Record<string, string> }} options env overrides; without DATABASE_URL
 *   or DATA_DIR the server gets a fresh in-memory demo shop.
 * @returns {Promise<{ base: string, stop: () => Promise<void>, pid: number }>}
 */
export async function startBuiltServer({ port, env = {} }) {
  const base = `http://127.0.0.1:${port}`;
  const database = env.DATABASE_URL || env.DATA_DIR ? {} : { DATABASE_URL: 'memory://' };
  const server = spawn(process.execPath, ['runtime/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...database, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () =>
    new Promise((resolve) => {
      if (server.exitCode !== null) return resolve();
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { base, stop, pid: server.pid };
    } catch {
      // still starting
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error('server did not become ready');
}
