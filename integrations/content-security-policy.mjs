// @ts-check
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The shop's Content-Security-Policy (docs/decisions/198), shared by astro.config.mjs (Astro's `security.csp`
 * writes it on every page, with the hashes of the inline scripts it renders) and runtime/main.ts (the same
 * directives on every other response). Scripts: the shop's own origin and the hashes of inline scripts,
 * never 'unsafe-inline'. Styles keep 'unsafe-inline': style attributes (React islands, widths and colours
 * set by the server) and the <style> SweetAlert2 adds when it opens cannot carry hashes.
 */
export const CSP_DIRECTIVES = /** @type {const} */ ([
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
  "form-action 'self'",
]);
export const SCRIPT_SOURCES = ["'self'"];
export const STYLE_SOURCES = ["'self'", "'unsafe-inline'"];

/** The policy for a response Astro did not render (JSON, files, the server's own answers): no inline script. */
export function fallbackPolicy() {
  return [CSP_DIRECTIVES[0], `script-src ${SCRIPT_SOURCES.join(' ')}`, `style-src ${STYLE_SOURCES.join(' ')}`, ...CSP_DIRECTIVES.slice(1)].join('; ');
}

function astroFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return astroFiles(file);
    return entry.name.endsWith('.astro') ? [file] : [];
  });
}

/**
 * Hashes of the `<script is:inline>` elements written in the shop's .astro files, which Astro sends as
 * written and does not hash itself (it hashes the scripts it bundles and its island loader). A script
 * with `define:vars` changes with its values and a data block (`type="application/ld+json"`) runs
 * nothing, so neither is hashed. tests/server/csp.test.ts checks every inline script a page sends.
 */
export function inlineScriptHashes(srcDir) {
  const hashes = new Set();
  for (const file of astroFiles(srcDir)) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      const attributes = match[1] ?? '';
      if (!/\bis:inline\b/.test(attributes) || /\bdefine:vars\b/.test(attributes) || /\bsrc=/.test(attributes)) continue;
      if (/\btype=["'](?!module|text\/javascript)/.test(attributes)) continue;
      hashes.add(`sha256-${createHash('sha256').update(match[2] ?? '').digest('base64')}`);
    }
  }
  return [...hashes].sort();
}
