/**
 * The operators' tool: `npm run shop -- <command>` (the commands: src/server/operator/commands.ts). Uses
 * the server's configuration (DATABASE_URL, DATA_DIR) and the same rules as the shop, acting as staff.
 * On the embedded database a running server holds DATA_DIR; the command is then carried out by that
 * server through its operator socket, so nobody has to stop the shop (docs/decisions/080).
 */
import { userInfo } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

process.env.SEED_DEMO = 'false';
// No expiry sweep here (the server starts it at its start-up): a command runs once, and
// `expire-unpaid` sweeps on demand.
process.env.ORDER_SWEEP_SECONDS = '0';
// No background worker here: commands drain the outbox themselves before exiting.
process.env.MAIL_POLL_SECONDS = '0';
process.env.LOG_LEVEL ??= 'warn';

const argv = process.argv.slice(2);
if (argv.length === 0) {
  const { USAGE } = await import('../src/server/operator/commands.ts');
  console.error(USAGE);
  process.exit(2);
}
const { ConfigError, env } = await import('../src/server/env.ts');
let config: ReturnType<typeof env>;
try {
  config = env();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}

function finish(result: { exitCode: number; out: string; err: string }): never {
  if (result.out) console.log(result.out);
  if (result.err) console.error(result.err);
  process.exit(result.exitCode);
}

// A backup's file is named by the operator here, but may be written by the server (another cwd).
if (argv[0] === 'backup') {
  const out = argv.indexOf('--out');
  if (out >= 0 && argv[out + 1]) argv[out + 1] = path.resolve(argv[out + 1]!);
}

if (argv[0] === 'restore') {
  const { values, positionals } = parseArgs({ args: argv.slice(1), allowPositionals: true, options: { database: { type: 'string' } } });
  const file = positionals[0];
  if (!file) {
    console.error('restore needs the archive: npm run shop -- restore FILE [--database postgres://…]');
    process.exit(2);
  }
  const url = values.database ?? config.DATABASE_URL;
  if (url === 'memory://') {
    console.error('restore needs a database that outlives this command: DATA_DIR (embedded) or --database postgres://…');
    process.exit(2);
  }
  if (!url?.startsWith('postgres')) {
    // The embedded database's server must be stopped: restore opens DATA_DIR itself.
    const { sendOperatorCommand } = await import('../src/server/operator/socket.ts');
    const running = await sendOperatorCommand(config.DATA_DIR, ['--help'], userInfo().username).catch(() => null);
    if (running) {
      console.error(`A shop server is running on ${config.DATA_DIR}: stop it before restoring into it.`);
      process.exit(1);
    }
  }
  const [{ restoreBackup }, { ArchiveError }, { storage }] = await Promise.all([
    import('../src/server/backup/restore.service.ts'),
    import('../src/server/backup/archive.ts'),
    import('../src/server/storage/storage.ts'),
  ]);
  try {
    const done = await restoreBackup(path.resolve(file), { url, dataDir: config.DATA_DIR, storage: storage() });
    console.log(`Restored ${done.manifest.createdAt} (${done.manifest.database}, migration ${done.manifest.migrations.count}) into ${url?.startsWith('postgres') ? url.replace(/\/\/[^@/]*@/, '//…@') : config.DATA_DIR}`);
    console.log(`  ${done.rows.toLocaleString('en')} rows, ${done.files} files${done.migratedForward > 0 ? `, then ${done.migratedForward} newer migrations` : ''}; took ${(done.ms / 1000).toFixed(1)} s`);
    await new Promise((resolve) => process.stdout.write('', resolve));
    process.exit(0);
  } catch (error) {
    console.error(`Not restored: ${error instanceof ArchiveError ? error.message : error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

const onEmbedded = !config.DATABASE_URL?.startsWith('postgres');
if (onEmbedded) {
  const { sendOperatorCommand } = await import('../src/server/operator/socket.ts');
  const answered = await sendOperatorCommand(config.DATA_DIR, argv, userInfo().username).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
  if (answered) finish(answered);
  if (config.DATABASE_URL === 'memory://') {
    console.error(`No shop server answers in ${config.DATA_DIR}: an in-memory database lives only inside its server.`);
    process.exit(1);
  }
}

const { database } = await import('../src/server/db/client.ts');
const { runShutdownHooks } = await import('../src/server/lifecycle.ts');
try {
  await database();
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    /in use by process/.test(message)
      ? `${message}\nThe server holds the embedded database but its operator socket did not answer; is it still starting?`
      : `Could not open the database: ${message}`,
  );
  process.exit(1);
}
const { runOperatorCommand } = await import('../src/server/operator/commands.ts');
const result = await runOperatorCommand(argv);
await runShutdownHooks();
finish(result);
