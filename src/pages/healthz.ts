import type { APIRoute } from 'astro';

/** Liveness: the process answers. */
export const GET: APIRoute = () =>
  new Response(JSON.stringify({ status: 'ok' }), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
