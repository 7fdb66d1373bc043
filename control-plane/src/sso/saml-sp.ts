/**
 * Our SAML 2.0 service provider, one per organization (node-saml): the organization's own
 * entity id and ACS URL, so an assertion meant for one organization is the wrong audience for
 * every other. Signed assertions are required (`wantAssertionsSigned`) with the certificates
 * from the IdP's metadata, the signed assertion's Issuer must be the IdP's entity id (checked
 * here: node-saml's `idpIssuer` covers logout messages only), the audience our entity id.
 *
 * SP-initiated sign-ins store the AuthnRequest ID (sso_pending, 10 minutes, one answer).
 * IdP-initiated ones (no InResponseTo) are accepted only when the connection allows them.
 * Either way every accepted assertion's ID goes into the replay store until it expires, and no
 * assertion older than {@link MAX_ASSERTION_AGE_MS} is accepted.
 */
import { SAML, SamlStatusError, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { dashboardOrigin, type Env } from '../env.ts';
import type { Models } from '../db/models/index.ts';
import type { SsoConnection } from '../db/models/sso-connection.ts';
import { SsoFailure } from './sso-error.ts';

/** How long an AuthnRequest waits for its answer. */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;
/** An assertion is refused this long after its IssueInstant, whatever its NotOnOrAfter. */
export const MAX_ASSERTION_AGE_MS = 5 * 60_000;
/** Clock difference tolerated between the IdP and us. */
export const CLOCK_SKEW_MS = 60_000;

/** The SP's URLs for an organization. */
export function spUrls(env: Env, orgId: string) {
  const base = `${dashboardOrigin(env)}/dashboard/api/auth/sso/saml/${orgId}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata` };
}

/** node-saml's request-id cache, in the database and bound to one organization. */
function pendingRequests(m: Models, orgId: string): CacheProvider {
  const id = (key: string) => `saml:${orgId}:${key}`;
  return {
    async saveAsync(key, value) {
      const now = new Date();
      await m.SsoPending.create({ _id: id(key), org_id: orgId, value, created_at: now, expires_at: new Date(now.getTime() + SAML_REQUEST_TTL_MS) });
      return { value, createdAt: now.getTime() };
    },
    async getAsync(key) {
      const row = await m.SsoPending.findOne({ _id: id(key), used_at: null, expires_at: { $gt: new Date() } }).lean();
      return row?.value ?? null;
    },
    async removeAsync(key) {
      if (!key) return null;
      // Kept, marked used, until it lapses: a second answer to the same request is told apart as a replay.
      const row = await m.SsoPending.findOneAndUpdate({ _id: id(key), used_at: null }, { $set: { used_at: new Date() } }).lean();
      return row?.value ?? null;
    },
  };
}

/** The node-saml instance for a SAML connection. */
export function samlFor(m: Models, env: Env, conn: SsoConnection): SAML {
  const urls = spUrls(env, conn.org_id);
  return new SAML({
    callbackUrl: urls.acsUrl,
    issuer: urls.entityId,
    audience: urls.entityId,
    entryPoint: conn.saml_idp_sso_url ?? undefined,
    idpIssuer: conn.saml_idp_entity_id ?? undefined,
    idpCert: conn.saml_idp_certs,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    validateInResponseTo: conn.allow_idp_initiated ? ValidateInResponseTo.ifPresent : ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    cacheProvider: pendingRequests(m, conn.org_id),
  });
}

/** The IdP's redirect URL for a new SP-initiated sign-in. */
export function samlSignInUrl(m: Models, env: Env, conn: SsoConnection): Promise<string> {
  return samlFor(m, env, conn).getAuthorizeUrlAsync('', undefined, {});
}

function classify(err: unknown): SsoFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof SamlStatusError) return new SsoFailure('sso_idp_refused', message, { cause: err });
  if (/signature|Cannot obtain assertion|Missing SAML assertion|multiple assertions/i.test(message)) return new SsoFailure('sso_invalid_signature', message, { cause: err });
  if (/audience|AudienceRestriction/i.test(message)) return new SsoFailure('sso_wrong_audience', message, { cause: err });
  if (/expired|not yet valid|too old|subject confirmation/i.test(message)) return new SsoFailure('sso_expired', message, { cause: err });
  if (/InResponseTo/i.test(message)) return new SsoFailure('sso_unsolicited', message, { cause: err });
  if (/issuer/i.test(message)) return new SsoFailure('sso_wrong_issuer', message, { cause: err });
  return new SsoFailure('sso_failed', message, { cause: err });
}

/** The InResponseTo of a posted response, read before anything is trusted (only to name a replay). */
function claimedInResponseTo(samlResponse: string): string | undefined {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  return /<(?:\w+:)?Response\b[^>]*\sInResponseTo="([^"]+)"/.exec(xml)?.[1];
}

function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** The email a profile names: the email/mail attribute, else an email-shaped NameID. */
function profileEmail(profile: Profile): string | undefined {
  const attr = first(profile.email) ?? first(profile.mail) ?? first(profile['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress']);
  const email = attr ?? (profile.nameID?.includes('@') ? profile.nameID : undefined);
  return email?.toLowerCase();
}

/**
 * Validates a posted SAMLResponse for `conn` and records its assertion ID in the replay store;
 * answers the asserted email. Throws {@link SsoFailure} for every refusal.
 */
export async function validateSamlResponse(m: Models, env: Env, conn: SsoConnection, samlResponse: string, now: Date): Promise<{ email: string; idpInitiated: boolean }> {
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(m, env, conn).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    const failure = classify(err);
    const claimed = failure.code === 'sso_unsolicited' ? claimedInResponseTo(samlResponse) : undefined;
    if (claimed && await m.SsoPending.exists({ _id: `saml:${conn.org_id}:${claimed}`, used_at: { $ne: null } })) {
      throw new SsoFailure('sso_replayed', `InResponseTo ${claimed} was already answered`, { cause: err });
    }
    throw failure;
  }
  if (!profile) throw new SsoFailure('sso_failed', 'The response is a logout, not a sign-in');
  // node-saml checks `idpIssuer` on logout messages only; the signed assertion's Issuer is checked here.
  if (profile.issuer !== conn.saml_idp_entity_id) {
    throw new SsoFailure('sso_wrong_issuer', `Unexpected assertion Issuer ${JSON.stringify(profile.issuer ?? null)}; expected ${conn.saml_idp_entity_id}`);
  }
  const assertion = (profile.getAssertion?.() as any)?.Assertion;
  const assertionId: string | undefined = assertion?.$?.ID;
  if (!assertionId) throw new SsoFailure('sso_invalid_signature', 'The signed assertion has no ID');
  // The Web SSO profile requires the bearer confirmation's Recipient to be our ACS; node-saml does not check it.
  const { acsUrl } = spUrls(env, conn.org_id);
  const recipients: string[] = (assertion.Subject?.[0]?.SubjectConfirmation ?? []).map((c: any) => c?.SubjectConfirmationData?.[0]?.$?.Recipient);
  if (!recipients.includes(acsUrl)) {
    throw new SsoFailure('sso_wrong_audience', `SubjectConfirmationData Recipient ${JSON.stringify(recipients)}; expected ${acsUrl}`);
  }
  const issued = Date.parse(assertion.$.IssueInstant ?? '');
  const notOnOrAfter = Date.parse(assertion.Conditions?.[0]?.$?.NotOnOrAfter ?? '');
  const limit = Math.min(...[issued + MAX_ASSERTION_AGE_MS, notOnOrAfter].filter(Number.isFinite), now.getTime() + MAX_ASSERTION_AGE_MS);
  try {
    await m.SsoAssertion.create({ _id: `${conn.org_id}:${assertionId}`, org_id: conn.org_id, expires_at: new Date(limit + CLOCK_SKEW_MS) });
  } catch (err: any) {
    if (err?.code === 11000) throw new SsoFailure('sso_replayed', `Assertion ${assertionId} was already used`);
    throw err;
  }
  const email = profileEmail(profile);
  if (!email) throw new SsoFailure('sso_email_not_allowed', 'The assertion names no email address (email or mail attribute, or an email NameID)');
  return { email, idpInitiated: !profile.inResponseTo };
}
