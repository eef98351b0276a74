import type { APIRoute } from 'astro';
import { demoImageSvg } from '../../../server/catalog/demo-image';

/** Demo pictures, generated from the name: immutable, so browsers and proxies keep them. */
export const GET: APIRoute = ({ params }) => {
  const file = params.file ?? '';
  const match = /^([a-z]+-[A-Za-z0-9-]{1,80})\.svg$/.exec(file);
  if (!match?.[1]) return new Response('Not found', { status: 404 });
  return new Response(demoImageSvg(match[1]), {
    headers: {
      'Content-Type': 'image/svg+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
};
