import { describe, expect, it } from 'vitest';
import { bodyRefusal, needsStaffAllowance, readForm } from '../../src/server/http/body-limit';
import { AppError } from '../../src/server/http/errors';

const post = (headers: Record<string, string>) => new Request('http://shop.test/x', { method: 'POST', body: 'x', headers });

describe('request body limits by path', () => {
  it('keeps 8 MB outside the back office, with a Thai 413', async () => {
    const refused = bodyRefusal(post({ 'content-length': String(9 * 1024 * 1024) }), '/api/order-slip');
    expect(refused?.status).toBe(413);
    expect(((await refused?.json()) as { message: string }).message).toContain('ขนาดใหญ่เกิน 8 MB');
    expect(bodyRefusal(post({ 'content-length': '1000' }), '/api/order-slip')).toBeNull();
  });
  it('lets staff send up to 64 MB to the back office (the staff check runs before the body is read)', () => {
    expect(bodyRefusal(post({ 'content-length': String(30 * 1024 * 1024) }), '/api/admin/import/check', true)).toBeNull();
    expect(bodyRefusal(post({ 'content-length': String(30 * 1024 * 1024) }), '/admin/uploads', true)).toBeNull();
    expect(bodyRefusal(post({ 'content-length': String(65 * 1024 * 1024) }), '/api/admin/import/check', true)?.status).toBe(413);
    expect(bodyRefusal(post({ 'transfer-encoding': 'chunked' }), '/api/admin/import/check', true)).toBeNull();
  });
  it('keeps 8 MB on back-office paths until the caller is known to be staff', () => {
    expect(bodyRefusal(post({ 'content-length': String(30 * 1024 * 1024) }), '/api/admin/import/check')?.status).toBe(413);
    expect(bodyRefusal(post({ 'content-length': String(30 * 1024 * 1024) }), '/admin/uploads')?.status).toBe(413);
    expect(bodyRefusal(post({ 'transfer-encoding': 'chunked' }), '/api/admin/import/check')?.status).toBe(411);
    // Staff on a shop path keep the shop's limit.
    expect(bodyRefusal(post({ 'content-length': String(30 * 1024 * 1024) }), '/api/orders', true)?.status).toBe(413);
  });
  it('looks the caller up only for back-office bodies over 8 MB or of unknown size', () => {
    expect(needsStaffAllowance(post({ 'content-length': String(9 * 1024 * 1024) }), '/api/admin/import/check')).toBe(true);
    expect(needsStaffAllowance(post({ 'transfer-encoding': 'chunked' }), '/admin/gallery/x/pictures')).toBe(true);
    expect(needsStaffAllowance(post({ 'content-length': '1000' }), '/api/admin/import/check')).toBe(false);
    expect(needsStaffAllowance(post({ 'content-length': String(9 * 1024 * 1024) }), '/api/orders')).toBe(false);
    expect(needsStaffAllowance(post({ 'content-length': String(9 * 1024 * 1024) }), '/administrator')).toBe(false);
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
  it('turns a form post without a form content type into a Thai 400', async () => {
    const refused = readForm(new Request('http://shop.test/x', { method: 'POST', body: 'title=x', headers: { 'content-type': 'text/plain' } }));
    await expect(refused).rejects.toSatisfy((error: unknown) => error instanceof AppError && error.status === 400 && error.code === 'form_expected' && /[\u0E00-\u0E7F]/.test(error.message));
  });
  it('turns a body cut off by the adapter’s size limit into a Thai 413', async () => {
    // What the Node adapter's body iterator throws past bodySizeLimit (astro/dist/core/app/node.js).
    async function* overLimit() {
      yield new TextEncoder().encode('title=');
      throw new Error('Body size limit exceeded: received more than 67108864 bytes');
    }
    const request = new Request('http://shop.test/x', { method: 'POST', body: overLimit() as never, duplex: 'half', headers: { 'content-type': 'application/x-www-form-urlencoded' } } as RequestInit);
    await expect(readForm(request)).rejects.toSatisfy(
      (error: unknown) => error instanceof AppError && error.status === 413 && error.message === 'ไฟล์หรือข้อมูลที่ส่งมีขนาดใหญ่เกินกำหนด',
    );
  });
});
