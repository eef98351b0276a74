import { describe, expect, it } from 'vitest';
import { badBody, badImportedText, badText, badUrlPart, scanBody } from '../../src/server/security/control-chars';

const url = (path: string) => new URL(path, 'http://127.0.0.1:4321');
const post = (body: string, type: string) => new Request('http://127.0.0.1:4321/api/x', { method: 'POST', body, headers: { 'content-type': type } });

describe('text refused at the edge', () => {
  it.each([
    ['NUL', 'a\u0000b', true, true],
    ['escape', '\u001b[31m', true, true],
    ['DEL', 'x\u007f', true, true],
    ['lone high surrogate', 'x\ud800', true, true],
    ['lone low surrogate', '\udc00x', true, true],
    ['line break', 'ชั้น 2\nตึก A', true, false],
    ['tab', 'a\tb', true, false],
    ['Thai, emoji and symbols', 'ตุ๊กตา 🧸 <b>&"\'', false, false],
  ])('%s: strict %s, body %s', (_name, value, strict, body) => {
    expect(badText(value, true)).toBe(strict);
    expect(badText(value, false)).toBe(body);
  });

  it('checks the decoded path and query, and refuses broken percent-encoding', () => {
    expect(badUrlPart(url('/api/product/%00'))).toBe('path');
    expect(badUrlPart(url('/search/a%FFb'))).toBe('path');
    expect(badUrlPart(url('/search/%E0%B8%95%E0%B8%B8%E0%B9%8A%E0%B8%81'))).toBeNull();
    expect(badUrlPart(url('/api/search-suggest?q=%00'))).toBe('query');
    expect(badUrlPart(url('/api/search-suggest?q=%0A'))).toBe('query');
    expect(badUrlPart(url('/api/search-suggest?q=%'))).toBe('query');
    expect(badUrlPart(url('/product?q=100%25+off&sort=price'))).toBeNull();
  });

  it('a typed % that Astro decoded bare is judged on the path as sent, and no control character hides behind it', () => {
    // Astro's reading of the path (decoded until nothing changes), then what the browser sent.
    const astro = (path: string) => url(path.replace(/%25/g, '%'));
    expect(badUrlPart(astro('/search/%E0%B8%A5%E0%B8%94%2050%25'), 'http://shop.test/search/%E0%B8%A5%E0%B8%94%2050%25')).toBeNull();
    expect(badUrlPart(astro('/search/50%25ab'), 'http://shop.test/search/50%25ab')).toBeNull();
    expect(badUrlPart(url('/search/50%'))).toBe('path');
    expect(badUrlPart(url('/search/%FF%'), 'http://shop.test/search/%FF%25')).toBe('path');
    expect(badUrlPart(url('/search/%00%'), 'http://shop.test/search/%2500%25')).toBe('path');
    expect(badUrlPart(url('/search/%ab%01%'), 'http://shop.test/search/%25ab%2501%25')).toBe('path');
  });

  it('reads JSON strings and keys, form fields and plain text; leaves unparsable JSON to the endpoint', async () => {
    expect(await badBody(post(JSON.stringify({ firstName: 'สม\u0000ชาย' }), 'application/json'))).toBe(true);
    expect(await badBody(post(JSON.stringify({ 'a\u0001': 'x' }), 'application/json'))).toBe(true);
    expect(await badBody(post(JSON.stringify({ lines: [{ note: 'ok\nline' }] }), 'application/json'))).toBe(false);
    expect(await badBody(post('{not json', 'application/json'))).toBe(false);
    expect(await badBody(post('login=a%00b&password=x', 'application/x-www-form-urlencoded'))).toBe(true);
    expect(await badBody(post('login=a%40b.c&password=x+y', 'application/x-www-form-urlencoded'))).toBe(false);
    expect(await badBody(post('hello\u0000', 'text/plain'))).toBe(true);
    const form = new FormData();
    form.set('note', 'x\u0000');
    expect(await badBody(new Request('http://127.0.0.1:4321/api/x', { method: 'POST', body: form }))).toBe(true);
    // The endpoint can still read the body after the check.
    const request = post('{"a":"b"}', 'application/json');
    await badBody(request);
    expect(await request.json()).toEqual({ a: 'b' });
  });

  /** A body without a declared size, sent in pieces, as a chunked upload arrives through the adapter. */
  function chunkedPost(pieces: number, pieceBytes: number, type: string): { request: Request; pulled: () => number } {
    let pulled = 0;
    const piece = new TextEncoder().encode('a'.repeat(pieceBytes));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === pieces) return controller.close();
        pulled += 1;
        controller.enqueue(piece);
      },
    });
    const request = new Request('http://127.0.0.1:4321/api/admin/x', { method: 'POST', body, duplex: 'half', headers: { 'content-type': type } } as RequestInit);
    return { request, pulled: () => pulled };
  }

  it.each(['text/plain', 'application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'reads a %s body of unknown size only up to its limit',
    async (type) => {
      const { request, pulled } = chunkedPost(100, 1024, type);
      expect(await scanBody(request, 10 * 1024)).toBe('too_large');
      // It stopped at the limit instead of reading the other ninety pieces.
      expect(pulled()).toBeLessThan(20);
    },
  );

  it('scans a body within its limit and leaves it for the endpoint', async () => {
    const { request } = chunkedPost(5, 1024, 'text/plain');
    expect(await scanBody(request, 10 * 1024)).toBe('clean');
    expect((await request.text()).length).toBe(5 * 1024);
    expect(await scanBody(post('hello\u0000', 'text/plain'), 10 * 1024)).toBe('refused_text');
  });
});

describe('imported cells', () => {
  it.each([
    ['NUL', true, 'a\u0000b'],
    ['BEL', true, 'ding\u0007'],
    ['escape', true, '\u001b[31m'],
    ['RTL override', true, '\u202Egnp.exe'],
    ['left-to-right isolate', true, 'a\u2066b'],
    ['tab and line breaks', false, 'บรรทัด\tหนึ่ง\r\nสอง'],
    ['Thai text', false, 'สินค้า'],
  ])('%s: refused %s', (_, refused, text) => {
    expect(badImportedText(text)).toBe(refused);
  });
});
