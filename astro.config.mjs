// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig, memoryCache } from 'astro/config';
import precompress from './integrations/precompress.mjs';
import reactIslandsTagged from './integrations/react-islands-tagged.mjs';

export default defineConfig({
  output: 'server',
  site: process.env.PUBLIC_SITE_URL || 'http://localhost:4321',
  trailingSlash: 'ignore',
  // Our own Node server (server/main.ts) wraps the adapter: compression, headers, health, shutdown.
  adapter: node({ mode: 'middleware', bodySizeLimit: 64 * 1024 * 1024 }),
  integrations: [react(), reactIslandsTagged(), precompress()],
  // Anonymous catalog and content pages are cached in-process and invalidated by tag when data changes.
  cache: { provider: memoryCache({ max: 2000 }) },
  // src/middleware.ts checks the origin of every state-changing request and answers in the shop's
  // envelope; Astro's own check would refuse first, in English plain text (docs/decisions/140).
  security: { checkOrigin: false },
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
    ssr: {
      external: ['@electric-sql/pglite', '@node-rs/argon2', 'postgres', 'nodemailer'],
    },
  },
});
