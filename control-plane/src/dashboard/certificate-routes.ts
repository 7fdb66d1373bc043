/**
 * `POST /projects/:id/domains/:hostname/certificate/retry`: order a verified domain's certificate
 * now instead of at the next attempt the backoff chose (after the customer fixed their DNS).
 * The certificate's state itself is part of the domain resource (domain-routes.ts).
 */
import { z } from 'zod';
import { projectParams } from '../api/schemas.ts';
import { liveDomainFilter } from '../db/models/domain.ts';
import { certificatesOf, certificateState, certificateStateSchema } from '../domains/certificate-json.ts';
import { AppError, notFound } from '../errors.ts';
import { findOwnProject } from '../projects/own-project.ts';
import { defineDashboardRoute, type DashboardRouter } from './dashboard-route.ts';

const params = projectParams.extend({ hostname: z.string() });

export function registerCertificateRoutes(router: DashboardRouter): void {
  router.add(defineDashboardRoute({
    method: 'post', path: '/projects/:id/domains/:hostname/certificate/retry', operationId: 'dashboardRetryCertificate', permission: 'domains.manage',
    summary: 'Order a verified domain\'s certificate now',
    description: 'For a certificate that is pending or failed: it is ordered at once rather than at `next_attempt_at`. '
      + 'A domain not verified yet: 409 `domain_not_verified`. A certificate issued or being renewed: 409 `certificate_not_failed`. '
      + 'A platform that leaves certificates to its edge (no ACME directory configured): 409 `certificates_not_managed`.',
    params,
    responses: {
      200: { description: 'The certificate\'s state', schema: z.object({ hostname: z.string(), certificate: certificateStateSchema }) },
      409: { description: 'domain_not_verified, certificate_not_failed, certificates_not_managed' },
    },
    async handler({ params: p, session, deps }) {
      const project = await findOwnProject(deps.m, session.orgId, p.id);
      const hostname = p.hostname.toLowerCase();
      const domain = await deps.m.Domain.findOne({ hostname, project_id: project._id, ...liveDomainFilter(deps.now()) }).lean();
      if (!domain) throw notFound('domain');
      if (!deps.env.ACME_DIRECTORY_URL) throw new AppError(409, 'certificates_not_managed', 'Certificates for custom domains are obtained by the platform\'s edge, not ordered here');
      if (domain.status !== 'verified') throw new AppError(409, 'domain_not_verified', `${hostname} is not verified yet; its certificate is ordered once it is`);
      const record = (await certificatesOf(deps.m, [hostname])).get(hostname);
      if (record && record.project_id === project._id && (record.status === 'issued' || record.status === 'renewing')) {
        throw new AppError(409, 'certificate_not_failed', `The certificate of ${hostname} is ${record.status}; it is renewed automatically before it expires`);
      }
      if (record) await deps.m.Certificate.updateOne({ _id: hostname, project_id: project._id, status: { $in: ['pending', 'failed'] } }, { $set: { next_attempt_at: deps.now() } });
      deps.services.kickCertificates?.();
      const now = (await certificatesOf(deps.m, [hostname])).get(hostname);
      return { body: { hostname, certificate: certificateState(deps.env, domain, now) } };
    },
  }));
}
