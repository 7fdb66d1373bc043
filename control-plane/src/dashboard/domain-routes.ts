/**
 * Custom domains of a project: add (a pending claim, counted against `max_custom_domains` until
 * it lapses 7 days later), verify (DNS TXT or HTTP token file), remove. Pending claims block
 * nobody: several projects, of any organizations, may claim the same hostname, each with its own
 * token, and the first to verify wins; the others' claims are removed then, and from then on
 * adding the hostname anywhere else is 409 `domain_taken`. The site server serves a domain only
 * once verified. The project's `custom_domain` (shown by `/v1` and used for its site URL) is its
 * first verified domain.
 */
import { z } from 'zod';
import { findOwnProject } from '../projects/own-project.ts';
import { projectParams } from '../api/schemas.ts';
import type { Certificate, Domain } from '../db/models/index.ts';
import { certificatesOf, certificateState, certificateStateSchema, dnsSetupSchema } from '../domains/certificate-json.ts';
import { dnsSetupFor } from '../domains/dns-records.ts';
import type { Env } from '../env.ts';
import { DOMAIN_STATUSES, liveDomainFilter, PENDING_DOMAIN_TTL_MS } from '../db/models/domain.ts';
import { hostFromInput } from '../../dashboard-app/src/shared/hostname.ts';
import { checkLifetimeCap } from '../entitlements/resolver.ts';
import { AppError, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { auditAction } from './audit-hook.ts';
import { registerCertificateRoutes } from './certificate-routes.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { verificationOf, verifyDomain } from './domain-verification.ts';
import { noContent } from './schemas.ts';
import { newToken } from './tokens.ts';

const HOSTNAME_RULE = 'must be a hostname such as docs.example.com (letters, digits, hyphens, at least one dot, no port)';
// A pasted URL (`https://docs.example.com/path`) counts as its host (shared/hostname.ts); the
// rule then judges the host alone, so a port or an address without a dot is still refused.
const hostnameSchema = z.string().transform(hostFromInput).pipe(z.string().max(253, HOSTNAME_RULE)
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, HOSTNAME_RULE));

const domainSchema = z.object({
  hostname: z.string(), status: z.enum(DOMAIN_STATUSES), created_at: z.string(), verified_at: z.string().nullable(),
  expires_at: z.string().nullable().describe('When a pending claim lapses unless verified by then (7 days after it was added); null once verified'),
  verification: z.object({ txt_name: z.string(), txt_value: z.string(), http_path: z.string(), http_body: z.string() }),
  dns: dnsSetupSchema,
  certificate: certificateStateSchema,
}).meta({ id: 'DashboardDomain' });
const domainParams = projectParams.extend({ hostname: z.string() });

function domainJson(env: Env, d: Domain, cert?: Certificate) {
  return {
    hostname: d.hostname, status: d.status as 'pending' | 'verified', created_at: d.created_at.toISOString(),
    verified_at: d.verified_at ? d.verified_at.toISOString() : null,
    expires_at: d.status === 'pending' && d.expires_at ? d.expires_at.toISOString() : null,
    verification: verificationOf(d.hostname, d.verification_token),
    dns: dnsSetupFor(env, d.hostname),
    certificate: certificateState(env, d, cert),
  };
}

const taken = (hostname: string) => new AppError(409, 'domain_taken', `hostname: ${hostname} is already added to a project`);
const isDuplicateKey = (err: unknown) => (err as { code?: number } | null)?.code === 11000;

/** Points the project's `custom_domain` at its oldest verified domain (or none). */
async function syncPrimary(deps: Deps, projectId: string): Promise<void> {
  const first = await deps.m.Domain.findOne({ project_id: projectId, status: 'verified' }).sort({ verified_at: 1, _id: 1 }).lean();
  await deps.m.Project.updateOne({ _id: projectId }, { $set: { custom_domain: first?.hostname ?? null } });
}

export function registerDomainRoutes(router: DashboardRouter, _deps: Deps): void {
  registerCertificateRoutes(router);
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/domains', operationId: 'dashboardListDomains', permission: 'projects.read', summary: 'A project\'s custom domains', params: projectParams,
    responses: { 200: { description: 'Domains', schema: z.object({ data: z.array(domainSchema) }) } },
    async handler({ params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const rows = await deps.m.Domain.find({ project_id: project._id, ...liveDomainFilter(deps.now()) }).sort({ created_at: 1, _id: 1 }).lean();
      const certs = await certificatesOf(deps.m, rows.map((d) => d.hostname));
      return { body: { data: rows.map((d) => domainJson(deps.env, d, certs.get(d.hostname))) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/domains', operationId: 'dashboardAddDomain', permission: 'domains.manage', summary: 'Add a custom domain (pending until verified)',
    description: 'Publish `verification.txt_value` as a TXT record at `verification.txt_name`, or serve `http_body` at `http://<hostname><http_path>`, then call verify before `expires_at` (7 days). '
      + 'Other projects may hold pending claims on the same hostname: they do not block this one, and the first to verify wins. '
      + 'Past `max_custom_domains` (pending claims count until they lapse): 402 `plan_limit_reached`. A hostname verified by any project, or already claimed by this one: 409 `domain_taken`.',
    params: projectParams, body: z.strictObject({ hostname: hostnameSchema }),
    responses: { 201: { description: 'The pending domain', schema: domainSchema }, 402: { description: 'plan_limit_reached' }, 409: { description: 'domain_taken' } },
    async handler({ ctx, params, body, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const suffix = `.${deps.env.SITES_DOMAIN.toLowerCase()}`;
      if (body.hostname.endsWith(suffix) || body.hostname === deps.env.SITES_DOMAIN.toLowerCase()) {
        throw new AppError(400, 'invalid_request', `hostname: must not be under ${deps.env.SITES_DOMAIN}, the platform's own sites domain`);
      }
      const now = deps.now();
      const hostname = body.hostname;
      // Only a verified claim, or this project's own live one, stands in the way.
      if (await deps.m.Domain.exists({ hostname, status: 'verified' })) throw taken(hostname);
      if (await deps.m.Domain.exists({ hostname, project_id: project._id, ...liveDomainFilter(now) })) throw taken(hostname);
      await deps.m.Domain.deleteMany({ hostname, project_id: project._id, status: 'pending', expires_at: { $lte: now } });
      await checkLifetimeCap(deps.m, session.orgId, 'max_custom_domains', now, deps.env.UPGRADE_URL);
      let created: Domain;
      try {
        created = (await deps.m.Domain.create({
          hostname, org_id: session.orgId, project_id: project._id, verification_token: newToken(), created_at: now, expires_at: new Date(now.getTime() + PENDING_DOMAIN_TTL_MS),
        })).toObject() as Domain;
      } catch (err) {
        if (isDuplicateKey(err)) throw taken(hostname);
        throw err;
      }
      // Another project may have verified it while this claim was made: then this one is moot.
      if (await deps.m.Domain.exists({ hostname, status: 'verified', project_id: { $ne: project._id } })) {
        await deps.m.Domain.deleteOne({ _id: created._id });
        throw taken(hostname);
      }
      await auditAction(ctx, deps, session, 'domain.added', { type: 'domain', id: hostname, name: project.slug });
      return { status: 201, body: domainJson(deps.env, created) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/domains/:hostname/verify', operationId: 'dashboardVerifyDomain', permission: 'domains.manage', summary: 'Check the DNS record or token file now',
    description: 'Verified: 200 with the domain, served from now on; other projects\' pending claims on the hostname are removed. Not yet: 409 `verification_failed` saying what each method found. '
      + 'Another project verified it first: 409 `domain_taken` (and this claim is removed). A claim that lapsed: 404 `not_found`.',
    params: domainParams,
    responses: { 200: { description: 'The verified domain', schema: domainSchema }, 409: { description: 'verification_failed, domain_taken' } },
    async handler({ params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const hostname = params.hostname.toLowerCase();
      const domain = await deps.m.Domain.findOne({ hostname, project_id: project._id, ...liveDomainFilter(deps.now()) }).lean();
      if (!domain) throw notFound('domain');
      if (domain.status !== 'verified') {
        const lost = async () => {
          await deps.m.Domain.deleteOne({ _id: domain._id, status: 'pending' });
          return taken(hostname);
        };
        if (await deps.m.Domain.exists({ hostname, status: 'verified' })) throw await lost();
        const result = await verifyDomain(deps.env, hostname, domain.verification_token);
        if (!result.verified) throw new AppError(409, 'verification_failed', `${hostname} is not verified yet: DNS: ${result.dns}; HTTP: ${result.http}`);
        // The unique index on verified hostnames lets exactly one of two simultaneous verifications through.
        try {
          const won = await deps.m.Domain.updateOne({ _id: domain._id, status: 'pending' }, { $set: { status: 'verified', verified_at: deps.now(), expires_at: null } });
          // Removed meanwhile: by the project that verified first, or deleted, or lapsed.
          if (won.matchedCount === 0) throw await deps.m.Domain.exists({ hostname, status: 'verified' }) ? taken(hostname) : notFound('domain');
        } catch (err) {
          if (isDuplicateKey(err)) throw await lost();
          throw err;
        }
        await deps.m.Domain.deleteMany({ hostname, _id: { $ne: domain._id } });
        await syncPrimary(deps, project._id);
        // Its certificate is ordered now rather than at the next scheduled check.
        deps.services.kickCertificates?.();
      }
      const certs = await certificatesOf(deps.m, [hostname]);
      return { body: domainJson(deps.env, (await deps.m.Domain.findById(domain._id).lean()) as Domain, certs.get(hostname)) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/projects/:id/domains/:hostname', operationId: 'dashboardRemoveDomain', permission: 'domains.manage', summary: 'Remove a custom domain; the site stops answering on it at once',
    params: domainParams, responses: noContent,
    async handler({ params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const { deletedCount } = await deps.m.Domain.deleteOne({ hostname: params.hostname.toLowerCase(), project_id: project._id });
      if (!deletedCount) throw notFound('domain');
      // Its certificate is no longer presented (domains/certificate-contexts.ts) nor renewed.
      await deps.m.Certificate.deleteOne({ _id: params.hostname.toLowerCase(), project_id: project._id });
      await syncPrimary(deps, project._id);
      return { status: 204 };
    },
  }));
}
