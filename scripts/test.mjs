// `npm test`: type check, lint, unit and integration tests (PGlite in memory), then the end-to-end
// suite in Chromium against a fresh build of the server. Stops at the first failing step.
import { spawn, spawnSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { findChromium } from './find-chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', PATH: `${path.join(root, 'node_modules/.bin')}:${process.env.PATH}` };
const only = process.argv.slice(2);
const timings = [];

function record(label, seconds) {
  timings.push([label, seconds]);
  // .ci/run collects every step's wall time, these included, into one table.
  if (process.env.STEP_TIMES_FILE) appendFileSync(process.env.STEP_TIMES_FILE, `${label}\t${Math.round(Number(seconds))}\n`);
}

function run(label, command, args, extraEnv = {}) {
  if (only.length > 0 && !only.includes(label)) return;
  const started = Date.now();
  console.log(`\n▶ ${label}: ${[path.basename(command), ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✖ ${label} failed after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${label} (${seconds}s)`);
  record(label, seconds);
}

/**
 * Steps that share nothing, side by side: each of them keeps one core busy for a while at most (the type
 * check and lint are single-threaded), so in a row they left a core idle. Each step's output is held and
 * printed whole when it ends, so the log reads as if they had run one after another.
 */
async function runTogether(label, steps) {
  const chosen = steps.filter((step) => only.length === 0 || only.includes(step.label));
  if (chosen.length === 0) return;
  const started = Date.now();
  console.log(`\n▶ ${label}: ${chosen.map((step) => step.label).join(', ')} side by side`);
  const results = await Promise.all(
    chosen.map(
      (step) =>
        new Promise((resolve) => {
          const stepStarted = Date.now();
          const child = spawn(step.command, step.args, { cwd: root, env: { ...env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('close', (status) => {
            const seconds = ((Date.now() - stepStarted) / 1000).toFixed(1);
            console.log(`\n▶ ${step.label}: ${[path.basename(step.command), ...step.args].join(' ')}`);
            process.stdout.write(Buffer.concat(output));
            console.log(status === 0 ? `✔ ${step.label} (${seconds}s)` : `✖ ${step.label} failed after ${seconds}s`);
            resolve({ ...step, status, seconds });
          });
        }),
    ),
  );
  for (const result of results) record(result.label, result.seconds);
  record(label, ((Date.now() - started) / 1000).toFixed(1));
  const failed = results.find((result) => result.status !== 0);
  if (failed) process.exit(failed.status ?? 1);
}

// One type check: astro check reads tsconfig.json and checks its .ts and .tsx files as tsc would,
// the .astro files besides (a separate tsc pass checked the same files a second time). The build waits:
// it writes .astro/ as the type check starts by doing.
await runTogether('checks', [
  { label: 'astro-check', command: bin('astro'), args: ['check', '--minimumSeverity', 'warning'] },
  { label: 'lint', command: bin('eslint'), args: ['--max-warnings=0', '.'] },
  { label: 'unit', command: bin('vitest'), args: ['run', '--project', 'unit'] },
]);
run('integration', bin('vitest'), ['run', '--project', 'integration'], { TEST_DATABASE_URL: '' });
run('build', bin('astro'), ['build']);
run('server', bin('vitest'), ['run', '--project', 'server']);
if (only.length === 0 || only.includes('e2e')) {
  const chromium = await findChromium();
  console.log(`Chromium for end-to-end tests: ${chromium.path} (${chromium.source})`);
  rmSync(path.join(root, 'test-results'), { recursive: true, force: true });
  run('e2e', bin('playwright'), ['test'], { PLAYWRIGHT_CHROMIUM_EXECUTABLE: chromium.path });
}
console.log('\nWall time per step:');
for (const [label, seconds] of timings) console.log(`  ${label.padEnd(12)} ${seconds.padStart(7)} s`);
console.log('\nAll checks passed.');
