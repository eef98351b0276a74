import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { CommandResult } from './commands.ts';

/**
 * The operator socket: a Unix socket in DATA_DIR through which `npm run shop` asks the running server to
 * carry out a command, so the embedded database (one process only) need not be stopped
 * (docs/decisions/080-operator-cli-through-the-server.md). The socket file is 0600 in the data directory:
 * whoever may read the database files may use it, nobody else, and nothing listens on the network.
 *
 * Protocol: the client writes one JSON line `{ argv, operator }`; the server answers one JSON line
 * `CommandResult` and closes.
 */
export function operatorSocketPath(dataDir: string): string {
  return path.resolve(dataDir, 'operator.sock');
}

const MAX_REQUEST_BYTES = 64 * 1024;

export async function startOperatorSocket(
  dataDir: string,
  run: (argv: string[], operator: string) => Promise<CommandResult>,
  log: (message: string, fields?: Record<string, unknown>) => void = () => {},
): Promise<{ close(): Promise<void>; path: string }> {
  const socketPath = operatorSocketPath(dataDir);
  mkdirSync(path.dirname(socketPath), { recursive: true });
  // A socket file left by a process that died: nothing answers on it, so it can go.
  if (existsSync(socketPath)) {
    if (await answers(socketPath)) throw new Error(`Another server already listens on ${socketPath}`);
    rmSync(socketPath, { force: true });
  }
  // Commands run one after another, as they would from one terminal.
  let queue: Promise<unknown> = Promise.resolve();
  const server = net.createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_REQUEST_BYTES) return socket.destroy();
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      socket.pause();
      let request: { argv?: unknown; operator?: unknown };
      try {
        request = JSON.parse(buffered.slice(0, newline)) as typeof request;
      } catch {
        return reply(socket, { exitCode: 2, out: '', err: 'Malformed operator request' });
      }
      const argv = Array.isArray(request.argv) ? request.argv.map(String) : [];
      const operator = typeof request.operator === 'string' ? request.operator.slice(0, 64) : 'unknown';
      log('operator command', { command: argv[0] ?? '', operator });
      const result = queue.then(() => run(argv, operator));
      queue = result.catch(() => undefined);
      result.then(
        (answer) => reply(socket, answer),
        (error: unknown) => reply(socket, { exitCode: 1, out: '', err: error instanceof Error ? error.message : String(error) }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, 0o600);
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

function reply(socket: net.Socket, result: CommandResult): void {
  socket.end(`${JSON.stringify(result)}\n`);
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * Sends a command to the server listening in DATA_DIR. Null when no server listens there (the CLI then
 * opens the database itself).
 */
export function sendOperatorCommand(dataDir: string, argv: readonly string[], operator: string, timeoutMs = 120_000): Promise<CommandResult | null> {
  const socketPath = operatorSocketPath(dataDir);
  if (!existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answer = '';
    let connected = false;
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('The server did not answer the operator command in time')));
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ argv, operator })}\n`);
    });
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (!connected) resolve(null);
      else reject(error);
    });
    socket.once('end', () => {
      try {
        resolve(JSON.parse(answer) as CommandResult);
      } catch {
        reject(new Error('The server sent a malformed answer to the operator command'));
      }
    });
  });
}
