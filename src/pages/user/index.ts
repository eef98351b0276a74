import type { APIRoute } from 'astro';

/** Old and short account addresses all lead to the profile page (which checks the login itself). */
export const GET: APIRoute = () => new Response(null, { status: 302, headers: { Location: '/user/account/profile', 'Cache-Control': 'private, no-store' } });
