/**
 * Custom domains of a project: add one (it counts against the plan's custom domains), prove control with a
 * DNS TXT record or an HTTP token file, verify, remove. The site answers on a domain once verified.
 */
import { useState } from 'preact/hooks';
import { api, items } from '../api.ts';
import { hostFromInput } from '../shared/hostname.ts';
import { can, useSession } from '../session.ts';
import { CopyField } from '../ui/copy-button.tsx';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { formatDate } from '../ui/format.ts';
import { ProjectTabs } from '../ui/layout.tsx';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useProject } from '../ui/use-project.ts';
import { CertificateStatus, DnsRecords, type CertificateState, type DnsSetup } from './domain-setup.tsx';

export interface Domain {
  hostname: string;
  status: string;
  verification?: { txt_name: string; txt_value: string; http_path: string; http_body: string } | null;
  verified_at?: string | null;
  created_at?: string;
  last_error?: string | null;
  dns?: DnsSetup;
  certificate?: CertificateState | null;
}

export function DomainsPage({ id }: { id: string }) {
  const { session } = useSession();
  const project = useProject(id);
  const base = `/projects/${encodeURIComponent(id)}/domains`;
  const domains = useLoad(async () => items<Domain>(await api('GET', base)), [id]);
  const [hostname, setHostname] = useState('');
  const add = useSubmit(async () => {
    // A pasted address (`https://docs.example.com/path`) is taken for its host.
    const host = hostFromInput(hostname);
    setHostname(host);
    await api('POST', base, { hostname: host });
    setHostname('');
    await domains.reload();
  });
  const manage = can(session, 'domains.manage');
  return (
    <>
      <ProjectTabs id={id} name={project.data?.name ?? '…'} current="domains" />
      <h1>Custom domains</h1>
      <p class="lead">Serve the site on your own hostname: point its DNS at the platform with the records shown, prove you control it, then verify. Once verified, an HTTPS certificate is obtained and renewed for it automatically. Each hostname is added on its own: add both <code>example.com</code> and <code>www.example.com</code> if visitors use both.</p>
      {manage && (
        <form class="panel" onSubmit={submitWith(add.run)}>
          <h2>Add a domain</h2>
          <ErrorNotice error={add.error} />
          <Field label="Hostname" placeholder="docs.example.com" autoCapitalize="none" spellcheck={false} required value={hostname} hint="A hostname such as docs.example.com; a pasted address counts as its host." onInput={(e) => setHostname(e.currentTarget.value.trim())} />
          <button type="submit" disabled={add.pending || !hostname}>Add domain</button>
        </form>
      )}
      <ErrorNotice error={domains.error} />
      {domains.loading && !domains.data ? <Loading /> : domains.data?.length === 0 ? <p class="muted">No custom domains.</p> : (
        <ul class="rows">
          {domains.data?.map((d) => <DomainRow key={d.hostname} d={d} base={base} manage={manage} onChange={domains.reload} />)}
        </ul>
      )}
    </>
  );
}

function DomainRow({ d, base, manage, onChange }: { d: Domain; base: string; manage: boolean; onChange(): Promise<void> }) {
  const path = `${base}/${encodeURIComponent(d.hostname)}`;
  const [result, setResult] = useState<string>();
  const verify = useSubmit(async () => {
    const out = await api<Domain>('POST', `${path}/verify`);
    setResult(out?.status === 'verified' ? 'Verified: the site now answers on this domain.' : (out?.last_error ?? 'Not verified yet: the record or file was not found. DNS changes can take a while to spread.'));
    await onChange();
  });
  const remove = useSubmit(async () => {
    if (!confirm(`Remove ${d.hostname}? The site stops answering on it.`)) return;
    await api('DELETE', path);
    await onChange();
  });
  const pending = d.status !== 'verified';
  return (
    <li class="row domain" data-hostname={d.hostname}>
      <div class="row-main">
        <strong>{d.hostname}</strong> <StatusBadge status={d.status} />
        {d.verified_at && <p class="muted">verified {formatDate(d.verified_at)}</p>}
        {d.dns && <DnsRecords dns={d.dns} />}
        <CertificateStatus cert={d.certificate ?? null} path={path} manage={manage} onChange={onChange} />
        <ErrorNotice error={verify.error ?? remove.error} />
        {result && <Notice tone={result.startsWith('Verified') ? 'success' : 'warning'}>{result}</Notice>}
        {pending && d.verification && (
          <details open>
            <summary>How to prove you control it</summary>
            <p><strong>Either</strong> add this DNS TXT record:</p>
            <CopyField label="TXT name" value={d.verification.txt_name} />
            <CopyField label="TXT value" value={d.verification.txt_value} />
            <p><strong>Or</strong> serve this file over HTTP on the domain:</p>
            <CopyField label="HTTP path" value={`http://${d.hostname}${d.verification.http_path}`} />
            <CopyField label="File content" value={d.verification.http_body} />
          </details>
        )}
      </div>
      {manage && (
        <div class="row-actions">
          {pending && <button type="button" onClick={() => verify.run()} disabled={verify.pending}>{verify.pending ? 'Checking…' : 'Verify'}</button>}
          <button type="button" class="danger" onClick={() => remove.run()} disabled={remove.pending}>Remove</button>
        </div>
      )}
    </li>
  );
}
