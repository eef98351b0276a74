// `npm run bench`: every benchmark in bench/ that runs against a fresh server, one after another.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const only = process.argv[2];
for (const file of readdirSync(here).filter((name) => name.endsWith('.mjs') && name !== 'run.mjs').sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, [path.join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
