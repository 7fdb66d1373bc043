/**
 * Single sign-on settings under `/dashboard/api/sso` (owners; the `single_sign_on` feature,
 * team plan, else 402 `plan_required`): the organization's one connection (OIDC or SAML 2.0),
 * its verified email domains (DNS TXT, as custom domains) and "Require SSO". Sign-in itself is
 * in sso-sign-in-routes.ts, registered from here.
 */
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { z } from 'zod';
import type { Deps } from '../http/route.ts';
import { requireFeature } from '../entitlements/resolver.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import { SSO_DEFAULT_ROLES, type SsoConnection } from '../db/models/sso-connection.ts';
import type { SsoDomain } from '../db/models/sso-domain.ts';
import { sealSecret } from '../secrets/secret-box.ts';
import { checkIssuerUrl, OIDC_SECRET_PURPOSE, oidcRedirectUri } from '../sso/oidc-rp.ts';
import { MAX_METADATA_BYTES, parseIdpMetadata } from '../sso/saml-metadata.ts';
import { spUrls } from '../sso/saml-sp.ts';
import { safeFetch } from '../outbound/safe-fetch.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter, type DashboardHandlerInput } from './dashboard-route.ts';
import { checkDns, verificationOf } from './domain-verification.ts';
import { noContent } from './schemas.ts';
import { registerSsoSignInRoutes } from './sso-sign-in-routes.ts';

const roleSchema = z.enum(SSO_DEFAULT_ROLES);
const domainSchema = z.string().trim().toLowerCase().max(253, 'must be at most 253 characters')
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain name such as example.com');

const connectionView = z.object({
  protocol: z.enum(['oidc', 'saml']),
  default_role: roleSchema,
  require_sso: z.boolean(),
  allow_idp_initiated: z.boolean(),
  oidc: z.object({ issuer: z.string(), client_id: z.string(), client_secret_set: z.boolean() }).nullable(),
  saml: z.object({ metadata_url: z.string().nullable(), idp_entity_id: z.string(), idp_sso_url: z.string(), certificates: z.number().int() }).nullable(),
  updated_at: z.string(),
}).meta({ id: 'DashboardSsoConnection' });

const domainView = z.object({
  domain: z.string(), status: z.enum(['pending', 'verified']), created_at: z.string(), verified_at: z.string().nullable(),
  verification: z.object({ txt_name: z.string(), txt_value: z.string() }),
}).meta({ id: 'DashboardSsoDomain' });

const settingsView = z.object({
  connection: connectionView.nullable(),
  domains: z.array(domainView),
  service_provider: z.object({ entity_id: z.string(), acs_url: z.string(), metadata_url: z.string(), oidc_redirect_uri: z.string() }),
}).meta({ id: 'DashboardSsoSettings' });

const connectionBody = z.discriminatedUnion('protocol', [
  z.strictObject({
    protocol: z.literal('oidc'),
    issuer: z.url({ message: 'must be the issuer URL, e.g. https://login.example.com' }).max(500, 'must be at most 500 characters'),
    client_id: z.string().trim().min(1, 'Required').max(300, 'must be at most 300 characters'),
    client_secret: z.string().min(1, 'Required').max(1000, 'must be at most 1000 characters').optional().describe('Required the first time; omit to keep the stored one'),
    default_role: roleSchema.optional(),
  }),
  z.strictObject({
    protocol: z.literal('saml'),
    metadata_url: z.url({ message: 'must be an http(s) URL' }).max(1000, 'must be at most 1000 characters').optional(),
    metadata_xml: z.string().max(MAX_METADATA_BYTES, `must be at most ${MAX_METADATA_BYTES / 1024} KB`).optional(),
    default_role: roleSchema.optional(),
    allow_idp_initiated: z.boolean().optional(),
  }),
]);

function viewConnection(c: SsoConnection): z.infer<typeof connectionView> {
  return {
    protocol: c.protocol as 'oidc' | 'saml', default_role: c.default_role as z.infer<typeof roleSchema>, require_sso: c.require_sso, allow_idp_initiated: c.allow_idp_initiated,
    oidc: c.protocol === 'oidc' ? { issuer: c.oidc_issuer ?? '', client_id: c.oidc_client_id ?? '', client_secret_set: Boolean(c.oidc_client_secret_sealed) } : null,
    saml: c.protocol === 'saml' ? { metadata_url: c.saml_metadata_url ?? null, idp_entity_id: c.saml_idp_entity_id ?? '', idp_sso_url: c.saml_idp_sso_url ?? '', certificates: c.saml_idp_certs.length } : null,
    updated_at: c.updated_at.toISOString(),
  };
}

function viewDomain(d: SsoDomain): z.infer<typeof domainView> {
  const v = verificationOf(d.domain, d.verification_token);
  return { domain: d.domain, status: d.status as 'pending' | 'verified', created_at: d.created_at.toISOString(), verified_at: d.verified_at?.toISOString() ?? null, verification: { txt_name: v.txt_name, txt_value: v.txt_value } };
}

async function settings(deps: Deps, orgId: string): Promise<z.infer<typeof settingsView>> {
  const [conn, domains] = await Promise.all([
    deps.m.SsoConnection.findOne({ org_id: orgId }).lean(),
    deps.m.SsoDomain.find({ org_id: orgId }).sort({ created_at: 1, _id: 1 }).lean(),
  ]);
  const sp = spUrls(deps.env, orgId);
  return {
    connection: conn ? viewConnection(conn) : null, domains: domains.map(viewDomain),
    service_provider: { entity_id: sp.entityId, acs_url: sp.acsUrl, metadata_url: sp.metadataUrl, oidc_redirect_uri: oidcRedirectUri(deps.env) },
  };
}

const gate = (i: DashboardHandlerInput<any, any, any>) => requireFeature(i.deps.m, i.session.orgId, 'single_sign_on', i.deps.now(), i.deps.env.UPGRADE_URL);
const allowHosts = (deps: Deps) => deps.services.fetchAllowHosts ?? [];

/** Checks an issuer by discovering it now, so a typo is a 400 here rather than a failed sign-in later. */
async function checkIssuer(deps: Deps, issuer: string, clientId: string): Promise<void> {
  try {
    await checkIssuerUrl(issuer, 'issuer', allowHosts(deps));
    const url = new URL(issuer);
    await oidc.discovery(url, clientId, undefined, undefined, { execute: allowHosts(deps).includes(url.host) ? [oidc.allowInsecureRequests] : [], timeout: 10 });
  } catch (err) {
    throw invalid('issuer', `OpenID discovery failed (${String((err as Error).message ?? err).slice(0, 200)}); expected an issuer serving /.well-known/openid-configuration`);
  }
}

const domainParams = z.object({ domain: domainSchema });

export function registerSsoRoutes(router: DashboardRouter, deps: Deps): void {
  registerSsoSignInRoutes(router, deps);
  // Owners only (not every holder of sso.manage): the connection decides who can become a member.
  const owner = { permission: 'sso.manage' as const, roles: ['owner' as const] };

  router.add(defineDashboardRoute({
    method: 'get', path: '/sso', operationId: 'dashboardSsoSettings', summary: 'The organization\'s single sign-on settings', ...owner,
    description: 'Team plan (402 `plan_required` otherwise). The connection (the OIDC client secret is never answered), the email domains, and the URLs the identity provider needs.',
    responses: { 200: { description: 'Settings', schema: settingsView } },
    async handler(i) {
      await gate(i);
      return { body: await settings(i.deps, i.session.orgId) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'put', path: '/sso/connection', operationId: 'dashboardSsoPutConnection', summary: 'Set up or replace the SSO connection (OIDC or SAML)', ...owner,
    description: 'OIDC: `issuer` (discovered now; 400 if discovery fails), `client_id`, `client_secret` (stored encrypted, never shown; required the first time). '
      + 'SAML: `metadata_url` (fetched now, public addresses only) or `metadata_xml`; assertions must be signed with its signing certificate. '
      + 'Switching protocol replaces the connection; "Require SSO" is kept.',
    body: connectionBody,
    responses: { 200: { description: 'Settings', schema: settingsView } },
    async handler(i) {
      await gate(i);
      const { body, deps, session } = i;
      const now = deps.now();
      const existing = await deps.m.SsoConnection.findOne({ org_id: session.orgId }).lean();
      const set: Record<string, unknown> = { protocol: body.protocol, updated_at: now };
      if (body.default_role) set.default_role = body.default_role;
      if (body.protocol === 'oidc') {
        const keepSecret = existing?.protocol === 'oidc' ? existing.oidc_client_secret_sealed : null;
        if (!body.client_secret && !keepSecret) throw invalid('client_secret', 'Required for a new OIDC connection');
        await checkIssuer(deps, body.issuer, body.client_id);
        Object.assign(set, {
          oidc_issuer: body.issuer, oidc_client_id: body.client_id,
          oidc_client_secret_sealed: body.client_secret ? await sealSecret(deps.m, OIDC_SECRET_PURPOSE, body.client_secret) : keepSecret,
          saml_metadata_url: null, saml_metadata_xml: null, saml_idp_entity_id: null, saml_idp_sso_url: null, saml_idp_certs: [], allow_idp_initiated: false,
        });
      } else {
        if (Boolean(body.metadata_url) === Boolean(body.metadata_xml)) throw invalid('metadata_url', 'Give either the metadata URL or the metadata XML, one of the two');
        let xml = body.metadata_xml;
        if (body.metadata_url) {
          xml = (await safeFetch(body.metadata_url, { field: 'metadata_url', maxBytes: MAX_METADATA_BYTES, timeoutMs: 10_000, allowHosts: allowHosts(deps) })).toString('utf8');
        }
        const meta = parseIdpMetadata(xml!, body.metadata_url ? 'metadata_url' : 'metadata_xml');
        Object.assign(set, {
          saml_metadata_url: body.metadata_url ?? null, saml_metadata_xml: xml, saml_idp_entity_id: meta.entityId, saml_idp_sso_url: meta.ssoUrl, saml_idp_certs: meta.certs,
          allow_idp_initiated: body.allow_idp_initiated ?? (existing?.protocol === 'saml' ? existing.allow_idp_initiated : false),
          oidc_issuer: null, oidc_client_id: null, oidc_client_secret_sealed: null,
        });
      }
      await deps.m.SsoConnection.updateOne({ org_id: session.orgId }, { $set: set, $setOnInsert: { created_at: now } }, { upsert: true });
      await auditAction(i.ctx, deps, session, 'sso.configured', { type: 'sso_connection', id: session.orgId, name: body.protocol }, { protocol: body.protocol });
      return { body: await settings(deps, session.orgId) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'patch', path: '/sso/connection', operationId: 'dashboardSsoPatchConnection', summary: 'Change "Require SSO", the default role or IdP-initiated sign-in', ...owner,
    body: z.strictObject({ require_sso: z.boolean().optional(), default_role: roleSchema.optional(), allow_idp_initiated: z.boolean().optional() }),
    responses: { 200: { description: 'Settings', schema: settingsView }, 404: { description: 'not_found: no connection yet' } },
    async handler(i) {
      await gate(i);
      const { body, deps, session } = i;
      const conn = await deps.m.SsoConnection.findOne({ org_id: session.orgId }).lean();
      if (!conn) throw notFound('SSO connection');
      if (body.allow_idp_initiated && conn.protocol !== 'saml') throw invalid('allow_idp_initiated', 'applies to SAML connections only');
      await deps.m.SsoConnection.updateOne({ _id: conn._id }, { $set: { ...body, updated_at: deps.now() } });
      if (body.require_sso !== undefined && body.require_sso !== conn.require_sso) {
        await auditAction(i.ctx, deps, session, 'sso.require_changed', { type: 'sso_connection', id: session.orgId }, { require_sso: body.require_sso });
      }
      return { body: await settings(deps, session.orgId) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/sso/connection', operationId: 'dashboardSsoDeleteConnection', summary: 'Remove the SSO connection (members sign in with passwords again)', ...owner,
    responses: noContent,
    async handler(i) {
      await gate(i);
      const { deletedCount } = await i.deps.m.SsoConnection.deleteOne({ org_id: i.session.orgId });
      if (!deletedCount) throw notFound('SSO connection');
      await auditAction(i.ctx, i.deps, i.session, 'sso.removed', { type: 'sso_connection', id: i.session.orgId });
      return { status: 204 };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/sso/domains', operationId: 'dashboardSsoAddDomain', summary: 'Claim an email domain for SSO (pending until its TXT record is verified)', ...owner,
    body: z.strictObject({ domain: domainSchema }),
    responses: { 201: { description: 'The pending domain and the TXT record to publish', schema: domainView }, 409: { description: 'domain_taken or domain_exists' } },
    async handler(i) {
      await gate(i);
      const { body, deps, session } = i;
      if (await deps.m.SsoDomain.exists({ domain: body.domain, status: 'verified', org_id: { $ne: session.orgId } })) {
        throw new AppError(409, 'domain_taken', `domain: ${body.domain} is verified by another organization`);
      }
      if (await deps.m.SsoDomain.exists({ domain: body.domain, org_id: session.orgId })) throw new AppError(409, 'domain_exists', `domain: ${body.domain} is already listed`);
      const created = await deps.m.SsoDomain.create({ org_id: session.orgId, domain: body.domain, verification_token: randomBytes(18).toString('base64url'), created_at: deps.now() });
      await auditAction(i.ctx, deps, session, 'sso.domain_added', { type: 'sso_domain', id: created._id, name: body.domain });
      return { status: 201, body: viewDomain(created.toObject()) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/sso/domains/:domain/verify', operationId: 'dashboardSsoVerifyDomain', summary: 'Check the domain\'s TXT record now', ...owner,
    description: 'Looks up `_folio-challenge.<domain>` through DNS_RESOLVER. 409 `verification_failed` saying what was found; 409 `domain_taken` when another organization verified it first.',
    params: domainParams,
    responses: { 200: { description: 'The domain', schema: domainView }, 409: { description: 'verification_failed or domain_taken' } },
    async handler(i) {
      await gate(i);
      const { params, deps, session } = i;
      const claim = await deps.m.SsoDomain.findOne({ org_id: session.orgId, domain: params.domain }).lean();
      if (!claim) throw notFound('domain');
      if (claim.status === 'verified') return { body: viewDomain(claim) };
      const problem = await checkDns(deps.env, claim.domain, claim.verification_token);
      if (problem) throw new AppError(409, 'verification_failed', `${claim.domain} is not verified yet: ${problem}`);
      try {
        await deps.m.SsoDomain.updateOne({ _id: claim._id }, { $set: { status: 'verified', verified_at: deps.now() } });
      } catch (err: any) {
        if (err?.code === 11000) throw new AppError(409, 'domain_taken', `domain: ${claim.domain} is verified by another organization`);
        throw err;
      }
      await auditAction(i.ctx, deps, session, 'sso.domain_verified', { type: 'sso_domain', id: claim._id, name: claim.domain });
      return { body: viewDomain({ ...claim, status: 'verified', verified_at: deps.now() }) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/sso/domains/:domain', operationId: 'dashboardSsoRemoveDomain', summary: 'Remove an email domain', ...owner,
    params: domainParams, responses: noContent,
    async handler(i) {
      await gate(i);
      const claim = await i.deps.m.SsoDomain.findOneAndDelete({ org_id: i.session.orgId, domain: i.params.domain }).lean();
      if (!claim) throw notFound('domain');
      await auditAction(i.ctx, i.deps, i.session, 'sso.domain_removed', { type: 'sso_domain', id: claim._id, name: claim.domain });
      return { status: 204 };
    },
  }));
}
