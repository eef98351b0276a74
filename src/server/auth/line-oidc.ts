import * as oidc from 'openid-client';
import { env } from '../env.ts';
import { AppError } from '../http/errors.ts';
import { log } from '../log.ts';

/**
 * LINE Login is OpenID Connect (docs/decisions/211): this is the one place that speaks it, through
 * `openid-client`. The provider's metadata is discovered from `LINE_ISSUER_URL` once and kept; tests
 * point that setting at a local `oidc-provider`.
 */

/** What LINE asks the user to share: who they are, their display name, and their e-mail when the channel may ask. */
export const LINE_SCOPES = 'openid profile email';
/**
 * LINE signs the ID tokens of web login with HS256 and the channel secret, whatever its metadata lists for
 * its SDKs (ES256). The token comes straight from LINE's token endpoint over TLS, so openid-client checks
 * its claims (issuer, audience, expiry, nonce) and not its signature, as OpenID Connect allows.
 */
const ID_TOKEN_ALG = 'HS256';

export const lineUnavailable = () => new AppError(502, 'line_unavailable', 'ไม่สามารถติดต่อ LINE ได้ในขณะนี้ กรุณาลองใหม่ภายหลัง');

/** Whether the shop offers LINE Login: both the channel ID and its secret are set. */
export function lineLoginConfigured(): boolean {
  const { LINE_CHANNEL_ID, LINE_CHANNEL_SECRET } = env();
  return Boolean(LINE_CHANNEL_ID && LINE_CHANNEL_SECRET);
}

/** Where LINE sends the browser back; the same address must be registered in the LINE channel. */
export function lineCallbackUrl(): string {
  return new URL('/auth/line/callback', env().PUBLIC_SITE_URL).href;
}

let configuration: Promise<oidc.Configuration> | undefined;

async function discover(): Promise<oidc.Configuration> {
  const { LINE_CHANNEL_ID, LINE_CHANNEL_SECRET, LINE_ISSUER_URL } = env();
  if (!LINE_CHANNEL_ID || !LINE_CHANNEL_SECRET) throw new AppError(404, 'line_off', 'ร้านยังไม่ได้เปิดการเข้าสู่ระบบด้วย LINE');
  const issuer = new URL(LINE_ISSUER_URL);
  return oidc.discovery(
    issuer,
    LINE_CHANNEL_ID,
    { id_token_signed_response_alg: ID_TOKEN_ALG, redirect_uris: [lineCallbackUrl()], response_types: ['code'] },
    // LINE's token endpoint takes the secret in the form body.
    oidc.ClientSecretPost(LINE_CHANNEL_SECRET),
    // Plain http only for a provider the operator pointed at on purpose (the tests' local one).
    { timeout: 10, ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}) },
  );
}

/** The discovered configuration, kept; a failed discovery is forgotten so the next sign-in tries again. */
async function lineConfiguration(): Promise<oidc.Configuration> {
  configuration ??= discover().catch((error: unknown) => {
    configuration = undefined;
    if (error instanceof AppError) throw error;
    log.warn('LINE Login metadata could not be loaded', { error: String(error) });
    throw lineUnavailable();
  });
  return configuration;
}

export interface LineTrip {
  state: string;
  nonce: string;
  codeVerifier: string;
  url: string;
}

/** A new trip to LINE: fresh state, nonce and PKCE verifier, and the authorization address carrying them. */
export async function newLineTrip(): Promise<LineTrip> {
  const config = await lineConfiguration();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: lineCallbackUrl(),
    scope: LINE_SCOPES,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { state, nonce, codeVerifier, url: url.href };
}

export interface LineIdentity {
  subject: string;
  displayName: string;
  email: string;
}

const codeRefused = () =>
  new AppError(400, 'line_code_refused', 'LINE ไม่รับรหัสยืนยันนี้ (อาจถูกใช้ไปแล้วหรือหมดอายุ) กรุณาเข้าสู่ระบบด้วย LINE ใหม่อีกครั้ง');
const answerInvalid = () => new AppError(400, 'line_answer_invalid', 'คำตอบจาก LINE ไม่ถูกต้อง กรุณาเข้าสู่ระบบด้วย LINE ใหม่อีกครั้ง');

/**
 * Exchanges the code LINE sent back for the ID token and checks it: state, nonce, PKCE verifier, issuer,
 * audience and expiry. `query` is the callback's query string as it arrived.
 */
export async function redeemLineCode(query: URLSearchParams, expected: { state: string; nonce: string; codeVerifier: string }): Promise<LineIdentity> {
  const config = await lineConfiguration();
  const currentUrl = new URL(lineCallbackUrl());
  for (const [key, value] of query) currentUrl.searchParams.append(key, value);
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      pkceCodeVerifier: expected.codeVerifier,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (error) {
    // The provider refused the code (used before, expired, or another verifier): invalid_grant.
    if (error instanceof oidc.ResponseBodyError) {
      log.info('LINE refused a code', { error: error.error });
      throw codeRefused();
    }
    if (error instanceof oidc.ClientError || error instanceof oidc.AuthorizationResponseError) {
      log.warn('LINE answer failed its checks', { error: error.message });
      throw answerInvalid();
    }
    log.warn('LINE token endpoint not reached', { error: String(error) });
    throw lineUnavailable();
  }
  if (!claims || typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > 100) throw answerInvalid();
  const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) : '');
  return { subject: claims.sub, displayName: text(claims['name'], 100), email: text(claims['email'], 254) };
}

/** For tests that start servers with other settings in one process. */
export function forgetLineConfiguration(): void {
  configuration = undefined;
}
