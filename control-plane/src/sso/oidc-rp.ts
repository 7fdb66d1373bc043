/**
 * Our OpenID Connect relying party (openid-client v6): the authorization code flow with PKCE
 * (S256), `state` and `nonce`. The issuer is discovered at each sign-in (so key rotation at the
 * IdP needs nothing here); its address, and the token and key endpoints it names, must be public
 * (the SSRF guard's address check) and https, unless listed in the test-only `fetchAllowHosts`.
 *
 * The state travels twice: in the authorization URL and in an HttpOnly cookie scoped to the
 * SSO paths, so a callback completes only in the browser that started it (no login CSRF). The
 * PKCE verifier and the nonce stay on the server (sso_pending, keyed by the state's hash, used
 * once, 10 minutes).
 */
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { dashboardOrigin, type Env } from '../env.ts';
import type { Models } from '../db/models/index.ts';
import type { SsoConnection } from '../db/models/sso-connection.ts';
import { openSecret } from '../secrets/secret-box.ts';
import { checkedAddress } from '../outbound/safe-fetch.ts';
import { SsoFailure } from './sso-error.ts';

/** The secret-box purpose of OIDC client secrets. */
export const OIDC_SECRET_PURPOSE = 'sso-oidc-client-secret';
/** How long a started OIDC sign-in waits for its callback. */
export const OIDC_STATE_TTL_MS = 10 * 60_000;

/** The one redirect URI of every OIDC connection (the state says which organization). */
export function oidcRedirectUri(env: Env): string {
  return `${dashboardOrigin(env)}/dashboard/api/auth/sso/oidc/callback`;
}

const stateKey = (state: string) => `oidc:${createHash('sha256').update(state).digest('base64url')}`;

function allowed(url: URL, allowHosts: readonly string[]): boolean {
  return allowHosts.includes(url.host);
}

/** Refuses an issuer URL that is not https or resolves to a non-public address (SSRF guard). */
export async function checkIssuerUrl(issuer: string, field: string, allowHosts: readonly string[] = []): Promise<void> {
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !allowed(url, allowHosts)) throw new SsoFailure('sso_idp_unreachable', `${field}: must be an https URL`);
  await checkedAddress(url, field, allowHosts);
}

async function discover(m: Models, conn: SsoConnection, allowHosts: readonly string[]): Promise<oidc.Configuration> {
  const issuer = new URL(conn.oidc_issuer!);
  try {
    await checkIssuerUrl(issuer.href, 'issuer', allowHosts);
  } catch (err) {
    throw new SsoFailure('sso_idp_unreachable', `issuer ${issuer.href}: ${(err as Error).message}`, { cause: err });
  }
  const secret = await openSecret(m, OIDC_SECRET_PURPOSE, conn.oidc_client_secret_sealed!);
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(issuer, conn.oidc_client_id!, secret, undefined, { execute: allowed(issuer, allowHosts) ? [oidc.allowInsecureRequests] : [], timeout: 10 });
  } catch (err) {
    throw classify(err, 'sso_idp_unreachable');
  }
  const meta = config.serverMetadata();
  for (const endpoint of [meta.token_endpoint, meta.jwks_uri]) {
    if (!endpoint) continue;
    const url = new URL(endpoint);
    if (url.protocol !== 'https:' && !allowed(url, allowHosts)) throw new SsoFailure('sso_idp_unreachable', `${endpoint}: must be https`);
    await checkedAddress(url, 'issuer', allowHosts).catch((err) => { throw new SsoFailure('sso_idp_unreachable', `${endpoint}: ${err.message}`, { cause: err }); });
  }
  return config;
}

function messages(err: unknown): string {
  const parts: string[] = [];
  for (let e: any = err, i = 0; e && i < 5; e = e.cause, i++) {
    if (e instanceof URLSearchParams) break;
    parts.push(`${e.message ?? ''} ${e.claim ?? ''} ${e.attribute ?? ''} ${e.error ?? ''}`);
  }
  return parts.join(' | ');
}

/** Names why openid-client refused. */
function classify(err: unknown, fallback: 'sso_failed' | 'sso_idp_unreachable' = 'sso_failed'): SsoFailure {
  if (err instanceof SsoFailure) return err;
  const text = messages(err);
  const code = (err as any)?.code ?? (err as any)?.cause?.code;
  if (code === 'OAUTH_AUTHORIZATION_RESPONSE_ERROR') return new SsoFailure('sso_idp_refused', `${(err as any).error ?? ''} ${(err as any).error_description ?? ''}`, { cause: err });
  if (/"state"/.test(text)) return new SsoFailure('sso_state_mismatch', text, { cause: err });
  if (/"nonce"|\bnonce\b/.test(text)) return new SsoFailure('sso_nonce_mismatch', text, { cause: err });
  if (/"iss"|issuer/i.test(text)) return new SsoFailure('sso_wrong_issuer', text, { cause: err });
  if (/invalid_grant/.test(text)) return new SsoFailure('sso_code_rejected', text, { cause: err });
  if (/"aud"|audience|"azp"/.test(text)) return new SsoFailure('sso_wrong_audience', text, { cause: err });
  if (/signature/i.test(text)) return new SsoFailure('sso_invalid_signature', text, { cause: err });
  if (/timestamp|"exp"|"iat"|"nbf"/.test(text)) return new SsoFailure('sso_expired', text, { cause: err });
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|timed out|aborted/i.test(text)) return new SsoFailure('sso_idp_unreachable', text, { cause: err });
  return new SsoFailure(fallback, text, { cause: err });
}

/** Starts an OIDC sign-in: answers the IdP URL to send the browser to, and the state for the cookie. */
export async function startOidc(m: Models, env: Env, conn: SsoConnection, now: Date, allowHosts: readonly string[] = []): Promise<{ url: string; state: string }> {
  const config = await discover(m, conn, allowHosts);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  await m.SsoPending.create({ _id: stateKey(state), org_id: conn.org_id, code_verifier: codeVerifier, nonce, created_at: now, expires_at: new Date(now.getTime() + OIDC_STATE_TTL_MS) });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: oidcRedirectUri(env), scope: 'openid email profile', state, nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: 'S256',
  });
  return { url: url.href, state };
}

/** The organization a callback's state belongs to, without using it up (for the audit log). */
export async function orgOfState(m: Models, state: string | undefined): Promise<string | undefined> {
  if (!state) return undefined;
  return (await m.SsoPending.findById(stateKey(state)).lean())?.org_id;
}

/**
 * Finishes an OIDC sign-in from the callback's query: the state must equal the cookie's and a
 * pending sign-in's (used up here), then the code is exchanged with the verifier and the ID
 * token checked (issuer, audience, signature, expiry, nonce). Answers the verified email.
 */
export async function finishOidc(
  m: Models, env: Env, query: URLSearchParams, cookieState: string | undefined, now: Date, allowHosts: readonly string[] = [],
): Promise<{ orgId: string; email: string }> {
  const state = query.get('state') ?? undefined;
  if (!state || !cookieState || state !== cookieState) throw new SsoFailure('sso_state_mismatch', state ? 'The state does not match this browser\'s sign-in cookie' : 'The callback has no state');
  const pending = await m.SsoPending.findOneAndDelete({ _id: stateKey(state), expires_at: { $gt: now } }).lean();
  if (!pending) throw new SsoFailure('sso_state_mismatch', 'No pending sign-in has this state (used, expired or unknown)');
  const conn = await m.SsoConnection.findOne({ org_id: pending.org_id, protocol: 'oidc' }).lean();
  if (!conn) throw new SsoFailure('sso_not_configured', 'The organization no longer has an OIDC connection');
  const config = await discover(m, conn, allowHosts);
  const current = new URL(oidcRedirectUri(env));
  current.search = query.toString();
  let claims: { email?: unknown; email_verified?: unknown } | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: pending.code_verifier!, expectedState: state, expectedNonce: pending.nonce!, idTokenExpected: true,
    });
    const idToken = tokens.claims()!;
    claims = idToken as { email?: unknown; email_verified?: unknown };
    // Providers that follow the spec strictly put scope claims in UserInfo only when an access token is issued.
    if (typeof idToken.email !== 'string') claims = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
  } catch (err) {
    throw Object.assign(classify(err), { orgId: pending.org_id });
  }
  const email = typeof claims?.email === 'string' ? claims.email.toLowerCase() : undefined;
  if (!email || claims?.email_verified === false) {
    throw Object.assign(new SsoFailure('sso_email_not_allowed', email ? `${email} is not verified at the IdP` : 'The ID token has no email claim'), { orgId: pending.org_id });
  }
  return { orgId: pending.org_id, email };
}
