// Astro encodes every page it renders with the TextEncoder made in its render/common.js. In the server
// build that encoder becomes src/server/http/page-encoder.ts, which converts a Thai page to UTF-8 in one
// pass instead of two (decision 161). The build fails if Astro's file no longer makes its encoder the
// way this expects, rather than quietly keeping the slower one.
import { fileURLToPath } from 'node:url';

const astroRenderCommon = /\/astro\/dist\/runtime\/server\/render\/common\.js$/;
const made = 'const encoder = new TextEncoder();';
const encoderModule = fileURLToPath(new URL('../src/server/http/page-encoder.ts', import.meta.url));

/** Astro's render/common.js with the shop's encoder in place of its own; throws when the line is gone. */
export function withPageEncoder(code, encoderPath = encoderModule) {
  if (!code.includes(made)) throw new Error(`astro/dist/runtime/server/render/common.js no longer has "${made}": update integrations/page-encoder.mjs`);
  return `import { pageEncoder as __shopPageEncoder } from ${JSON.stringify(encoderPath)};\n${code.replace(made, 'const encoder = __shopPageEncoder;')}`;
}

function pageEncoderPlugin() {
  let replaced = false;
  return {
    name: 'shop-page-encoder',
    // The build only: the dev server may load Astro's runtime without bundling it, and speed is not its job.
    apply: 'build',
    applyToEnvironment: (environment) => environment.config.consumer === 'server',
    transform(code, id) {
      if (!astroRenderCommon.test(id.split('?')[0])) return null;
      replaced = true;
      return { code: withPageEncoder(code), map: null };
    },
    buildEnd(error) {
      if (!error && !replaced) this.error('Astro render/common.js was not in the server build: update integrations/page-encoder.mjs');
    },
  };
}

export default function pageEncoder() {
  return {
    name: 'shop-page-encoder',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [pageEncoderPlugin()] } });
      },
    },
  };
}
