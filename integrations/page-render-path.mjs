// Changes to the way Astro's server runtime hands a rendered page on (docs/decisions/167, 229, 232), each
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

/**
 * Astro's render/page.js turning a page rendered whole into UTF-8 through ICU rather than TextEncoder
 * (docs/decisions/232). A page is a string of two-byte characters (its Thai), which V8's UTF-8 writer
 * walks a character at a time: about 0.33 ms of the rendering thread's CPU for a 90 KB listing page,
 * an eighth of the page's whole cost. Copying the string out as UTF-16 and converting it with
 * `buffer.transcode` (ICU) makes the same bytes in about a sixth of that. ICU refuses a lone surrogate
 * (text no shop page should hold, but a name pasted from somewhere might), so such a page falls back to
 * TextEncoder, which writes U+FFFD for it as before.
 */
export function withPageUtf8ByIcu(code) {
  const helper = [
    'const { Buffer: __shopBuffer, transcode: __shopTranscode } = process.getBuiltinModule("node:buffer");',
    'function __shopUtf8(text) {',
    '  try {',
    '    const bytes = __shopTranscode(__shopBuffer.from(text, "utf16le"), "utf16le", "utf8");',
    '    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);',
    '  } catch {',
    '    return encoder.encode(text);',
    '  }',
    '}',
    'async function renderPage(',
  ].join('\n');
  const declared = replaceOnce(code, 'async function renderPage(', helper, owner);
  return replaceOnce(declared, 'encoder.encode(body);', '__shopUtf8(body);', owner);
}

/**
 * @astrojs/react's server renderer keeping the HTML of an island whose component says its server HTML
 * depends on its props and slots alone (`serverHtmlFromPropsAndSlots`, docs/decisions/232): the navbar's
 * cart button and account menu are rendered by React on every page, with the same props (none), the same
 * slots (an icon) and the same id prefix in the same place of the page, and so the same HTML. The memo is
 * keyed by the prefix, the props and the slots' HTML; a form's action state, children, or a component
 * without the mark render as before. Past 64 keys a component's memo is emptied.
 */
export function withMarkedIslandHtmlRemembered(code) {
  const helper = [
    'const __shopIslandHtml = new WeakMap();',
    'function __shopIslandKey(Component, prefix, props, slotted, children, formState) {',
    '  if (Component?.serverHtmlFromPropsAndSlots !== true || formState || children != null || props.children != null) return null;',
    '  return JSON.stringify([prefix ?? null, props, Object.entries(slotted).map(([name, value]) => [name, String(value)])]);',
    '}',
    'async function renderToStaticMarkup(',
  ].join('\n');
  const declared = replaceOnce(code, 'async function renderToStaticMarkup(', helper, owner);
  const lookedUp = replaceOnce(
    declared,
    'const vnode = React.createElement(Component, newProps);',
    [
      'const __shopKey = __shopIslandKey(Component, prefix, props, slotted, children, formState);',
      '  const __shopKnown = __shopKey === null ? undefined : __shopIslandHtml.get(Component)?.get(__shopKey);',
      '  if (__shopKnown !== undefined) return { html: __shopKnown, attrs };',
      '  const vnode = React.createElement(Component, newProps);',
    ].join('\n'),
    owner,
  );
  return replaceOnce(
    lookedUp,
    'return { html, attrs };\n}',
    [
      'if (__shopKey !== null) {',
      '    let known = __shopIslandHtml.get(Component);',
      '    if (!known) __shopIslandHtml.set(Component, (known = new Map()));',
      '    if (known.size >= 64) known.clear();',
      '    known.set(__shopKey, html);',
      '  }',
      '  return { html, attrs };',
      '}',
    ].join('\n'),
    owner,
  );
}

/**
 * Each change by its switch name (SHOP_PATCHES_OFF in astro.config.mjs), with the file it changes. Two
 * changes of one file are applied in this order.
 */
export const pageRenderPathPatches = {
  'page-body-stream': ['/astro/dist/runtime/server/render/page.js', withPageBodyAsStream],
  'page-utf8-by-icu': ['/astro/dist/runtime/server/render/page.js', withPageUtf8ByIcu],
  'cached-body-uncopied': ['/astro/dist/core/cache/memory-provider.js', withCachedBodyUncopied],
  'csp-digests-remembered': ['/astro/dist/core/encryption.js', withCspDigestsRemembered],
  'marked-island-html-remembered': ['/@astrojs/react/dist/server.js', withMarkedIslandHtmlRemembered],
};

/** The changes not named in `off` (a set of switch names). */
export default function pageRenderPath(off = new Set()) {
  const byFile = new Map();
  for (const [name, [file, patch]] of Object.entries(pageRenderPathPatches)) {
    if (off.has(name)) continue;
    const earlier = byFile.get(file);
    byFile.set(file, earlier ? (code) => patch(earlier(code)) : patch);
  }
  return astroSourcePatch('shop-page-render-path', Object.fromEntries(byFile));
}
