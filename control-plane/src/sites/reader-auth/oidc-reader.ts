/**
 * Readers signing in with the customer's OpenID provider (openid-client, as the dashboard's SSO
 * does): the authorization code flow with PKCE (S256), `state` and `nonce`. The issuer is
 * discovered at each sign-in through the SSRF guard (sso/oidc-rp.ts `checkIssuerUrl`; its token
 * and key endpoints must be public too). What the callback needs (state, nonce, PKCE verifier,
 * where to go next) travels sealed (AES-GCM, secrets/secret-box.ts) in a cookie of the callback's
 * path, ten minutes, so the callback completes only in the browser that started the sign-in.
 */
import * as oidc from 'openid-client';
import type { Models } from '../../db/models/index.ts';
import type { Project } from '../../db/models/project.ts';
import { openSecret, sealSecret } from '../../secrets/secret-box.ts';
import { checkIssuerUrl } from '../../sso/oidc-rp.ts';
import { checkedAddress } from '../../outbound/safe-fetch.ts';
import { OIDC_CALLBACK_PATH, READER_CLIENT_SECRET } from './reader-settings.ts';
import { TokenRefused } from './jwt-handoff.ts';

type Settings = NonNullable<Project['reader_auth']>;

export const OIDC_STATE_COOKIE = 'folio_reader_oidc';
const STATE_PURPOSE = 'reader-oidc-state';
const STATE_TTL_MS = 10 * 60_000;

async function discover(m: Models, s: Settings, allowHosts: readonly string[]): Promise<oidc.Configuration> {
  const issuer = new URL(s.issuer!);
  try {
    await checkIssuerUrl(issuer.href, 'issuer', allowHosts);
    const insecure = allowHosts.includes(issuer.host);
    const config = await oidc.discovery(issuer, s.client_id!, await openSecret(m, READER_CLIENT_SECRET, s.client_secret_sealed!), undefined, { execute: insecure ? [oidc.allowInsecureRequests] : [], timeout: 10 });
    const meta = config.serverMetadata();
    for (const endpoint of [meta.token_endpoint, meta.jwks_uri, meta.userinfo_endpoint]) {
      if (!endpoint) continue;
      const url = new URL(endpoint);
      if (url.protocol !== 'https:' && !allowHosts.includes(url.host)) throw new Error(`${endpoint} is not https`);
      await checkedAddress(url, 'issuer', allowHosts);
    }
    return config;
  } catch {
    throw new TokenRefused('The sign-in provider could not be reached; try again later.');
  }
}

/** The URL to send the reader to, and the sealed cookie value the callback will need. */
export async function startReaderOidc(m: Models, s: Settings, origin: string, next: string, now: Date, allowHosts: readonly string[]): Promise<{ url: string; cookie: string }> {
  const config = await discover(m, s, allowHosts);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: origin + OIDC_CALLBACK_PATH, scope: s.scopes ?? 'openid profile email', state, nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  const cookie = await sealSecret(m, STATE_PURPOSE, JSON.stringify({ state, nonce, verifier, next, exp: now.getTime() + STATE_TTL_MS }));
  return { url: url.href, cookie };
}

/**
 * The claims of the reader the callback signs in (ID token, then UserInfo when the groups claim is
 * not in it), and where to go next.
 *
 * @throws TokenRefused with the reason a reader can act on.
 */
export async function finishReaderOidc(m: Models, s: Settings, origin: string, query: URLSearchParams, sealed: string | undefined, now: Date, allowHosts: readonly string[]): Promise<{ claims: Record<string, unknown>; next: string }> {
  let pending: { state: string; nonce: string; verifier: string; next: string; exp: number };
  try {
    pending = JSON.parse(await openSecret(m, STATE_PURPOSE, sealed ?? ''));
  } catch {
    throw new TokenRefused('This sign-in was not started in this browser, or it took too long. Sign in again.');
  }
  if (pending.exp <= now.getTime()) throw new TokenRefused('This sign-in took too long. Sign in again.');
  if (query.get('error')) throw new TokenRefused('The sign-in provider refused the sign-in.');
  if (query.get('state') !== pending.state) throw new TokenRefused('This sign-in was not started in this browser. Sign in again.');
  const config = await discover(m, s, allowHosts);
  const current = new URL(origin + OIDC_CALLBACK_PATH);
  current.search = query.toString();
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true });
    let claims = tokens.claims() as Record<string, unknown>;
    const groupsClaim = s.groups_claim ?? 'groups';
    if (claims[groupsClaim] === undefined && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
      claims = { ...claims, ...(await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub))) };
    }
    return { claims, next: pending.next };
  } catch {
    throw new TokenRefused('The sign-in provider\'s answer could not be verified. Sign in again.');
  }
}
