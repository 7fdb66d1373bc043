/**
 * The project settings' sign-in for readers (`/projects/{id}/reader-auth`): readers sign in with
 * the customer's OpenID provider or a token from the customer's own app, for the whole site or
 * all but the public pages. Secrets are write-only: left empty, the stored ones are kept. Pro
 * plan; the server's 402 is shown with its upgrade link.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { can, useSession } from '../session.ts';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

interface Settings {
  enabled: boolean; mode: 'oidc' | 'jwt' | null; scope: 'full' | 'partial' | null;
  issuer: string | null; client_id: string | null; client_secret_set: boolean; scopes: string | null; groups_claim: string | null;
  algorithm: string | null; verification_key_set: boolean; jwks_url: string | null; login_url: string | null; audience: string | null;
  callback_path: string; handoff_path: string; editable: boolean;
}

export function ReaderSignIn({ projectId, siteUrl }: { projectId: string; siteUrl?: string | null }) {
  const { session } = useSession();
  const base = `/projects/${encodeURIComponent(projectId)}/reader-auth`;
  const loaded = useLoad(() => api<Settings>('GET', base), [base]);
  const s = loaded.data;
  return (
    <section class="panel" aria-labelledby="readers-title">
      <h2 id="readers-title">Sign-in for readers</h2>
      <p>Readers sign in with your identity provider or your own app; pages marked with groups are shown only to readers of those groups, pages marked public to everyone. Pro plan. Turning sign-in on or off republishes the site from its current commit; until that is live, readers are asked to sign in and signed-in readers to come back in a minute. Changing the method or what needs sign-in applies at once.</p>
      <ErrorNotice error={loaded.error} />
      {!s ? (loaded.loading && <Loading />) : <ReaderForm base={base} s={s} siteUrl={siteUrl} manage={can(session, 'settings.manage') && s.editable} onSaved={loaded.reload} />}
    </section>
  );
}

function ReaderForm({ base, s, siteUrl, manage, onSaved }: { base: string; s: Settings; siteUrl?: string | null; manage: boolean; onSaved(): Promise<void> }) {
  const [mode, setMode] = useState<'oidc' | 'jwt'>(s.mode ?? 'oidc');
  const [scope, setScope] = useState<'full' | 'partial'>(s.scope ?? 'partial');
  const [f, setF] = useState<Record<string, string>>({
    issuer: s.issuer ?? '', client_id: s.client_id ?? '', client_secret: '', scopes: s.scopes ?? '', groups_claim: s.groups_claim ?? '',
    algorithm: s.algorithm ?? 'HS256', verification_key: '', jwks_url: s.jwks_url ?? '', login_url: s.login_url ?? '', audience: s.audience ?? '',
  });
  const [saved, setSaved] = useState<string | null>(null);
  const set = (key: string) => (e: { currentTarget: HTMLInputElement }) => setF({ ...f, [key]: e.currentTarget.value });
  const keys = mode === 'oidc' ? ['issuer', 'client_id', 'client_secret', 'scopes', 'groups_claim'] : ['algorithm', 'verification_key', 'jwks_url', 'login_url', 'audience', 'groups_claim'];
  const save = useSubmit(async () => {
    const body: Record<string, string> = { mode, scope };
    for (const key of keys) if (f[key].trim()) body[key] = f[key].trim();
    await api('PUT', base, body);
    setSaved(s.enabled ? 'Saved. Every signed-in reader signs in again.' : 'Saved. A live site is republished for signed-in readers; until then every reader is asked to sign in.');
    await onSaved();
  });
  const remove = useSubmit(async () => {
    if (!confirm('Stop asking readers to sign in? The site is republished with every page without groups open to everyone; until then those pages stay hidden.')) return;
    await api('DELETE', base);
    await onSaved();
  });
  const origin = siteUrl ? new URL(siteUrl).origin : 'https://<your site>';
  return (
    <form onSubmit={submitWith(save.run)} onInput={() => setSaved(null)}>
      <ErrorNotice error={save.error ?? remove.error} />
      {saved && <Notice tone="success">{saved}</Notice>}
      <p>{s.enabled ? 'Readers sign in.' : 'Anyone can read the site.'}</p>
      <div class="field">
        <label for="reader-mode">Sign-in method</label>
        <select id="reader-mode" value={mode} disabled={!manage} onChange={(e) => setMode(e.currentTarget.value as 'oidc' | 'jwt')}>
          <option value="oidc">Your identity provider (OpenID Connect)</option>
          <option value="jwt">A token from your own app (JWT)</option>
        </select>
      </div>
      <div class="field">
        <label for="reader-scope">What needs sign-in</label>
        <select id="reader-scope" value={scope} disabled={!manage} onChange={(e) => setScope(e.currentTarget.value as 'full' | 'partial')}>
          <option value="partial">Every page except the public ones</option>
          <option value="full">Every page</option>
        </select>
      </div>
      {mode === 'oidc' ? (
        <>
          <Field label="Issuer" type="url" value={f.issuer} disabled={!manage} onInput={set('issuer')} hint={`Register ${origin}${s.callback_path} as the redirect URI.`} />
          <Field label="Client ID" value={f.client_id} disabled={!manage} onInput={set('client_id')} />
          <Field label="Client secret" type="password" autoComplete="off" value={f.client_secret} disabled={!manage} onInput={set('client_secret')} hint={s.client_secret_set ? 'Stored. Leave empty to keep it.' : undefined} />
          <Field label="Scopes" value={f.scopes} placeholder="openid profile email" disabled={!manage} onInput={set('scopes')} />
        </>
      ) : (
        <>
          <Field label="Your app's sign-in page" type="url" value={f.login_url} disabled={!manage} onInput={set('login_url')} hint={`Readers are sent there; afterwards your app sends them to ${origin}${s.handoff_path} with the token and the page to go back to.`} />
          <div class="field">
            <label for="reader-alg">Signing algorithm</label>
            <select id="reader-alg" value={f.algorithm} disabled={!manage} onChange={(e) => setF({ ...f, algorithm: e.currentTarget.value })}>
              <option value="HS256">Shared secret (HS256)</option>
              <option value="RS256">RSA public key (RS256)</option>
              <option value="ES256">Elliptic-curve public key (ES256)</option>
            </select>
          </div>
          <Field label={f.algorithm === 'HS256' ? 'Shared secret' : 'Public key (PEM)'} type="password" autoComplete="off" value={f.verification_key} disabled={!manage} onInput={set('verification_key')} hint={s.verification_key_set ? 'Stored. Leave empty to keep it.' : undefined} />
          {f.algorithm !== 'HS256' && <Field label="Key set URL (instead of a key)" type="url" value={f.jwks_url} disabled={!manage} onInput={set('jwks_url')} />}
          <Field label="Audience the token must name" value={f.audience} disabled={!manage} onInput={set('audience')} />
        </>
      )}
      <Field label="Claim with the reader's groups" value={f.groups_claim} placeholder="groups" disabled={!manage} onInput={set('groups_claim')} />
      {manage && <button type="submit" disabled={save.pending}>Save</button>}
      {manage && s.enabled && <button type="button" class="danger" disabled={remove.pending} onClick={() => void remove.run()}>Turn off</button>}
    </form>
  );
}
