/**
 * Signing in with single sign-on (the organization's connection is set up in sso-routes.ts):
 *
 * - `POST /auth/sso/start { email }` finds the organization that verified the email's domain
 *   and answers `{ redirect_url }` at its identity provider (OIDC: also the state cookie);
 *   an unknown domain is 404 `sso_unknown_domain`.
 * - `GET /auth/sso/oidc/callback` and `POST /auth/sso/saml/{orgId}/acs` finish it: a new session
 *   and a redirect to the dashboard, or a redirect to `{dashboard}/sign-in?sso_error=<code>`.
 *   They never answer an error page or a 5xx: every refusal is a code the sign-in page explains,
 *   recorded in the audit log (sso/sso-error.ts).
 * - `GET /auth/sso/saml/{orgId}/metadata` is our SP metadata for the IdP's administrator.
 *
 * The ACS is a cross-site form POST by design (the IdP's page posts it): request-guard.ts
 * exempts exactly that path from its Origin and JSON checks; the assertion's signature, its
 * audience (this organization's entity id), InResponseTo or the IdP-initiated rules, and the
 * replay store protect it instead.
 */
import type Koa from 'koa';
import { z } from 'zod';
import { dashboardOrigin } from '../env.ts';
import { AppError, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { finishOidc, OIDC_STATE_TTL_MS, orgOfState, startOidc } from '../sso/oidc-rp.ts';
import { emailDomain } from '../sso/require-sso.ts';
import { completeSsoSignIn, recordSsoFailure, UNATTRIBUTED_ORG } from './sso-provision.ts';
import { samlSignInUrl, validateSamlResponse } from '../sso/saml-sp.ts';
import { spMetadataXml } from '../sso/sp-metadata.ts';
import { SSO_ERRORS, SsoFailure } from '../sso/sso-error.ts';
import type { SsoProtocol } from '../db/models/sso-connection.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { emailSchema } from './schemas.ts';
import { requestIp, requestIsHttps } from './session-auth.ts';
import { VisitorRate } from '../http/visitor-rate.ts';

/** The cookie binding an OIDC sign-in to the browser that started it. */
export const SSO_STATE_COOKIE = 'folio_sso_state';
const SSO_COOKIE_PATH = '/dashboard/api/auth/sso';
/** Largest SAML POST body read. */
const MAX_ACS_BYTES = 512 * 1024;

const orgParams = z.object({ orgId: z.uuid({ message: 'must be an organization id' }) });

function stateCookie(ctx: Koa.Context, deps: Deps, value: string, maxAgeS: number): string {
  return `${SSO_STATE_COOKIE}=${value}; Path=${SSO_COOKIE_PATH}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${requestIsHttps(ctx, deps.env) ? '; Secure' : ''}`;
}

function readCookie(ctx: Koa.Context, name: string): string | undefined {
  for (const part of (ctx.get('cookie') || '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

const redirect = (to: string) => ({ status: 303, headers: { location: to } });

/** Runs `finish`; any refusal becomes an audit entry and a redirect to the sign-in page with its code. */
async function finishOrRedirect(ctx: Koa.Context, deps: Deps, protocol: SsoProtocol, orgId: string | undefined, finish: () => Promise<void>) {
  try {
    await finish();
    return redirect(`${dashboardOrigin(deps.env)}/projects`);
  } catch (err) {
    let failure: SsoFailure;
    if (err instanceof SsoFailure) failure = err;
    else {
      console.error('SSO sign-in failed unexpectedly', err);
      failure = new SsoFailure('sso_failed', err instanceof Error ? err.message : String(err), { cause: err });
    }
    failure.orgId ??= orgId;
    await recordSsoFailure(ctx, deps, failure, protocol, (err as { email?: string }).email);
    return redirect(`${dashboardOrigin(deps.env)}/sign-in?sso_error=${failure.code}`);
  }
}

/** Reads an `application/x-www-form-urlencoded` body (the SAML HTTP-POST binding). */
async function readForm(ctx: Koa.Context): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) return new URLSearchParams();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_ACS_BYTES) throw new SsoFailure('sso_failed', `The posted body exceeds ${MAX_ACS_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts of single sign-on per client address and minute. The route is public, writes a pending
 * sign-in and may fetch the IdP's discovery document, so a loop must not turn it into a way to
 * fill the database or make the platform hammer an IdP. Counted per API process.
 */
export const SSO_STARTS_PER_MINUTE = 20;

export function registerSsoSignInRoutes(router: DashboardRouter, _deps: Deps): void {
  const starts = new VisitorRate({ visitorMessages: SSO_STARTS_PER_MINUTE, visitorWindowMs: 60_000 },
    (wait) => `Too many single sign-on attempts from this address; try again in ${wait} s`);
  router.add(defineDashboardRoute({
    method: 'post', path: '/auth/sso/start', operationId: 'dashboardSsoStart', summary: 'Start single sign-on for an email address', auth: 'public',
    description: 'Finds the organization that verified the email\'s domain and answers the URL of its identity provider to send the browser to. '
      + 'Unknown domain: 404 `sso_unknown_domain`; more than 20 starts from one address in a minute: 429 `rate_limited`; the organization is not on the Team plan: 402 `plan_required`; the identity provider cannot be reached: 502 `sso_idp_unreachable`.',
    body: z.strictObject({ email: emailSchema }),
    responses: { 200: { description: 'Where to send the browser', schema: z.object({ redirect_url: z.string() }) }, 404: { description: 'sso_unknown_domain' }, 429: { description: 'rate_limited: more than 20 starts from one address in a minute' } },
    async handler({ ctx, body, deps }) {
      starts.take(requestIp(ctx, deps.env), deps.now().getTime());
      const domain = emailDomain(body.email);
      const claim = await deps.m.SsoDomain.findOne({ domain, status: 'verified' }).lean();
      const conn = claim ? await deps.m.SsoConnection.findOne({ org_id: claim.org_id }).lean() : null;
      if (!claim || !conn) {
        const failure = Object.assign(new SsoFailure(claim ? 'sso_not_configured' : 'sso_unknown_domain', `No SSO connection for ${domain}`), { orgId: claim?.org_id ?? UNATTRIBUTED_ORG });
        await recordSsoFailure(ctx, deps, failure, null, body.email);
        throw new AppError(404, failure.code, `email: ${SSO_ERRORS[failure.code]}`);
      }
      await requireFeature(deps.m, conn.org_id, 'single_sign_on', deps.now(), deps.env.UPGRADE_URL);
      try {
        if (conn.protocol === 'saml') return { body: { redirect_url: await samlSignInUrl(deps.m, deps.env, conn) } };
        const { url, state } = await startOidc(deps.m, deps.env, conn, deps.now(), deps.services.fetchAllowHosts);
        ctx.append('Set-Cookie', stateCookie(ctx, deps, state, OIDC_STATE_TTL_MS / 1000));
        return { body: { redirect_url: url } };
      } catch (err) {
        const failure = err instanceof SsoFailure ? err : new SsoFailure('sso_idp_unreachable', String((err as Error)?.message ?? err), { cause: err });
        failure.orgId = conn.org_id;
        await recordSsoFailure(ctx, deps, failure, conn.protocol as SsoProtocol, body.email);
        throw new AppError(502, failure.code, SSO_ERRORS[failure.code]);
      }
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: '/auth/sso/oidc/callback', operationId: 'dashboardSsoOidcCallback', summary: 'Where the OpenID provider sends the browser back', auth: 'public',
    description: 'Signs in and redirects (303) to the dashboard, or to `/sign-in?sso_error=<code>`.',
    responses: { 303: { description: 'To the dashboard, or to the sign-in page with an error code' } },
    async handler({ ctx, deps }) {
      const query = new URLSearchParams(ctx.querystring);
      const cookieState = readCookie(ctx, SSO_STATE_COOKIE);
      ctx.append('Set-Cookie', stateCookie(ctx, deps, '', 0));
      const orgId = await orgOfState(deps.m, query.get('state') ?? undefined);
      return finishOrRedirect(ctx, deps, 'oidc', orgId, async () => {
        const { orgId: org, email } = await finishOidc(deps.m, deps.env, query, cookieState, deps.now(), deps.services.fetchAllowHosts);
        await completeSsoSignIn(ctx, deps, org, email, 'oidc').catch((err) => { throw Object.assign(err, { email }); });
      });
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/auth/sso/saml/:orgId/acs', operationId: 'dashboardSsoSamlAcs', summary: 'SAML assertion consumer service (HTTP-POST binding)', auth: 'public',
    description: 'The identity provider\'s page posts `SAMLResponse` here (form-encoded, cross-site by design; exempt from the JSON and Origin checks). '
      + 'Signs in and redirects (303) to the dashboard, or to `/sign-in?sso_error=<code>`.',
    params: orgParams,
    responses: { 303: { description: 'To the dashboard, or to the sign-in page with an error code' } },
    async handler({ ctx, params, deps }) {
      return finishOrRedirect(ctx, deps, 'saml', params.orgId, async () => {
        const form = await readForm(ctx);
        const samlResponse = form.get('SAMLResponse');
        if (!samlResponse) throw new SsoFailure('sso_invalid_signature', 'The POST has no SAMLResponse');
        const conn = await deps.m.SsoConnection.findOne({ org_id: params.orgId, protocol: 'saml' }).lean();
        if (!conn) throw new SsoFailure('sso_not_configured', 'No SAML connection for this organization');
        const { email, idpInitiated } = await validateSamlResponse(deps.m, deps.env, conn, samlResponse, deps.now());
        await completeSsoSignIn(ctx, deps, params.orgId, email, 'saml', { idp_initiated: idpInitiated }).catch((err) => { throw Object.assign(err, { email }); });
      });
    },
  }));

  router.add(defineDashboardRoute({
    method: 'get', path: '/auth/sso/saml/:orgId/metadata', operationId: 'dashboardSsoSamlMetadata', summary: 'Our SAML service provider metadata for an organization', auth: 'public',
    description: 'XML for the identity provider: entity id (this URL), ACS URL, signed assertions wanted. 404 for an unknown organization.',
    params: orgParams,
    responses: { 200: { description: 'SAML 2.0 metadata (application/samlmetadata+xml)' } },
    async handler({ params, deps }) {
      if (!await deps.m.Organization.exists({ _id: params.orgId })) throw notFound('organization');
      return { headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8', 'content-disposition': 'inline; filename="folio-sp-metadata.xml"' }, body: spMetadataXml(deps.env, params.orgId) };
    },
  }));
}
