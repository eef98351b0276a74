import { describe, expect, it } from 'vitest';
import { bodyRefusal, readForm } from '../../src/server/http/body-limit';
import { AppError } from '../../src/server/http/errors';

const post = (headers: Record<string, string>) => new Request('http://shop.test/x', { method: 'POST', body: 'x', headers });

describe('request body limits by path', () => {
  it('keeps 8 MB outside the back office, with a Thai 413', async () => {
    const refused = bodyRefusal(post({ 'content-length': String(9 * 1024 * 1024) }), '/api/order-slip');
    expect(refused?.status).toBe(413);
    expect(((await refused?.json()) as { message: string }).message).toContain('ขนาดใหญ่เกิน 8 MB');
    expect(bodyRefusal(post({ 'content-length': '1000' }), '/api/order-slip')).toBeNull();
  });
  it('lets the back office send up to 64 MB (the staff check runs before the body is read)', () => {
    expect(bodyRefusal(post({ 'content-length': String(30 * 1024 * 1024) }), '/api/admin/import/check')).toBeNull();
    expect(bodyRefusal(post({ 'content-length': String(65 * 1024 * 1024) }), '/api/admin/import/check')?.status).toBe(413);
  });
  it('refuses a chunked body that does not say its size outside the back office', () => {
    expect(bodyRefusal(post({ 'transfer-encoding': 'chunked' }), '/api/orders')?.status).toBe(411);
    expect(bodyRefusal(new Request('http://shop.test/x'), '/api/orders')).toBeNull();
  });
  it('turns a body that is not a form into a Thai 400', async () => {
    await expect(readForm(new Request('http://shop.test/x', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } }))).rejects.toSatisfy(
      (error: unknown) => error instanceof AppError && error.status === 400,
    );
  });
});
