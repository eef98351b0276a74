// `npm start`: builds the site when the build is missing or older than the sources, then serves it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const entry = path.join(root, 'dist/server/entry.mjs');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, name)));
  return newest;
}

const sources = ['src', 'public', 'astro.config.mjs', 'package-lock.json'].map((name) => path.join(root, name));
const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
if (built === 0 || Math.max(...sources.map(newestMtime)) > built) {
  console.log(built === 0 ? 'Building the shop (first start)…' : 'Sources changed since the last build: rebuilding…');
  const result = spawnSync(path.join(root, 'node_modules/.bin/astro'), ['build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

process.chdir(root);
await import('../runtime/main.ts');
