// `npm run bench`: every benchmark in bench/ that runs against a fresh server, one after another.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const only = process.argv[2];
// Helpers other benchmarks start, and the profiler (it needs a seeded database named by DATA_DIR).
const helpers = new Set(['run.mjs', 'built-server.mjs', 'bare-server.mjs', 'explain-catalog.mjs']);
for (const file of readdirSync(here).filter((name) => name.endsWith('.mjs') && !helpers.has(name)).sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, [path.join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
