import type { APIRoute } from 'astro';
import { isValidKey, storage } from '../../server/storage/storage';

/**
 * Public uploaded files (pictures) from the storage driver. Names are content hashes, so an answer never
 * changes and may be cached for a year. Private objects (slips) are never reachable here.
 */
export const GET: APIRoute = async ({ params }) => {
  const key = params.key ?? '';
  if (!isValidKey(key)) return new Response('Not found', { status: 404 });
  const object = await storage().get('public', key);
  if (!object) return new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });
  return new Response(object.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'Content-Type': object.contentType,
      'Content-Length': String(object.bytes.length),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      // An SVG or anything else opened directly must not run script in the shop's origin.
      'Content-Security-Policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    },
  });
};
