import { describe, expect, it } from 'vitest';
import { encodeUtf8, pageEncoder } from '../../src/server/http/page-encoder';
import { withPageEncoder } from '../../integrations/page-encoder.mjs';
import { installedAstroFile } from '../fixtures/astro-source';

const native = new TextEncoder();
const thaiPage = (length: number) => {
  const part = '<div class="card"><a href="/product/P00001">ตุ๊กตาหมีน่ารัก ของขวัญวันเกิด</a> ราคา ฿1,290</div>\n';
  return part.repeat(Math.ceil(length / part.length)).slice(0, length);
};

describe('the page encoder', () => {
  it('gives the bytes TextEncoder gives: Thai pages, emoji, lone surrogates, either side of its length limits', () => {
    const samples = [
      '',
      'ascii only',
      thaiPage(100),
      thaiPage(4095),
      thaiPage(4096),
      thaiPage(60_000),
      `${thaiPage(5000)}🎁🎉 ของขวัญ 🎂`,
      // Lone surrogates become U+FFFD, as TextEncoder writes them.
      `${thaiPage(5000)}\uD83D tail \uDE00${'x'.repeat(10)}\uD83D`,
      thaiPage((1 << 20) + 10),
    ];
    for (const text of samples) expect(Buffer.from(encodeUtf8(text)).equals(Buffer.from(native.encode(text)))).toBe(true);
  });

  it('hands each caller bytes of its own: a later page does not change an earlier one', () => {
    const first = encodeUtf8(thaiPage(20_000));
    const copy = Uint8Array.from(first);
    const second = encodeUtf8(`${'ข'.repeat(20_000)}`);
    expect(first).toEqual(copy);
    expect(first.buffer).not.toBe(second.buffer);
    expect(first.byteLength).toBe(first.buffer.byteLength);
  });

  it("has TextEncoder's encode and encodeInto, and encodes what is not a string as TextEncoder does", () => {
    expect(pageEncoder.encoding).toBe('utf-8');
    expect(Buffer.from(pageEncoder.encode(12.5)).toString()).toBe('12.5');
    expect(pageEncoder.encode().byteLength).toBe(0);
    const target = new Uint8Array(10);
    expect(pageEncoder.encodeInto('ก', target)).toEqual({ read: 1, written: 3 });
  });
});

describe('integrations/page-encoder.mjs', () => {
  it("puts the shop's encoder in place of the one in the installed Astro's render/common.js", () => {
    const code = withPageEncoder(installedAstroFile('dist/runtime/server/render/common.js'), '/shop/page-encoder.ts');
    expect(code).toContain('import { pageEncoder as __shopPageEncoder } from "/shop/page-encoder.ts";');
    expect(code).toContain('const encoder = __shopPageEncoder;');
    expect(code).not.toContain('new TextEncoder()');
  });

  it('fails the build when Astro no longer makes its encoder that way', () => {
    expect(() => withPageEncoder('const textEncoder = new TextEncoder();')).toThrow(/update integrations\/page-encoder\.mjs/);
  });
});
