import { env } from '../env.ts';

/**
 * The client's address for rate limits: the first X-Forwarded-For hop only when TRUST_PROXY says a
 * proxy we control sets it, otherwise the socket address.
 */
export function clientIp(context: { request: Request; clientAddress?: string }): string {
  if (env().TRUST_PROXY) {
    const forwarded = context.request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  try {
    return (context.clientAddress ?? '').slice(0, 64) || 'unknown';
  } catch {
    // Astro throws when the adapter cannot tell the address.
    return 'unknown';
  }
}

export function userAgent(request: Request): string {
  return (request.headers.get('user-agent') ?? '').slice(0, 300);
}
