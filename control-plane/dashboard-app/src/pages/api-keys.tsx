/**
 * Settings → API keys: the only place keys are made (spec section 5). The full key is shown once,
 * right after creation; expired keys are marked and can only be deleted.
 */
import { useState } from 'preact/hooks';
import { api, items } from '../api.ts';
import { can, useSession } from '../session.ts';
import { CopyField } from '../ui/copy-button.tsx';
import { Field, submitWith, useSubmit } from '../ui/form.tsx';
import { formatDate, relative } from '../ui/format.ts';
import { ErrorNotice, Loading, Notice } from '../ui/notice.tsx';
import { ScopePicker, type ScopeChoice } from '../ui/scope-picker.tsx';
import { useLoad } from '../ui/use-load.ts';

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  /** `'all'`: every scope, including ones added later. */
  scopes: string[] | 'all' | null;
  created_at: string;
  expires_at: string | null;
  expired: boolean;
  last_used_at: string | null;
}

/** The key's scopes as the picker holds them: null for all. */
const choiceOf = (k: ApiKey): ScopeChoice => (Array.isArray(k.scopes) && k.scopes.length ? k.scopes : null);

export function ApiKeysPage() {
  const { session } = useSession();
  const manage = can(session, 'keys.manage');
  // Keys act for the whole organization: only owners and admins see or manage them.
  const keys = useLoad(async () => (manage ? items<ApiKey>(await api('GET', '/api-keys')) : []), [manage]);
  const [secret, setSecret] = useState<{ name: string; value: string }>();
  return (
    <>
      <h1>API keys</h1>
      <p class="lead">Keys call the <code>/v1</code> API (<code>Authorization: Bearer …</code>). A key with all scopes also receives scopes added later.</p>
      {secret && (
        <section class="panel secret" aria-labelledby="secret-title">
          <h2 id="secret-title">Key “{secret.name}” created</h2>
          <Notice tone="warning">Copy it now: it is shown only once and cannot be recovered.</Notice>
          <CopyField label="API key" value={secret.value} />
          <button type="button" class="secondary" onClick={() => setSecret(undefined)}>I have stored it</button>
        </section>
      )}
      {manage && <CreateKey onCreated={(name, value) => { setSecret({ name, value }); void keys.reload(); }} />}
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        {!manage && <p>Only owners and admins of the organization manage API keys.</p>}
        <ErrorNotice error={keys.error} />
        {keys.loading && !keys.data ? <Loading /> : keys.data?.length === 0 ? (manage && <p class="muted">No keys yet.</p>) : (
          <ul class="rows">
            {keys.data?.map((k) => <KeyRow key={k.id} k={k} manage={manage} onChange={keys.reload} />)}
          </ul>
        )}
      </section>
    </>
  );
}

function CreateKey({ onCreated }: { onCreated(name: string, secret: string): void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ScopeChoice>(null);
  const [expiry, setExpiry] = useState('');
  const submit = useSubmit(async () => {
    const body: Record<string, unknown> = { name };
    if (scopes !== null) body.scopes = scopes;
    // The date picker gives a local day; the key stops working at the end of that day.
    if (expiry) body.expires_at = new Date(`${expiry}T23:59:59`).toISOString();
    const created = await api<{ key: ApiKey; secret: string }>('POST', '/api-keys', body);
    onCreated(name, created.secret);
    setName('');
    setScopes(null);
    setExpiry('');
  });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return (
    <section class="panel" aria-labelledby="create-key">
      <h2 id="create-key">Create a key</h2>
      <form onSubmit={submitWith(submit.run)}>
        <ErrorNotice error={submit.error} />
        <Field label="Name" required maxLength={100} hint="What uses it, e.g. “CI deploys”." value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <ScopePicker value={scopes} onChange={setScopes} />
        {scopes !== null && scopes.length === 0 && <p class="hint">Pick at least one scope, or keep all scopes.</p>}
        <Field label="Expires on (optional)" type="date" min={tomorrow} hint="Empty: the key never expires. Expired keys cannot be renewed." value={expiry} onInput={(e) => setExpiry(e.currentTarget.value)} />
        <button type="submit" disabled={submit.pending || !name.trim() || (scopes !== null && scopes.length === 0)}>Create key</button>
      </form>
    </section>
  );
}

function KeyRow({ k, manage, onChange }: { k: ApiKey; manage: boolean; onChange(): Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [scopes, setScopes] = useState<ScopeChoice>(choiceOf(k));
  const save = useSubmit(async () => {
    await api('PATCH', `/api-keys/${encodeURIComponent(k.id)}`, { scopes: scopes ?? 'all' });
    setEditing(false);
    await onChange();
  });
  const remove = useSubmit(async () => {
    if (!confirm(`Delete the key “${k.name}”? Anything using it stops working at once.`)) return;
    await api('DELETE', `/api-keys/${encodeURIComponent(k.id)}`);
    await onChange();
  });
  return (
    <li class="row" data-key-id={k.id}>
      <div class="row-main">
        <strong>{k.name}</strong> <code>{k.prefix}…</code>
        {k.expired && <span class="badge badge-failed">expired</span>}
        <p class="muted">
          {choiceOf(k)?.join(', ') ?? 'all scopes'} · created {formatDate(k.created_at)} ·
          {k.expires_at ? ` ${k.expired ? 'expired' : 'expires'} ${formatDate(k.expires_at)}` : ' never expires'} · last used {relative(k.last_used_at)}
        </p>
        <ErrorNotice error={save.error ?? remove.error} />
        {editing && (
          <form onSubmit={submitWith(save.run)}>
            <ScopePicker value={scopes} onChange={setScopes} legend={`Scopes of ${k.name}`} />
            <button type="submit" disabled={save.pending || (scopes !== null && scopes.length === 0)}>Save scopes</button>
            <button type="button" class="secondary" onClick={() => setEditing(false)}>Cancel</button>
          </form>
        )}
      </div>
      {manage && (
        <div class="row-actions">
          {!k.expired && !editing && <button type="button" class="secondary" onClick={() => setEditing(true)}>Edit scopes</button>}
          <button type="button" class="danger" onClick={() => remove.run()} disabled={remove.pending}>Delete</button>
        </div>
      )}
    </li>
  );
}
