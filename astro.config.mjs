// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';
import { defineConfig, memoryCache } from 'astro/config';
import precompress from './integrations/precompress.mjs';
import lazyImportWithoutPreload from './integrations/lazy-import-without-preload.mjs';
import pageRenderPath, { pageRenderPathPatches } from './integrations/page-render-path.mjs';
import { CSP_DIRECTIVES, inlineScriptHashes, SCRIPT_SOURCES, STYLE_SOURCES } from './integrations/content-security-policy.mjs';

// Each of the shop's changes to Astro's and Vite's own code can be left out of a build, to measure it
// alone or to build on a new Astro before its change is updated (docs/upgrading-astro.md), e.g.
// SHOP_PATCHES_OFF=page-body-stream,lazy-import npm run build
const patchNames = [...Object.keys(pageRenderPathPatches), 'lazy-import'];
const patchesOff = new Set((process.env.SHOP_PATCHES_OFF ?? '').split(',').map((name) => name.trim()).filter(Boolean));
for (const name of patchesOff) {
  if (!patchNames.includes(name)) throw new Error(`SHOP_PATCHES_OFF: unknown change "${name}"; known: ${patchNames.join(', ')}`);
}

// What every catalog page loads (see codeSplitting below). `\0` ids are the bundler's and Vite's helpers.
const everyCatalogPage = new RegExp(
  [
    String.raw`node_modules[\\/](react|react-dom|scheduler|nanostores|@nanostores)[\\/]`,
    String.raw`node_modules[\\/]@astrojs[\\/]react[\\/]dist[\\/](client|static-html)\.js`,
    String.raw`src[\\/]stores[\\/](cart|auth)\.ts`,
    String.raw`src[\\/]lib[\\/](money|pricing|cart-limits|roles|use-hydrated|use-store)\.ts`,
    String.raw`src[\\/]components[\\/](cart[\\/]CartButton\.tsx|account[\\/]UserMenu\.tsx)`,
    String.raw`^\0`,
  ].join('|'),
);

export default defineConfig({
  output: 'server',
  site: process.env.PUBLIC_SITE_URL || 'http://localhost:4321',
  trailingSlash: 'ignore',
  // Our own Node server (runtime/main.ts) wraps the adapter: compression, headers, health, shutdown.
  // Pages are rendered whole, not streamed: the server compresses (and caches) a page in one piece
  // anyway, and streaming cost a promise and a text encoding per chunk (docs/decisions/149).
  adapter: node({ mode: 'middleware', bodySizeLimit: 64 * 1024 * 1024, experimentalDisableStreaming: true }),
  integrations: [
    react({ experimentalDisableStreaming: true }),
    pageRenderPath(patchesOff),
    ...(patchesOff.has('lazy-import') ? [] : [lazyImportWithoutPreload()]),
    precompress(),
  ],
  // Anonymous catalog and content pages are cached in-process and invalidated by tag when data changes.
  cache: { provider: memoryCache({ max: 2000 }) },
  // src/middleware.ts checks the origin of every state-changing request and answers in the shop's
  // envelope; Astro's own check would refuse first, in English plain text (docs/decisions/052).
  // Content-Security-Policy on every page: scripts only from the shop and by the hash of each inline
  // script (Astro's island loader, its small bundled scripts, the shop's own is:inline ones), no
  // 'unsafe-inline'. The hashes are worked out at build time, the same for every page, so cached and
  // finished pages stay shared (docs/decisions/198).
  security: {
    checkOrigin: false,
    csp: {
      algorithm: 'SHA-256',
      directives: [...CSP_DIRECTIVES],
      scriptDirective: {
        resources: SCRIPT_SOURCES,
        hashes: /** @type {`sha256-${string}`[]} */ (inlineScriptHashes(fileURLToPath(new URL('./src', import.meta.url)))),
      },
      styleDirective: { resources: STYLE_SOURCES },
    },
  },
  prefetch: false,
  devToolbar: { enabled: false },
  build: { inlineStylesheets: 'never' },
  vite: {
    css: {
      preprocessorOptions: {
        scss: {
          quietDeps: true,
          silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
        },
      },
    },
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: {
              // Everything every catalog page loads goes into one chunk: React, the navbar islands, the
              // stores and the navbar's script. One gzip stream instead of fifteen files keeps those
              // pages under the 75 KB script budget (docs/design.md section 15, docs/decisions/146). Other
              // islands (cart page, checkout, account, back office) stay in their own chunks and import
              // React from this one. A module added to what the navbar loads belongs in this list; what
              // it loads only when used (the open cart panel, the member's menu, the cards' add-to-cart)
              // stays out of it and is fetched then (docs/decisions/212).
              codeSplitting: { groups: [{ name: 'shop', test: (id) => everyCatalogPage.test(id) }] },
            },
          },
        },
      },
    },
    resolve: {
      // The ES module build: the default (its "browser" field, a UMD file) needed the bundler's CommonJS
      // interop on every page that can open an alert.
      alias: [{ find: /^sweetalert2$/, replacement: 'sweetalert2/dist/sweetalert2.esm.all.js' }],
    },
    ssr: {
      external: ['@electric-sql/pglite', '@node-rs/argon2', 'postgres', 'nodemailer'],
    },
  },
});
