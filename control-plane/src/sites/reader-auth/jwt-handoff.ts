/**
 * The JWT handoff: the customer's app signs a reader in on its own side, then sends the browser
 * to `/_folio/auth/jwt?token=<JWT>&next=<path>` on the site. The token is verified with `jose`
 * against the site's settings: the algorithm named there only (HS256 with the shared secret,
 * RS256/ES256 with the public key or the key set URL), `exp` required, `aud` and `iss` when set.
 * A key set is fetched only from a public address (the SSRF guard), and kept by `jose` for ten
 * minutes per URL.
 */
import { createRemoteJWKSet, customFetch, errors, importSPKI, jwtVerify, type JWTPayload } from 'jose';
import type { Models } from '../../db/models/index.ts';
import { openSecret } from '../../secrets/secret-box.ts';
import { checkedAddress } from '../../outbound/safe-fetch.ts';
import type { Project } from '../../db/models/project.ts';
import { READER_JWT_KEY } from './reader-settings.ts';

type Settings = NonNullable<Project['reader_auth']>;

/** Why a token was refused, in words for the reader (the page says how to go on). */
export class TokenRefused extends Error {}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetOf(url: string, allowHosts: readonly string[]): ReturnType<typeof createRemoteJWKSet> {
  const cacheKey = `${url}\n${allowHosts.join(',')}`;
  let set = keySets.get(cacheKey);
  if (!set) {
    set = createRemoteJWKSet(new URL(url), {
      timeoutDuration: 5000, cacheMaxAge: 10 * 60_000,
      // Every fetch (the first and each refresh) is checked: the host must resolve to public addresses.
      [customFetch]: async (input, init) => {
        await checkedAddress(new URL(String(input)), 'jwks_url', allowHosts);
        return fetch(input, { ...init, redirect: 'error' });
      },
    });
    if (keySets.size > 500) keySets.clear();
    keySets.set(cacheKey, set);
  }
  return set;
}

/**
 * The claims of a valid token.
 *
 * @throws TokenRefused with the reason a reader can act on.
 */
export async function verifyHandoff(m: Models, s: Settings, token: string, now: Date, allowHosts: readonly string[]): Promise<JWTPayload> {
  if (!token || token.length > 16_000) throw new TokenRefused('The sign-in link has no token.');
  const algorithm = s.algorithm ?? 'HS256';
  const options = {
    algorithms: [algorithm], currentDate: now, clockTolerance: 30, requiredClaims: ['exp'],
    ...(s.audience ? { audience: s.audience } : {}), ...(s.token_issuer ? { issuer: s.token_issuer } : {}),
  };
  try {
    if (algorithm === 'HS256') {
      const secret = await openSecret(m, READER_JWT_KEY, s.verification_key_sealed!);
      return (await jwtVerify(token, new TextEncoder().encode(secret), options)).payload;
    }
    if (s.jwks_url) return (await jwtVerify(token, keySetOf(s.jwks_url, allowHosts), options)).payload;
    const key = await importSPKI(await openSecret(m, READER_JWT_KEY, s.verification_key_sealed!), algorithm);
    return (await jwtVerify(token, key, options)).payload;
  } catch (err) {
    throw new TokenRefused(refusal(err));
  }
}

function refusal(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'The sign-in link has expired. Sign in again.';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return 'The sign-in token was made for another site (its audience does not match).';
    if (err.claim === 'iss') return 'The sign-in token comes from an issuer this site does not accept.';
    if (err.claim === 'exp') return 'The sign-in token has no expiry; this site accepts only tokens that expire.';
    return `The sign-in token was refused (${err.claim} is not valid).`;
  }
  if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey) return 'The sign-in token is not signed with this site\'s key.';
  if (err instanceof errors.JOSEAlgNotAllowed) return 'The sign-in token is signed with an algorithm this site does not accept.';
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return 'The sign-in token is not a valid JWT.';
  return 'The sign-in token could not be checked; try again later.';
}
