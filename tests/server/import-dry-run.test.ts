/**
 * Security 6 of issue 32: a 50 MB CSV dry run on the built server (needs `astro build`) does not hold up
 * the server's other answers. The file is read and checked on a worker thread (docs/decisions/196); while
 * it is, /healthz is asked again and again, each time after the last answer. The test decides by order,
 * never by time: /healthz answered while the dry run had not yet, and the dry run's report is whole.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { demoShopForFile } from '../fixtures/server-process';

const PORT = 4851;
const MB = 1024 * 1024;
const STAFF_EMAIL = 'dry-run-staff@example.com';
const server = demoShopForFile(PORT, { SHOP_ADMIN_EMAILS: STAFF_EMAIL });

async function staffToken(): Promise<string> {
  const registered = await fetch(`${server.base}/api/member-insert/`, {
    method: 'POST',
    headers: { Origin: server.base, 'Content-Type': 'application/json' },
    body: JSON.stringify({ firstName: 'ทีม', lastName: 'นำเข้า', email: STAFF_EMAIL, phone: '0891235678', password: 'นำเข้าไฟล์ใหญ่ได้ไม่ติดขัด', confirmPassword: 'นำเข้าไฟล์ใหญ่ได้ไม่ติดขัด', acceptTerms: true }),
  });
  const body = (await registered.json()) as { token?: string };
  expect(registered.status, JSON.stringify(body)).toBe(201);
  return body.token!;
}

/** A product CSV of about 50 MB: new products with long Thai descriptions (1.8 KB a row). */
function bigCsv(rows: number): Buffer {
  const description = 'รายละเอียดสินค้าสำหรับทดสอบการนำเข้าไฟล์ขนาดใหญ่ '.repeat(12);
  const lines = ['code,name,category,price,stock,description'];
  for (let n = 0; n < rows; n++) lines.push(`BIG-${String(n).padStart(6, '0')},สินค้านำเข้า ${n},gifts,${(n % 900) + 10},${n % 50},"${description}${n}"`);
  return Buffer.from(lines.join('\r\n'));
}

describe('a 50 MB CSV dry run', () => {
  it('leaves /healthz answering while it runs', async () => {
    const token = await staffToken();
    const rows = 27_000;
    const csv = bigCsv(rows);
    expect(csv.length).toBeGreaterThan(45 * MB);
    expect(csv.length).toBeLessThan(60 * MB); // under the import's limit
    const boundary = 'bigdryrun';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="catalog.csv"\r\nContent-Type: text/csv\r\n\r\n`),
      csv,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);

    const events: string[] = [];
    let dryRunDone = false;
    const sent = Promise.withResolvers<void>();
    const dryRun = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: PORT,
          path: '/api/admin/import/check',
          method: 'POST',
          headers: {
            Origin: server.base,
            Accept: 'application/json',
            Authorization: `Bearer ${token}`,
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(body.length),
          },
        },
        (response) => {
          sent.resolve(); // an early refusal answers before the body is all sent
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            dryRunDone = true;
            events.push('dry run');
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() });
          });
        },
      );
      request.on('error', reject);
      request.on('finish', () => sent.resolve());
      request.end(body);
    });

    // Once the whole file is with the server, ask /healthz again and again until the dry run answers.
    await sent.promise;
    let answeredDuring = 0;
    while (!dryRunDone) {
      const health = await fetch(`${server.base}/healthz`);
      expect(health.status).toBe(200);
      await health.arrayBuffer();
      if (!dryRunDone) {
        answeredDuring++;
        if (events.at(-1) !== 'healthz') events.push('healthz');
      }
    }
    const result = await dryRun;
    expect(result.status, result.text.slice(0, 300)).toBe(200);
    const report = (JSON.parse(result.text) as { data: { report: { rows: number; creates: number; errors: unknown[] } } }).data.report;
    expect(report).toMatchObject({ rows, creates: rows, errors: [] });
    // The order of what was answered: /healthz first, while the dry run was still under way.
    expect(events).toEqual(['healthz', 'dry run']);
    expect(answeredDuring).toBeGreaterThan(0);
  }, 240_000);
});
