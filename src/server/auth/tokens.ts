import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: well above the 128 bits a session or reset token needs. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this hash is stored, so a leaked table gives no working token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token we issued is 43 base64url characters; anything else is refused before touching the database. */
export function looksLikeToken(value: string | undefined | null): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}
