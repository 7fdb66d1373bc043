/**
 * Single sign-on settings (owners, Team plan): the identity provider connection (OIDC or SAML
 * 2.0), what to give the identity provider (ACS URL, entity id, SP metadata, OIDC redirect URI),
 * the organization's email domains (verified by DNS TXT), and "Require SSO". Other plans see
 * the 402 message with its upgrade link.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { CopyField } from '../ui/copy-button.tsx';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { formatDate } from '../ui/format.ts';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useLoad } from '../ui/use-load.ts';

const ROLES = [['viewer', 'Viewer (read only)'], ['editor', 'Editor'], ['admin', 'Admin']] as const;

interface SsoDomain { domain: string; status: string; verified_at: string | null; verification: { txt_name: string; txt_value: string } }
interface SsoSettings {
  connection: null | {
    protocol: 'oidc' | 'saml'; default_role: string; require_sso: boolean; allow_idp_initiated: boolean;
    oidc: { issuer: string; client_id: string; client_secret_set: boolean } | null;
    saml: { metadata_url: string | null; idp_entity_id: string; idp_sso_url: string; certificates: number } | null;
  };
  domains: SsoDomain[];
  service_provider: { entity_id: string; acs_url: string; metadata_url: string; oidc_redirect_uri: string };
}

export function SsoPage() {
  const settings = useLoad(() => api<SsoSettings>('GET', '/sso'), []);
  return (
    <>
      <h1>Single sign-on</h1>
      <p class="lead">Let your team sign in through your identity provider (Okta, Microsoft Entra ID, or any OpenID Connect or SAML 2.0 provider). People whose email is on a verified domain choose "Continue with SSO" on the sign-in page; the first sign-in gives them a seat with the default role.</p>
      <ErrorNotice error={settings.error} />
      {settings.loading && !settings.data ? <Loading /> : settings.data && (
        <>
          <ConnectionForm s={settings.data} onSaved={settings.reload} />
          <ServiceProvider s={settings.data} />
          <Domains s={settings.data} onChange={settings.reload} />
          {settings.data.connection && <Policy s={settings.data} onChange={settings.reload} />}
        </>
      )}
    </>
  );
}

function ConnectionForm({ s, onSaved }: { s: SsoSettings; onSaved(): Promise<void> }) {
  const c = s.connection;
  const [protocol, setProtocol] = useState<'oidc' | 'saml'>(c?.protocol ?? 'oidc');
  const [issuer, setIssuer] = useState(c?.oidc?.issuer ?? '');
  const [clientId, setClientId] = useState(c?.oidc?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [metadataUrl, setMetadataUrl] = useState(c?.saml?.metadata_url ?? '');
  const [metadataXml, setMetadataXml] = useState('');
  const [role, setRole] = useState(c?.default_role ?? 'viewer');
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [protocol, issuer, clientId, clientSecret, metadataUrl, metadataXml, role]);
  const save = useSubmit(async () => {
    const body = protocol === 'oidc'
      ? { protocol, issuer, client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}), default_role: role }
      : { protocol, ...(metadataXml.trim() ? { metadata_xml: metadataXml } : { metadata_url: metadataUrl }), default_role: role };
    await api('PUT', '/sso/connection', body);
    setClientSecret('');
    setMetadataXml('');
    await onSaved();
    setSaved(true);
  });
  const remove = useSubmit(async () => {
    if (!confirm('Remove the SSO connection? Members sign in with their passwords again.')) return;
    await api('DELETE', '/sso/connection');
    await onSaved();
  });
  return (
    <form class="panel" onSubmit={submitWith(save.run)}>
      <h2>Identity provider</h2>
      <ErrorNotice error={save.error ?? remove.error} />
      {saved && <Notice tone="success">Saved the connection.</Notice>}
      <fieldset>
        <legend>Protocol</legend>
        <label class="check"><input type="radio" name="protocol" checked={protocol === 'oidc'} onChange={() => setProtocol('oidc')} /> <span>OpenID Connect</span></label>
        <label class="check"><input type="radio" name="protocol" checked={protocol === 'saml'} onChange={() => setProtocol('saml')} /> <span>SAML 2.0</span></label>
      </fieldset>
      {protocol === 'oidc' ? (
        <>
          <Field label="Issuer URL" placeholder="https://login.example.com" autoCapitalize="none" spellcheck={false} required value={issuer} onInput={(e) => setIssuer(e.currentTarget.value.trim())} hint="Its /.well-known/openid-configuration is read now and at each sign-in." />
          <Field label="Client ID" autoCapitalize="none" spellcheck={false} required value={clientId} onInput={(e) => setClientId(e.currentTarget.value.trim())} />
          <Field label="Client secret" type="password" autoComplete="off" value={clientSecret} onInput={(e) => setClientSecret(e.currentTarget.value)}
            hint={c?.oidc?.client_secret_set ? 'Stored encrypted. Leave empty to keep it.' : 'Stored encrypted and never shown again.'} />
        </>
      ) : (
        <>
          <Field label="IdP metadata URL" placeholder="https://idp.example.com/metadata" autoCapitalize="none" spellcheck={false} value={metadataUrl} onInput={(e) => setMetadataUrl(e.currentTarget.value.trim())} hint="Or paste the metadata XML below instead." />
          <div class="field">
            <label for="sso-metadata-xml">IdP metadata XML</label>
            <textarea id="sso-metadata-xml" rows={5} spellcheck={false} value={metadataXml} onInput={(e) => setMetadataXml(e.currentTarget.value)} />
          </div>
          {c?.saml && <p class="muted">Current IdP: {c.saml.idp_entity_id} ({c.saml.certificates} signing certificate{c.saml.certificates === 1 ? '' : 's'})</p>}
        </>
      )}
      <div class="field">
        <label for="sso-default-role">Role of new members</label>
        <select id="sso-default-role" value={role} onChange={(e) => setRole(e.currentTarget.value)}>
          {ROLES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
        </select>
      </div>
      <button type="submit" disabled={save.pending}>{save.pending ? 'Saving…' : 'Save connection'}</button>
      {c && <button type="button" class="danger" onClick={() => remove.run()} disabled={remove.pending}>Remove connection</button>}
    </form>
  );
}

function ServiceProvider({ s }: { s: SsoSettings }) {
  const sp = s.service_provider;
  return (
    <section class="panel">
      <h2>Details for your identity provider</h2>
      {/* Multiline: long URLs wrap in a focusable box instead of scrolling out of reach of the keyboard. */}
      <CopyField label="ACS URL" value={sp.acs_url} multiline />
      <CopyField label="Entity ID" value={sp.entity_id} multiline />
      <CopyField label="OIDC redirect URI" value={sp.oidc_redirect_uri} multiline />
      <p><a href={sp.metadata_url} download="folio-sp-metadata.xml">Download SP metadata (XML)</a></p>
    </section>
  );
}

function Domains({ s, onChange }: { s: SsoSettings; onChange(): Promise<void> }) {
  const [domain, setDomain] = useState('');
  const add = useSubmit(async () => {
    await api('POST', '/sso/domains', { domain });
    setDomain('');
    await onChange();
  });
  return (
    <section class="panel">
      <h2>Email domains</h2>
      <p class="muted">SSO applies to addresses on verified domains. Prove each domain with a DNS TXT record.</p>
      <form onSubmit={submitWith(add.run)}>
        <ErrorNotice error={add.error} />
        <Field label="Domain" placeholder="example.com" autoCapitalize="none" spellcheck={false} value={domain} onInput={(e) => setDomain(e.currentTarget.value.trim().toLowerCase())} />
        <button type="submit" disabled={add.pending || !domain}>Add domain</button>
      </form>
      {s.domains.length === 0 ? <p class="muted">No domains yet.</p> : (
        <ul class="rows">{s.domains.map((d) => <DomainRow key={d.domain} d={d} onChange={onChange} />)}</ul>
      )}
    </section>
  );
}

function DomainRow({ d, onChange }: { d: SsoDomain; onChange(): Promise<void> }) {
  const path = `/sso/domains/${encodeURIComponent(d.domain)}`;
  const verify = useSubmit(async () => {
    await api('POST', `${path}/verify`);
    await onChange();
  });
  const remove = useSubmit(async () => {
    if (!confirm(`Remove ${d.domain}? Its addresses no longer sign in with SSO.`)) return;
    await api('DELETE', path);
    await onChange();
  });
  const pending = d.status !== 'verified';
  return (
    <li class="row domain" data-domain={d.domain}>
      <div class="row-main">
        <strong>{d.domain}</strong> <StatusBadge status={d.status} />
        {d.verified_at && <p class="muted">verified {formatDate(d.verified_at)}</p>}
        <ErrorNotice error={verify.error ?? remove.error} />
        {pending && (
          <>
            <CopyField label="TXT name" value={d.verification.txt_name} multiline />
            <CopyField label="TXT value" value={d.verification.txt_value} multiline />
          </>
        )}
      </div>
      <div class="row-actions">
        {pending && <button type="button" onClick={() => verify.run()} disabled={verify.pending}>{verify.pending ? 'Checking…' : 'Verify'}</button>}
        <button type="button" class="danger" onClick={() => remove.run()} disabled={remove.pending}>Remove</button>
      </div>
    </li>
  );
}

function Policy({ s, onChange }: { s: SsoSettings; onChange(): Promise<void> }) {
  const c = s.connection!;
  const patch = useSubmit(async (body: Record<string, boolean>) => {
    await api('PATCH', '/sso/connection', body);
    await onChange();
  });
  return (
    <section class="panel">
      <h2>Policy</h2>
      <ErrorNotice error={patch.error} />
      <label class="check">
        <input type="checkbox" checked={c.require_sso} disabled={patch.pending} onChange={(e) => patch.run({ require_sso: e.currentTarget.checked })} />
        <span>Require SSO: members with an address on a verified domain cannot sign in with a password. Owners keep their password for emergencies; each such sign-in is recorded in the audit log.</span>
      </label>
      {c.protocol === 'saml' && (
        <label class="check">
          <input type="checkbox" checked={c.allow_idp_initiated} disabled={patch.pending} onChange={(e) => patch.run({ allow_idp_initiated: e.currentTarget.checked })} />
          <span>Allow sign-in started from the identity provider's app dashboard (IdP-initiated; each assertion works once and for 5 minutes).</span>
        </label>
      )}
    </section>
  );
}
