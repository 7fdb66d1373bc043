/**
 * GitHub: the GitHub App installations connected to the organization. Projects may connect only
 * repositories one of them can read. "Connect GitHub" goes to GitHub's install page with a signed
 * state; GitHub sends the browser back to `/settings/github/setup`, which asks the server to
 * connect the installation (the server checks with GitHub that the user can see it).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.ts';
import { navigate } from '../router.ts';
import { can, useSession } from '../session.ts';
import { useSubmit } from '../ui/form.tsx';
import { formatDate } from '../ui/format.ts';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';

interface Installation { id: number; account_login: string; account_id: number; suspended: boolean; created_at: string }
interface Installations { enabled: boolean; app_url: string | null; data: Installation[] }

export function GithubPage() {
  const { session } = useSession();
  const manage = can(session, 'github.manage');
  const list = useLoad(() => api<Installations>('GET', '/github/installations'), []);
  const connect = useSubmit(async () => {
    const { url } = await api<{ url: string }>('GET', '/github/install-link');
    location.assign(url);
  });
  const done = new URLSearchParams(location.search).get('connected');
  const d = list.data;
  return (
    <>
      <h1>GitHub</h1>
      <p class="lead">Projects build from a GitHub repository only through the Folio GitHub App installed on the account that owns it: install it there, choose the repositories, and connect the installation here. Each build reads its repository with a short-lived token for that repository alone.</p>
      {done && <Notice tone="success">Connected the installation on <strong>{done}</strong>.</Notice>}
      <ErrorNotice error={list.error ?? connect.error} />
      {!d ? (list.error ? null : <Loading />) : !d.enabled ? (
        <Notice tone="warning">GitHub is not enabled on this server: its operator has not configured a GitHub App. Projects can still use a repository hosted by Folio.</Notice>
      ) : (
        <>
          {manage && <p><button type="button" disabled={connect.pending} onClick={() => connect.run()}>Connect GitHub</button></p>}
          <section aria-labelledby="installs-title">
            <h2 id="installs-title">Connected installations</h2>
            {d.data.length === 0 ? <p class="muted">None yet.</p> : (
              <ul class="rows">
                {d.data.map((i) => <InstallationRow key={i.id} i={i} appUrl={d.app_url} manage={manage} onChange={list.reload} />)}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}

function InstallationRow({ i, appUrl, manage, onChange }: { i: Installation; appUrl: string | null; manage: boolean; onChange(): Promise<void> }) {
  const unlink = useSubmit(async () => {
    if (!confirm(`Disconnect ${i.account_login}? Projects connected through it stop building until it is connected again.`)) return;
    await api('DELETE', `/github/installations/${i.id}`);
    await onChange();
  });
  return (
    <li class="row">
      <div class="row-main">
        <strong>{i.account_login}</strong> {i.suspended && <span class="badge">suspended</span>}
        <p class="muted">installation {i.id} · connected {formatDate(i.created_at)}{appUrl ? <> · <a href={appUrl} target="_blank" rel="noopener noreferrer">the App on GitHub</a></> : null}</p>
        <ErrorNotice error={unlink.error} />
      </div>
      {manage && <div class="row-actions"><button type="button" class="danger" disabled={unlink.pending} onClick={() => unlink.run()}>Disconnect</button></div>}
    </li>
  );
}

/** Where GitHub sends the browser after an install (the App's callback URL). */
export function GithubSetupPage() {
  const [error, setError] = useState<ApiError>();
  // A member who may not install asked the account's owners to (no installation yet).
  const requested = new URLSearchParams(location.search).get('setup_action') === 'request';
  useEffect(() => {
    if (requested) return;
    const q = new URLSearchParams(location.search);
    const installationId = Number(q.get('installation_id'));
    const body = { installation_id: installationId, code: q.get('code') ?? '', state: q.get('state') ?? '', setup_action: q.get('setup_action') ?? undefined };
    api<Installation>('POST', '/github/installations', body).then(
      (i) => navigate(`/settings/github?connected=${encodeURIComponent(i.account_login)}`, true),
      (err) => setError(err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err))),
    );
  }, []);
  return (
    <>
      <p class="crumbs"><a href="/settings/github">GitHub</a> / <span>Connect</span></p>
      <h1>Connecting GitHub</h1>
      {requested ? <><Notice>GitHub sent your request to install the App to the account's owners. Once one of them installs it, connect it from here.</Notice><p><a href="/settings/github">Back to GitHub settings</a></p></>
        : error ? <><ErrorNotice error={error} /><p><a href="/settings/github">Back to GitHub settings</a></p></> : <Loading />}
    </>
  );
}
