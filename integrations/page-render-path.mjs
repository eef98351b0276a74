// Two changes to the way Astro's server runtime hands a rendered page on (docs/decisions/167), each
// measured alone on uncached listing pages, several alternating runs (docs/decisions/203):
// - A page rendered whole (streaming is off, astro.config.mjs) becomes a Response over a one-chunk
//   stream of its bytes instead of over the bytes themselves. Given bytes, undici copies them into the
//   Response, and the route cache's `clone()` then copies every chunk again for its second branch; a
//   plain stream's chunks are shared by both branches and copied by neither.
// - The route cache keeps that one chunk's buffer as the cached body instead of concatenating the
//   chunks into a new one. Nothing writes into it: the response side only reads (runtime/zlib.ts hashes
//   and compresses it), and a cache hit answers with a copy of it, as before.
import { astroSourcePatch, replaceOnce } from './astro-source-patch.mjs';

const owner = 'integrations/page-render-path.mjs';

/** Astro's render/page.js giving a page rendered whole to its Response as a one-chunk stream. */
export function withPageBodyAsStream(code) {
  return replaceOnce(
    code,
    'body = encoder.encode(body);\n    headers.set("Content-Length", body.byteLength.toString());',
    [
      'const __shopBytes = encoder.encode(body);',
      'headers.set("Content-Length", __shopBytes.byteLength.toString());',
      'body = new ReadableStream({ start(controller) { controller.enqueue(__shopBytes); controller.close(); } });',
    ].join('\n    '),
    owner,
  );
}

/** Astro's core/cache/memory-provider.js keeping a one-chunk body's own buffer rather than a copy. */
export function withCachedBodyUncopied(code) {
  const helper = [
    '',
    'async function __shopBodyBytes(response) {',
    '  if (!response.body) return new ArrayBuffer(0);',
    '  const reader = response.body.getReader();',
    '  const chunks = [];',
    '  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);',
    '  const only = chunks.length === 1 ? chunks[0] : null;',
    '  if (only && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength) return only.buffer;',
    '  const bytes = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.byteLength, 0));',
    '  let at = 0;',
    '  for (const chunk of chunks) { bytes.set(chunk, at); at += chunk.byteLength; }',
    '  return bytes.buffer;',
    '}',
    'async function serializeResponse(response, request, maxAge, swr, tags) {',
  ].join('\n');
  const declared = replaceOnce(code, 'async function serializeResponse(response, request, maxAge, swr, tags) {', helper, owner);
  return replaceOnce(declared, 'const body = await response.arrayBuffer();', 'const body = await __shopBodyBytes(response);', owner);
}

/**
 * Astro's core/encryption.js remembering the CSP digests it made. On every page Astro hashes each of the
 * route's styles and scripts for the Content-Security-Policy (a WebCrypto digest, a trip to the thread
 * pool each), though they are the same texts on every request: the route's external stylesheets (no
 * text at all) and the shop's inline scripts. A digest depends on its text alone, so each is made once;
 * the memo is emptied past 512 texts, so texts that do vary (server islands) cannot grow it for ever.
 */
export function withCspDigestsRemembered(code) {
  return replaceOnce(
    code,
    'async function generateCspDigest(data, algorithm) {',
    [
      'const __shopCspDigests = new Map();',
      'async function generateCspDigest(data, algorithm) {',
      '  const key = `${algorithm}\u0000${data ?? ""}`;',
      '  const known = __shopCspDigests.get(key);',
      '  if (known !== undefined) return known;',
      '  const digest = await __shopCspDigest(data, algorithm);',
      '  if (__shopCspDigests.size >= 512) __shopCspDigests.clear();',
      '  __shopCspDigests.set(key, digest);',
      '  return digest;',
      '}',
      'async function __shopCspDigest(data, algorithm) {',
    ].join('\n'),
    owner,
  );
}

/** Each change by its switch name (SHOP_PATCHES_OFF in astro.config.mjs), with the file it changes. */
export const pageRenderPathPatches = {
  'page-body-stream': ['/astro/dist/runtime/server/render/page.js', withPageBodyAsStream],
  'cached-body-uncopied': ['/astro/dist/core/cache/memory-provider.js', withCachedBodyUncopied],
  'csp-digests-remembered': ['/astro/dist/core/encryption.js', withCspDigestsRemembered],
};

/** The changes not named in `off` (a set of switch names). */
export default function pageRenderPath(off = new Set()) {
  const kept = Object.entries(pageRenderPathPatches).filter(([name]) => !off.has(name));
  return astroSourcePatch('shop-page-render-path', Object.fromEntries(kept.map(([, patch]) => patch)));
}
