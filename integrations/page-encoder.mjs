// Astro encodes every page it renders with the TextEncoder made in its render/common.js. In the server
// build that encoder becomes src/server/http/page-encoder.ts, which converts a Thai page to UTF-8 in one
// pass instead of two (decision 161). The build fails if Astro's file no longer makes its encoder the
// way this expects, rather than quietly keeping the slower one.
import { fileURLToPath } from 'node:url';
import { astroSourcePatch, replaceOnce } from './astro-source-patch.mjs';

const made = 'const encoder = new TextEncoder();';
const encoderModule = fileURLToPath(new URL('../src/server/http/page-encoder.ts', import.meta.url));

/** Astro's render/common.js with the shop's encoder in place of its own; throws when the line is gone. */
export function withPageEncoder(code, encoderPath = encoderModule) {
  const replaced = replaceOnce(code, made, 'const encoder = __shopPageEncoder;', 'integrations/page-encoder.mjs');
  return `import { pageEncoder as __shopPageEncoder } from ${JSON.stringify(encoderPath)};\n${replaced}`;
}

export default function pageEncoder() {
  return astroSourcePatch('shop-page-encoder', { '/astro/dist/runtime/server/render/common.js': (code) => withPageEncoder(code) });
}
