import type { APIRoute } from 'astro';

/** Shoppers' private pages and the API are not for crawlers; the sitemap lists the public ones. */
export const GET: APIRoute = ({ site, url }) => {
  const sitemap = new URL('/sitemap.xml', site ?? url).href;
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /cart',
    'Disallow: /order',
    'Disallow: /user',
    'Disallow: /profile',
    'Disallow: /login',
    'Disallow: /register',
    'Disallow: /resetpassword',
    'Disallow: /search',
    '',
    `Sitemap: ${sitemap}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
};
