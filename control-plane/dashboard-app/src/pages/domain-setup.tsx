/**
 * A custom domain's DNS records to create and its HTTPS certificate's state, as the domain
 * resource describes them (`dns`, `certificate`): shown on the domains page under each domain.
 */
import { api } from '../api.ts';
import { CopyField } from '../ui/copy-button.tsx';
import { useSubmit } from '../ui/form.tsx';
import { formatDate } from '../ui/format.ts';
import { ErrorNotice, Notice } from '../ui/notice.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';

export interface DnsSetup { kind: 'subdomain' | 'apex'; records: { type: string; name: string; value: string }[] }
export interface CertificateState {
  status: 'pending' | 'issued' | 'renewing' | 'failed';
  issued_at: string | null;
  expires_at: string | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

/** The records that point the domain at the platform. */
export function DnsRecords({ dns }: { dns: DnsSetup }) {
  const alias = dns.records.some((r) => r.type === 'ALIAS');
  return (
    <div class="dns-records">
      <p>
        <strong>Point the domain here.</strong>{' '}
        {dns.kind === 'subdomain'
          ? 'Create this CNAME record at your DNS provider:'
          : alias
            ? 'An apex domain cannot hold a CNAME record: create an ALIAS (or ANAME, or "CNAME flattening") record if your DNS provider offers one:'
            : 'An apex domain cannot hold a CNAME record: create these address records:'}
      </p>
      {dns.records.map((r) => (
        <div class="dns-record" key={`${r.type} ${r.value}`}>
          <span class="badge">{r.type}</span>
          <CopyField label="Name" value={r.name} />
          <CopyField label={r.type === 'CNAME' || r.type === 'ALIAS' ? 'Target' : 'Address'} value={r.value} />
        </div>
      ))}
    </div>
  );
}

const CERTIFICATE_WORDS: Record<CertificateState['status'], string> = {
  pending: 'A certificate is being requested from the certificate authority. This usually takes under a minute once DNS points here.',
  issued: 'The site is served over HTTPS, and plain HTTP visits are redirected to it.',
  renewing: 'The site is served over HTTPS; a new certificate is being requested before this one expires.',
  failed: 'The certificate could not be obtained.',
};

/** The certificate's state, with the reason of a failure and a button to try again now. */
export function CertificateStatus({ cert, path, manage, onChange }: { cert: CertificateState | null; path: string; manage: boolean; onChange(): Promise<void> }) {
  const retry = useSubmit(async () => {
    await api('POST', `${path}/certificate/retry`);
    await onChange();
  });
  if (!cert) return null;
  return (
    <div class="certificate" data-certificate={cert.status}>
      <p>
        <strong>HTTPS certificate</strong> <StatusBadge status={cert.status} />{' '}
        {cert.expires_at && cert.status !== 'pending' && <span class="muted">valid until {formatDate(cert.expires_at)}, renewed automatically</span>}
      </p>
      <p class="muted">{CERTIFICATE_WORDS[cert.status]}</p>
      {cert.last_error && (
        <Notice tone="warning">
          {cert.last_error}
          {cert.next_attempt_at && <> Next attempt: {formatDate(cert.next_attempt_at)}.</>}
        </Notice>
      )}
      <ErrorNotice error={retry.error} />
      {manage && (cert.status === 'failed' || cert.status === 'pending') && cert.last_error && (
        <button type="button" onClick={() => retry.run()} disabled={retry.pending}>{retry.pending ? 'Requesting…' : 'Try again now'}</button>
      )}
    </div>
  );
}
