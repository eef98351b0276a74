// `npm test`: type check, lint, unit and integration tests (PGlite in memory), then the end-to-end
// suite in Chromium against a fresh build of the server. Stops at the first failing step.
import { spawnSync } from 'node:child_process';
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { findChromium } from './find-chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', PATH: `${path.join(root, 'node_modules/.bin')}:${process.env.PATH}` };
const only = process.argv.slice(2);
const timings = [];

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
  timings.push([label, seconds]);
  // .ci/run collects every step's wall time, these included, into one table.
  if (process.env.STEP_TIMES_FILE) appendFileSync(process.env.STEP_TIMES_FILE, `${label}\t${Math.round(Number(seconds))}\n`);
}

// One type check: astro check reads tsconfig.json and checks its .ts and .tsx files as tsc would,
// the .astro files besides (a separate tsc pass checked the same files a second time).
run('astro-check', bin('astro'), ['check', '--minimumSeverity', 'warning']);
run('lint', bin('eslint'), ['--max-warnings=0', '.']);
run('unit', bin('vitest'), ['run', '--project', 'unit']);
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
