// `npm test`: type check, lint, unit and integration tests (PGlite in memory), then the end-to-end
// suite in Chromium against a fresh build of the server. Stops at the first failing step.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { findChromium } from './find-chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', PATH: `${path.join(root, 'node_modules/.bin')}:${process.env.PATH}` };
const only = process.argv.slice(2);

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
}

run('astro-check', bin('astro'), ['check', '--minimumSeverity', 'warning']);
run('tsc', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
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
console.log('\nAll checks passed.');
