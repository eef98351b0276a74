// Writes .br and .gz next to every compressible file of the client build, so the server sends static
// files compressed without spending CPU on each request (runtime/static-files.ts holds them in memory and picks one by Accept-Encoding).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const compressible = /\.(css|js|mjs|svg|json|txt|xml|html|woff)$/;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

export default function precompress() {
  return {
    name: 'shop-precompress',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        let count = 0;
        for await (const file of files(root)) {
          if (!compressible.test(file) || (await stat(file)).size < 1024) continue;
          const content = await readFile(file);
          await writeFile(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
          count++;
        }
        logger.info(`precompressed ${count} client files (br, gz)`);
      },
    },
  };
}
