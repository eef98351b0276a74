/**
 * Request body limits on the built server (needs `astro build`, docs/decisions/102 and 173): a body
 * over its path's limit is refused from its declared length before it is read, a body of unknown
 * length outside the staff allowance is refused before it is read, and only staff get the back
 * office's 64 MB. The refusals arrive while the client still holds the rest of its body, so each test
 * sends the headers and a few bytes only and waits for the answer; nothing here times anything.
 */
import net from 'node:net';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoShopForFile } from '../fixtures/server-process';

const PORT = 4451;
const MB = 1024 * 1024;
const THAI = /[\u0E00-\u0E7F]/;
const STAFF_EMAIL = 'body-limits-staff@example.com';
const server = demoShopForFile(PORT, { SHOP_ADMIN_EMAILS: STAFF_EMAIL });
let staffToken = '';

beforeAll(async () => {
  const registered = await fetch(`${server.base}/api/member-insert/`, {
    method: 'POST',
    headers: { Origin: server.base, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      firstName: 'ทีม',
      lastName: 'หลังร้าน',
      email: STAFF_EMAIL,
      phone: '0891234567',
      password: 'หลังร้านส่งไฟล์ใหญ่ได้',
      confirmPassword: 'หลังร้านส่งไฟล์ใหญ่ได้',
      acceptTerms: true,
    }),
  });
  const body = (await registered.json()) as { token?: string };
  expect(registered.status, JSON.stringify(body)).toBe(201);
  staffToken = body.token!;
});

interface HeldUpload {
  /** The status line and headers of the answer, once it came. */
  answer: Promise<{ status: number; head: string; body: string }>;
  /** Bytes of the body the client had sent when the answer came. */
  sent: () => number;
  close: () => void;
}

/**
 * A POST whose headers and first bytes are written and whose rest is never sent: the answer can only
 * come from what the server decided before reading the body.
 */
function heldUpload(pathAndQuery: string, headers: Record<string, string>, firstBytes: Buffer): HeldUpload {
  const socket = net.connect(PORT, '127.0.0.1');
  let sent = 0;
  const lines = [`POST ${pathAndQuery} HTTP/1.1`, `Host: 127.0.0.1:${PORT}`, `Origin: ${server.base}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  const chunked = headers['Transfer-Encoding'] === 'chunked';
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  socket.write(chunked ? Buffer.concat([Buffer.from(`${firstBytes.length.toString(16)}\r\n`), firstBytes, Buffer.from('\r\n')]) : firstBytes);
  sent = firstBytes.length;
  const answer = new Promise<{ status: number; head: string; body: string }>((resolve, reject) => {
    let received = Buffer.alloc(0);
    const finish = () => {
      const text = received.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const head = text.slice(0, end);
      const rest = received.subarray(Buffer.byteLength(text.slice(0, end + 4)));
      let body: Buffer;
      if (/transfer-encoding:\s*chunked/i.test(head)) {
        const parts: Buffer[] = [];
        let offset = 0;
        for (;;) {
          const lineEnd = rest.indexOf('\r\n', offset);
          if (lineEnd < 0) return false;
          const size = parseInt(rest.subarray(offset, lineEnd).toString('latin1'), 16);
          if (size === 0) break;
          if (rest.length < lineEnd + 2 + size + 2) return false;
          parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
          offset = lineEnd + 2 + size + 2;
        }
        body = Buffer.concat(parts);
      } else {
        const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (rest.length < length) return false;
        body = rest.subarray(0, length);
      }
      resolve({ status: Number(head.split(' ')[1]), head, body: body.toString('utf8') });
      return true;
    };
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      finish();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!finish()) reject(new Error(`connection closed without an answer: ${received.toString('utf8').slice(0, 200)}`));
    });
  });
  return { answer, sent: () => sent, close: () => socket.destroy() };
}

const multipartHead = (boundary: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="catalog.csv"\r\nContent-Type: text/csv\r\n\r\ncode,name\r\n`);

describe('bodies over their limit are refused before they are read', () => {
  it.each([
    ['a public endpoint', '/api/orders', 'application/json'],
    ['the CSV import (anonymous)', '/api/admin/import/check', 'multipart/form-data; boundary=held'],
    ['a back-office form (anonymous)', '/admin/uploads?folder=gallery', 'multipart/form-data; boundary=held'],
  ])('a declared 60 MB body to %s gets a Thai 413 before it is sent', async (_name, url, type) => {
    const upload = heldUpload(url, { 'Content-Type': type, 'Content-Length': String(60 * MB) }, multipartHead('held'));
    try {
      const answer = await upload.answer;
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'body_too_large', message: expect.stringMatching(THAI) });
      expect(upload.sent()).toBeLessThan(1024);
    } finally {
      upload.close();
    }
  });

  it.each([
    ['the CSV import', '/api/admin/import/check'],
    ['a back-office form', '/admin/uploads?folder=gallery'],
  ])('an anonymous chunked body to %s is refused without being read', async (_name, url) => {
    const upload = heldUpload(url, { 'Content-Type': 'multipart/form-data; boundary=held', 'Transfer-Encoding': 'chunked' }, multipartHead('held'));
    try {
      const answer = await upload.answer;
      expect(answer.status).toBe(411);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'length_required', message: expect.stringMatching(THAI) });
    } finally {
      upload.close();
    }
  });

  it('/healthz keeps answering while several such uploads are held open, and each got its refusal', async () => {
    const uploads = [0, 1, 2, 3].flatMap((n) => [
      heldUpload('/api/admin/import/check', { 'Content-Type': `multipart/form-data; boundary=b${n}`, 'Content-Length': String(60 * MB) }, multipartHead(`b${n}`)),
      heldUpload('/api/admin/import/check', { 'Content-Type': `multipart/form-data; boundary=c${n}`, 'Transfer-Encoding': 'chunked' }, multipartHead(`c${n}`)),
    ]);
    try {
      const health = await fetch(`${server.base}/healthz`);
      expect(health.status).toBe(200);
      const answers = await Promise.all(uploads.map((upload) => upload.answer));
      expect(answers.map((answer) => answer.status).sort()).toEqual([411, 411, 411, 411, 413, 413, 413, 413]);
    } finally {
      for (const upload of uploads) upload.close();
    }
  });
});

describe('staff keep the back office’s 64 MB', () => {
  /** A product CSV of about 9 MB: a thousand new products with long descriptions. */
  function largeCsv(): string {
    const rows = ['code,name,category,price,stock,description'];
    for (let n = 0; n < 1000; n++) rows.push(`BODY-${String(n).padStart(4, '0')},สินค้าทดสอบ ${n},ไม่มีหมวดนี้,100,1,${'x'.repeat(9_000)}`);
    return rows.join('\r\n');
  }

  it('an owner-sized CSV over 8 MB goes through the import’s dry run', async () => {
    const csv = largeCsv();
    expect(csv.length).toBeGreaterThan(8 * MB);
    const form = new FormData();
    form.set('file', new Blob([csv], { type: 'text/csv' }), 'catalog.csv');
    const response = await fetch(`${server.base}/api/admin/import/check`, {
      method: 'POST',
      headers: { Origin: server.base, Accept: 'application/json', Authorization: `Bearer ${staffToken}` },
      body: form,
    });
    const body = (await response.json()) as { data?: { report: { rows: number } }; message?: string };
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.data?.report.rows).toBe(1000);
  }, 60_000);

  it('the same CSV sent chunked, without a declared length, goes through too', async () => {
    const boundary = 'staffchunked';
    const bytes = Buffer.concat([multipartHead(boundary).subarray(0, -'code,name\r\n'.length), Buffer.from(largeCsv()), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += MB) controller.enqueue(bytes.subarray(offset, offset + MB));
        controller.close();
      },
    });
    const response = await fetch(`${server.base}/api/admin/import/check`, {
      method: 'POST',
      headers: { Origin: server.base, Accept: 'application/json', Authorization: `Bearer ${staffToken}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const body = (await response.json()) as { data?: { report: { rows: number } } };
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.data?.report.rows).toBe(1000);
  }, 60_000);

  it('a 9 MB picture goes through a back-office form under /admin', async () => {
    const side = 1800;
    const noise = Buffer.alloc(side * side * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const png = await sharp(noise, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(png.length).toBeGreaterThan(8 * MB);
    const form = new FormData();
    form.set('file', new Blob([png], { type: 'image/png' }), 'big.png');
    const response = await fetch(`${server.base}/admin/uploads?folder=gallery`, {
      method: 'POST',
      headers: { Origin: server.base, Accept: 'application/json', Authorization: `Bearer ${staffToken}` },
      body: form,
    });
    const body = (await response.json()) as { data?: { url: string }; message?: string };
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.data?.url).toMatch(/^\/media\//);
  }, 60_000);
});
