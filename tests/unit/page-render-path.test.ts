import { describe, expect, it } from 'vitest';
import { withCachedBodyUncopied, withCspDigestsRemembered, withPageBodyAsStream } from '../../integrations/page-render-path.mjs';
import { replaceOnce } from '../../integrations/astro-source-patch.mjs';
import { installedAstroFile } from '../fixtures/astro-source';

describe('integrations/page-render-path.mjs', () => {
  it("gives the installed Astro's whole-page Response a one-chunk stream of the page's bytes", () => {
    const code = withPageBodyAsStream(installedAstroFile('dist/runtime/server/render/page.js'));
    expect(code).toContain('controller.enqueue(__shopBytes); controller.close();');
    expect(code).toContain('headers.set("Content-Length", __shopBytes.byteLength.toString());');
    expect(code).not.toContain('body = encoder.encode(body);');
  });

  it("makes the installed Astro's route cache keep a one-chunk body's own buffer, and copy anything else", async () => {
    const code = withCachedBodyUncopied(installedAstroFile('dist/core/cache/memory-provider.js'));
    expect(code).toContain('const body = await __shopBodyBytes(response);');
    expect(code).not.toContain('await response.arrayBuffer()');
    // The helper as it is put into Astro's file, run on real Responses.
    const helperSource = code.slice(code.indexOf('async function __shopBodyBytes'), code.indexOf('async function serializeResponse'));
    const bodyBytes = new Function(`${helperSource}; return __shopBodyBytes;`)() as (response: Response) => Promise<ArrayBuffer>;
    const page = new TextEncoder().encode('<!doctype html><p>ของขวัญ</p>');
    const oneChunk = new Response(new ReadableStream({ start: (controller) => (controller.enqueue(page), controller.close()) }));
    expect(await bodyBytes(oneChunk)).toBe(page.buffer);
    const view = new Uint8Array(page.buffer, 3, 5);
    const partOfABuffer = new Response(new ReadableStream({ start: (controller) => (controller.enqueue(view), controller.close()) }));
    const copied = await bodyBytes(partOfABuffer);
    expect(copied).not.toBe(page.buffer);
    expect(new Uint8Array(copied)).toEqual(view);
    const parts = [new TextEncoder().encode('ของ'), new TextEncoder().encode('ขวัญ')];
    const twoChunks = new Response(new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }));
    expect(new TextDecoder().decode(await bodyBytes(twoChunks))).toBe('ของขวัญ');
    expect((await bodyBytes(new Response(null))).byteLength).toBe(0);
  });

  it("makes the installed Astro's CSP digest of a text once, the same digest as Astro's own", async () => {
    const original = installedAstroFile('dist/core/encryption.js');
    const code = withCspDigestsRemembered(original);
    expect(code).toContain('const known = __shopCspDigests.get(key);');
    // Both versions of the function, run beside a counting digest, on the same texts.
    const digestsOf = (source: string) => {
      const start = source.indexOf('const __shopCspDigests') >= 0 ? source.indexOf('const __shopCspDigests') : source.indexOf('async function generateCspDigest');
      const end = source.indexOf('async function generateContentHash');
      let made = 0;
      const subtle = { digest: (algorithm: string, bytes: Uint8Array<ArrayBuffer>) => ((made += 1), crypto.subtle.digest(algorithm, bytes)) };
      const encodeBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
      const generate = new Function('crypto', 'encoder', 'encodeBase64', 'ALGORITHMS', `${source.slice(start, end)}; return generateCspDigest;`)(
        { subtle },
        new TextEncoder(),
        encodeBase64,
        { 'SHA-256': 'sha256-' },
      ) as (data: string | undefined, algorithm: string) => Promise<string>;
      return { generate, made: () => made };
    };
    const astro = digestsOf(original);
    const shop = digestsOf(code);
    for (const text of ['console.log("ของขวัญ")', undefined, 'console.log("ของขวัญ")', undefined]) {
      expect(await shop.generate(text, 'SHA-256')).toBe(await astro.generate(text, 'SHA-256'));
    }
    expect(astro.made()).toBe(4);
    expect(shop.made()).toBe(2);
    expect(await shop.generate('alert(1)', 'SHA-256')).toBe(`sha256-${Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('alert(1)'))).toString('base64')}`);
  });

  it('fails the build when Astro no longer reads as expected', () => {
    expect(() => withPageBodyAsStream('body = encoder.encode(text);')).toThrow(/update integrations\/page-render-path\.mjs/);
    expect(() => withCachedBodyUncopied('const body = await response.text();')).toThrow(/update integrations\/page-render-path\.mjs/);
    expect(() => withCspDigestsRemembered('function digest(data) {}')).toThrow(/update integrations\/page-render-path\.mjs/);
  });

  it('replaces a line only when it occurs exactly once', () => {
    expect(replaceOnce('a; b; c;', 'b;', 'B;', 'here')).toBe('a; B; c;');
    expect(() => replaceOnce('b; b;', 'b;', 'B;', 'here')).toThrow(/exactly one "b;": update here/);
    expect(() => replaceOnce('a;', 'b;', 'B;', 'here')).toThrow(/update here/);
  });
});
