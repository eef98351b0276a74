import { describe, expect, it } from 'vitest';
import { withCachedBodyUncopied, withCspDigestsRemembered, withMarkedIslandHtmlRemembered, withPageBodyAsStream, withPageUtf8ByIcu } from '../../integrations/page-render-path.mjs';
import { replaceOnce } from '../../integrations/astro-source-patch.mjs';
import { installedAstroFile } from '../fixtures/astro-source';

describe('integrations/page-render-path.mjs', () => {
  it("gives the installed Astro's whole-page Response a one-chunk stream of the page's bytes", () => {
    const code = withPageBodyAsStream(installedAstroFile('dist/runtime/server/render/page.js'));
    expect(code).toContain('controller.enqueue(__shopBytes); controller.close();');
    expect(code).toContain('headers.set("Content-Length", __shopBytes.byteLength.toString());');
    expect(code).not.toContain('body = encoder.encode(body);');
  });

  it("turns the installed Astro's whole page into the same UTF-8 bytes as TextEncoder, through ICU", () => {
    const original = installedAstroFile('dist/runtime/server/render/page.js');
    // Alone, and after the one-chunk stream change (the order the build applies them in).
    for (const code of [withPageUtf8ByIcu(original), withPageUtf8ByIcu(withPageBodyAsStream(original))]) {
      expect(code).toContain('__shopUtf8(body);');
      expect(code).not.toContain('encoder.encode(body)');
    }
    const code = withPageUtf8ByIcu(original);
    const helperSource = code.slice(code.indexOf('const { Buffer: __shopBuffer'), code.indexOf('async function renderPage('));
    const utf8 = new Function('process', 'encoder', `${helperSource}; return __shopUtf8;`)(process, new TextEncoder()) as (text: string) => Uint8Array;
    const texts = [
      '',
      '<!DOCTYPE html><p>ascii only</p>',
      `<h1>ลิปสติกเนื้อแมตต์ สีส้มพีช</h1>${'<li>ของขวัญ ฿1,290</li>'.repeat(2000)}`,
      'การ์ด 🎂🎉 ❤️ 👍🏽',
      // A lone surrogate, which ICU refuses: TextEncoder's U+FFFD, as before.
      'ชื่อ\uD800สินค้า',
      'end\uDC00',
    ];
    for (const text of texts) {
      const bytes = utf8(text);
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(bytes).equals(Buffer.from(new TextEncoder().encode(text)))).toBe(true);
      // Its own buffer, whole: the route cache keeps it without a copy (withCachedBodyUncopied).
      if (bytes.byteLength > 4096) expect([bytes.byteOffset, bytes.buffer.byteLength]).toEqual([0, bytes.byteLength]);
    }
  });

  it("makes @astrojs/react's renderer keep the HTML of a marked island, keyed by its prefix, props and slots", async () => {
    const code = withMarkedIslandHtmlRemembered(installedAstroFile('../@astrojs/react/dist/server.js'));
    expect(code).toContain('if (__shopKnown !== undefined) return { html: __shopKnown, attrs };');
    // The renderer as the build changes it, run with a React stand-in that counts its renders.
    const body = code.slice(code.indexOf('const __shopIslandHtml'), code.indexOf('async function getFormState'));
    let renders = 0;
    const React = { createElement: (type: unknown, props: Record<string, unknown>) => ({ type, props }) };
    const ReactDOM = {
      renderToString: (vnode: { type: (props: Record<string, unknown>) => string; props: Record<string, unknown> }) => ((renders += 1), vnode.type(vnode.props)),
    };
    let ids = 0;
    const render = new Function(
      'React',
      'ReactDOM',
      'opts',
      'incrementId',
      'StaticHtml',
      'slotName',
      'needsHydration',
      'getFormState',
      `${body}; return renderToStaticMarkup;`,
    )(React, ReactDOM, { experimentalDisableStreaming: true }, () => `r${(ids += 1)}`, 'static-html', (name: string) => name, () => true, async () => undefined) as (
      this: unknown,
      Component: unknown,
      props: Record<string, unknown>,
      slots: Record<string, unknown>,
    ) => Promise<{ html: string; attrs: { prefix?: string } }>;
    const CartButton = Object.assign((props: { label?: string }) => `<button>${props.label ?? 'ตะกร้า'}</button>`, { serverHtmlFromPropsAndSlots: true });
    const Unmarked = (props: { label?: string }) => `<p>${props.label ?? ''}</p>`;
    const page = () => ({ result: {} });

    ids = 0;
    const first = await render.call(page(), CartButton, {}, { icon: '<svg></svg>' });
    ids = 0;
    const again = await render.call(page(), CartButton, {}, { icon: '<svg></svg>' });
    expect(again).toEqual(first);
    expect(renders).toBe(1);
    // Other props, another slot's HTML or another place in the page (prefix) render anew.
    ids = 0;
    expect((await render.call(page(), CartButton, { label: 'ถุง' }, { icon: '<svg></svg>' })).html).toBe('<button>ถุง</button>');
    ids = 0;
    await render.call(page(), CartButton, {}, { icon: '<svg class="x"></svg>' });
    ids = 5;
    expect((await render.call(page(), CartButton, {}, { icon: '<svg></svg>' })).attrs.prefix).toBe('r6');
    expect(renders).toBe(4);
    // A component without the mark, or with children, is rendered every time.
    await render.call(page(), Unmarked, {}, {});
    await render.call(page(), Unmarked, {}, {});
    await render.call(page(), CartButton, {}, { default: '<b>child</b>' });
    expect(renders).toBe(7);
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
    expect(() => withMarkedIslandHtmlRemembered('async function renderToStaticMarkup() {}')).toThrow(/update integrations\/page-render-path\.mjs/);
    expect(() => withPageUtf8ByIcu('async function renderPage() { return text; }')).toThrow(/update integrations\/page-render-path\.mjs/);
    expect(() => withCspDigestsRemembered('function digest(data) {}')).toThrow(/update integrations\/page-render-path\.mjs/);
  });

  it('replaces a line only when it occurs exactly once', () => {
    expect(replaceOnce('a; b; c;', 'b;', 'B;', 'here')).toBe('a; B; c;');
    expect(() => replaceOnce('b; b;', 'b;', 'B;', 'here')).toThrow(/exactly one "b;": update here/);
    expect(() => replaceOnce('a;', 'b;', 'B;', 'here')).toThrow(/update here/);
  });
});
