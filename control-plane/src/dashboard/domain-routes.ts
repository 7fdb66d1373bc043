/**
 * Custom domains of a project: add (counts against `max_custom_domains`, pending until
 * verified), verify (DNS TXT or HTTP token file), remove. A hostname belongs to one project on
 * the whole platform; the site server serves it only once verified. The project's
 * `custom_domain` (shown by `/v1` and used for its site URL) is its first verified domain.
 */
import { z } from 'zod';
import { findOwnProject } from '../api/projects.ts';
import { projectParams } from '../api/schemas.ts';
import type { Domain } from '../db/models/index.ts';
import { DOMAIN_STATUSES } from '../db/models/domain.ts';
import { checkLifetimeCap } from '../entitlements/resolver.ts';
import { AppError, notFound } from '../errors.ts';
import type { Deps } from '../http/route.ts';
import { auditAction } from './audit-hook.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';
import { verificationOf, verifyDomain } from './domain-verification.ts';
import { noContent } from './schemas.ts';
import { newToken } from './tokens.ts';

const EDITORS = ['owner', 'admin'] as const;
const HOSTNAME_RULE = 'must be a hostname such as docs.example.com (letters, digits, hyphens, at least one dot, no port)';
const hostnameSchema = z.string().trim().toLowerCase().max(253, HOSTNAME_RULE)
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, HOSTNAME_RULE);

const domainSchema = z.object({
  hostname: z.string(), status: z.enum(DOMAIN_STATUSES), created_at: z.string(), verified_at: z.string().nullable(),
  verification: z.object({ txt_name: z.string(), txt_value: z.string(), http_path: z.string(), http_body: z.string() }),
}).meta({ id: 'DashboardDomain' });
const domainParams = projectParams.extend({ hostname: z.string() });

function domainJson(d: Domain) {
  return {
    hostname: d._id, status: d.status as 'pending' | 'verified', created_at: d.created_at.toISOString(),
    verified_at: d.verified_at ? d.verified_at.toISOString() : null, verification: verificationOf(d._id, d.verification_token),
  };
}

/** Points the project's `custom_domain` at its oldest verified domain (or none). */
async function syncPrimary(deps: Deps, projectId: string): Promise<void> {
  const first = await deps.m.Domain.findOne({ project_id: projectId, status: 'verified' }).sort({ verified_at: 1, _id: 1 }).lean();
  await deps.m.Project.updateOne({ _id: projectId }, { $set: { custom_domain: first?._id ?? null } });
}

export function registerDomainRoutes(router: DashboardRouter, _deps: Deps): void {
  router.add(defineDashboardRoute({
    method: 'get', path: '/projects/:id/domains', operationId: 'dashboardListDomains', summary: 'A project\'s custom domains', params: projectParams,
    responses: { 200: { description: 'Domains', schema: z.object({ data: z.array(domainSchema) }) } },
    async handler({ params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const rows = await deps.m.Domain.find({ project_id: project._id }).sort({ created_at: 1, _id: 1 }).lean();
      return { body: { data: rows.map(domainJson) } };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/domains', operationId: 'dashboardAddDomain', summary: 'Add a custom domain (pending until verified)', roles: [...EDITORS],
    description: 'Publish `verification.txt_value` as a TXT record at `verification.txt_name`, or serve `http_body` at `http://<hostname><http_path>`, then call verify. '
      + 'Past `max_custom_domains` (pending ones count): 402 `plan_limit_reached`. A hostname another project holds: 409 `domain_taken`.',
    params: projectParams, body: z.strictObject({ hostname: hostnameSchema }),
    responses: { 201: { description: 'The pending domain', schema: domainSchema }, 402: { description: 'plan_limit_reached' }, 409: { description: 'domain_taken' } },
    async handler({ ctx, params, body, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const suffix = `.${deps.env.SITES_DOMAIN.toLowerCase()}`;
      if (body.hostname.endsWith(suffix) || body.hostname === deps.env.SITES_DOMAIN.toLowerCase()) {
        throw new AppError(400, 'invalid_request', `hostname: must not be under ${deps.env.SITES_DOMAIN}, the platform's own sites domain`);
      }
      if (await deps.m.Domain.exists({ _id: body.hostname })) throw new AppError(409, 'domain_taken', `hostname: ${body.hostname} is already added to a project`);
      await checkLifetimeCap(deps.m, session.orgId, 'max_custom_domains', deps.now(), deps.env.UPGRADE_URL);
      try {
        const created = await deps.m.Domain.create({ _id: body.hostname, org_id: session.orgId, project_id: project._id, verification_token: newToken(), created_at: deps.now() });
        await auditAction(ctx, deps, session, 'domain.added', { type: 'domain', id: body.hostname, name: project.slug });
        return { status: 201, body: domainJson(created.toObject() as Domain) };
      } catch (err: any) {
        if (err?.code === 11000) throw new AppError(409, 'domain_taken', `hostname: ${body.hostname} is already added to a project`);
        throw err;
      }
    },
  }));

  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/domains/:hostname/verify', operationId: 'dashboardVerifyDomain', summary: 'Check the DNS record or token file now', roles: [...EDITORS],
    description: 'Verified: 200 with the domain, served from now on. Not yet: 409 `verification_failed` saying what each method found.',
    params: domainParams,
    responses: { 200: { description: 'The verified domain', schema: domainSchema }, 409: { description: 'verification_failed' } },
    async handler({ params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const domain = await deps.m.Domain.findOne({ _id: params.hostname.toLowerCase(), project_id: project._id }).lean();
      if (!domain) throw notFound('domain');
      if (domain.status !== 'verified') {
        const result = await verifyDomain(deps.env, domain._id, domain.verification_token);
        if (!result.verified) throw new AppError(409, 'verification_failed', `${domain._id} is not verified yet: DNS: ${result.dns}; HTTP: ${result.http}`);
        await deps.m.Domain.updateOne({ _id: domain._id }, { $set: { status: 'verified', verified_at: deps.now() } });
        await syncPrimary(deps, project._id);
      }
      return { body: domainJson((await deps.m.Domain.findById(domain._id).lean()) as Domain) };
    },
  }));

  router.add(defineDashboardRoute({
    method: 'delete', path: '/projects/:id/domains/:hostname', operationId: 'dashboardRemoveDomain', summary: 'Remove a custom domain; the site stops answering on it at once', roles: [...EDITORS],
    params: domainParams, responses: noContent,
    async handler({ params, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, params.id);
      const { deletedCount } = await deps.m.Domain.deleteOne({ _id: params.hostname.toLowerCase(), project_id: project._id });
      if (!deletedCount) throw notFound('domain');
      await syncPrimary(deps, project._id);
      return { status: 204 };
    },
  }));
}
