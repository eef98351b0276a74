/**
 * The UTF-8 encoder Astro renders pages with, in the server build (integrations/page-encoder.mjs
 * puts it in place of the `new TextEncoder()` in Astro's render/common.js; docs/decisions/161).
 *
 * Astro turns a page into bytes with one `encode()` of the whole page: 14 % of the rendering thread
 * under listing load. A Thai page is a two-byte string of some 60,000 characters; on the shop's 69 KB
 * listing page Node's `encode()` took 126-157 µs, where `encodeInto()` into a buffer already long
 * enough took 70 µs, and copying the bytes out of it 11-27 µs more.
 */
const native = new TextEncoder();

/** Shorter strings encode as fast natively; longer ones would keep too large a scratch buffer. */
const MIN_LENGTH = 4096;
const MAX_LENGTH = 1 << 20;

let scratch = new Uint8Array(0);

export function encodeUtf8(text: string): Uint8Array {
  if (text.length < MIN_LENGTH || text.length > MAX_LENGTH) return native.encode(text);
  // One UTF-16 code unit is at most three bytes of UTF-8 (a surrogate pair, two units, is four).
  const longest = text.length * 3;
  if (scratch.length < longest) scratch = new Uint8Array(longest);
  const { written } = native.encodeInto(text, scratch);
  // A copy: the caller keeps its bytes while the scratch buffer serves the next page.
  return scratch.slice(0, written);
}

/** TextEncoder's shape, for the code that called `new TextEncoder()`. */
export const pageEncoder = {
  encoding: 'utf-8',
  encode: (input: unknown = ''): Uint8Array => encodeUtf8(String(input)),
  encodeInto: (input: string, destination: Uint8Array) => native.encodeInto(input, destination),
};
