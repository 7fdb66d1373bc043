/**
 * The DNS and certificate parts of the dashboard's domain resource (`DashboardDomain`): the
 * records to create (dns-records.ts) and the certificate's state, read from its record
 * (models/certificate.ts). `certificate` is null while the domain is not verified (none is ever
 * ordered for it) and when the platform orders none itself (ACME_DIRECTORY_URL unset: an edge
 * in front terminates TLS).
 */
import { z } from 'zod';
import { CERTIFICATE_STATUSES, type CertificateStatus } from '../db/models/certificate.ts';
import type { Certificate, Domain, Models } from '../db/models/index.ts';
import type { Env } from '../env.ts';

export const dnsSetupSchema = z.object({
  kind: z.enum(['subdomain', 'apex']).describe('`subdomain`: one CNAME record; `apex`: A/AAAA records with the platform\'s addresses (or an ALIAS/ANAME record where none are configured)'),
  records: z.array(z.object({ type: z.enum(['CNAME', 'A', 'AAAA', 'ALIAS']), name: z.string(), value: z.string() })),
}).describe('The DNS records that point the domain at the platform');

export const certificateStateSchema = z.object({
  status: z.enum(CERTIFICATE_STATUSES).describe('`pending`: being ordered; `issued`: served over HTTPS; `renewing`: served, a replacement is being ordered; `failed`: the last order failed (see `last_error`)'),
  issued_at: z.string().nullable(),
  expires_at: z.string().nullable().describe('When the certificate in use expires; renewed automatically before then'),
  last_error: z.string().nullable().describe('Why the last order failed, in words for people; null after a success'),
  next_attempt_at: z.string().nullable().describe('When a failed order is tried again'),
}).nullable().describe('The HTTPS certificate; null until the domain is verified, and when certificates are not managed by the platform');

export type CertificateState = z.infer<typeof certificateStateSchema>;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The certificate state of `domain`, from its record (or `pending` before the first check made one). */
export function certificateState(env: Pick<Env, 'ACME_DIRECTORY_URL'>, domain: Pick<Domain, 'status' | 'project_id'>, record: Certificate | undefined): CertificateState {
  if (!env.ACME_DIRECTORY_URL || domain.status !== 'verified') return null;
  if (!record || record.project_id !== domain.project_id) return { status: 'pending', issued_at: null, expires_at: null, last_error: null, next_attempt_at: null };
  return {
    status: record.status as CertificateStatus,
    issued_at: iso(record.issued_at), expires_at: iso(record.not_after), last_error: record.last_error ?? null,
    next_attempt_at: record.status === 'failed' ? iso(record.next_attempt_at) : null,
  };
}

/** The certificate records of `hostnames`, by hostname. */
export async function certificatesOf(m: Models, hostnames: string[]): Promise<Map<string, Certificate>> {
  const rows = await m.Certificate.find({ _id: { $in: hostnames } }, { cert_pem: 0, key_sealed: 0 }).lean();
  return new Map(rows.map((r) => [r._id, r as Certificate]));
}
