/**
 * Publishing the drafts: a commit message (editable, with a default naming the changed files),
 * to the production branch or to a new branch (a preview deployment), then the deployment's
 * progress from the project's deployment stream and the live address. A merge conflict opens
 * the side-by-side view to resolve and publish again; drafts whose file was deleted or moved in
 * the repository are listed, to keep as a new file or discard.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { ErrorNotice, Notice } from '../ui/notice.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { useEventStream } from '../ui/use-event-stream.ts';
import type { Conflict, Draft, EditorApi, Published } from './api.ts';
import { ConflictView } from './conflict-view.tsx';

/** The default commit message for these drafts. */
export function defaultMessage(drafts: Draft[]): string {
  const names = drafts.map((d) => d.path.split('/').pop()!);
  if (drafts.length === 0) return 'Update the docs';
  if (drafts.length === 1) {
    const d = drafts[0];
    if (d.renamed_from && d.status !== 'deleted') return `Move ${d.renamed_from} to ${d.path}`;
    return `${d.status === 'added' ? 'Add' : d.status === 'deleted' ? 'Delete' : 'Update'} ${d.path}`;
  }
  return `Update ${drafts.length} files: ${names.slice(0, 3).join(', ')}${drafts.length > 3 ? ', …' : ''}`;
}

const newBranchName = () => {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `edit-${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}`;
};

const LIVE = ['queued', 'building'];

function Progress({ projectId, published, deploymentId }: { projectId: string; published: Published; deploymentId: string }) {
  const [status, setStatus] = useState<{ status: string; pages_failed?: number | null; error?: string | null }>({ status: 'queued' });
  useEventStream<{ id: string; status: string; pages_failed?: number | null; error?: string | null }>(
    `/projects/${encodeURIComponent(projectId)}/deployments/events`,
    (d) => { if (d.id === deploymentId) setStatus(d); },
  );
  const done = !LIVE.includes(status.status);
  return (
    <div class="publish-progress" data-testid="publish-progress">
      <p>Committed <code>{published.commit.slice(0, 7)}</code> to <code>{published.branch}</code>{published.merged.length > 0 ? <> (merged with the repository's newer changes to {published.merged.join(', ')})</> : null}.</p>
      <p>Deployment: <StatusBadge status={status.status} failedPages={status.pages_failed} />{!done && <span class="muted"> building the site…</span>}</p>
      {status.status === 'failed' && status.error && <p class="field-error">{status.error}</p>}
      {status.status === 'deployed' && published.site_url && <p>Live at <a href={published.site_url} target="_blank" rel="noopener noreferrer" data-testid="live-url">{published.site_url}</a></p>}
      <p><a href={`/projects/${encodeURIComponent(projectId)}/deployments/${encodeURIComponent(deploymentId)}`}>Build log</a></p>
    </div>
  );
}

export function PublishDialog({ api, branch, drafts, onClose, onPublished }: { api: EditorApi; branch: string; drafts: Draft[]; onClose(): void; onPublished(p: Published): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [message, setMessage] = useState(() => defaultMessage(drafts));
  const [target, setTarget] = useState<'production' | 'branch'>('production');
  const [newBranch, setNewBranch] = useState(newBranchName);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [conflicts, setConflicts] = useState<Conflict[]>();
  const [upstreamDeleted, setUpstreamDeleted] = useState<string[]>();
  const [published, setPublished] = useState<Published>();

  useEffect(() => {
    const d = ref.current!;
    if (!d.open) d.showModal();
    const cancel = () => onClose();
    d.addEventListener('close', cancel);
    return () => d.removeEventListener('close', cancel);
  }, []);

  const publish = async () => {
    setPending(true);
    setError(undefined);
    setConflicts(undefined);
    setUpstreamDeleted(undefined);
    try {
      const p = await api.publish({ message: message.trim() || defaultMessage(drafts), ...(target === 'branch' ? { branch: newBranch.trim() } : {}) });
      setPublished(p);
      onPublished(p);
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err));
      if (e.status === 409 && e.code === 'merge_conflict' && Array.isArray(e.body.conflicts)) setConflicts(e.body.conflicts as Conflict[]);
      else if (e.status === 409 && e.code === 'upstream_deleted' && Array.isArray(e.body.paths)) setUpstreamDeleted(e.body.paths as string[]);
      else setError(e);
    } finally {
      setPending(false);
    }
  };

  const keepAsNew = async (path: string) => {
    try {
      const f = await api.file(path);
      await api.resolve(path, f.content ?? '');
      setUpstreamDeleted((l) => l?.filter((p) => p !== path));
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));
    }
  };
  const discard = async (path: string) => {
    try {
      await api.discard([path]);
      setUpstreamDeleted((l) => l?.filter((p) => p !== path));
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));
    }
  };

  return (
    <dialog ref={ref} class="publish-dialog" aria-labelledby="publish-title" data-testid="publish-dialog">
      <div class="heading-row">
        <h2 id="publish-title">Publish</h2>
        <button type="button" class="secondary" onClick={() => ref.current!.close()}>Close</button>
      </div>
      {published ? published.deployment_id ? <Progress projectId={api.projectId} published={published} deploymentId={published.deployment_id} /> : (
        <p>Committed <code>{published.commit.slice(0, 7)}</code> to <code>{published.branch}</code>; nothing new to deploy.</p>
      ) : (
        <form method="dialog" onSubmit={(e) => { e.preventDefault(); void publish(); }}>
          <p class="muted">{drafts.length === 1 ? '1 changed file' : `${drafts.length} changed files`}: {drafts.map((d) => d.path).join(', ') || 'none'}</p>
          <div class="field">
            <label for="publish-message">Commit message</label>
            <textarea id="publish-message" rows={3} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
          </div>
          <fieldset>
            <legend>Publish to</legend>
            <label class="check"><input type="radio" name="target" checked={target === 'production'} onChange={() => setTarget('production')} /> the production branch <code>{branch}</code> (the live site)</label>
            <label class="check"><input type="radio" name="target" checked={target === 'branch'} onChange={() => setTarget('branch')} /> a new branch, as a preview to review before merging</label>
            {target === 'branch' && (
              <div class="field">
                <label for="publish-branch">Branch name</label>
                <input id="publish-branch" value={newBranch} onInput={(e) => setNewBranch(e.currentTarget.value)} />
              </div>
            )}
          </fieldset>
          <ErrorNotice error={error} />
          {upstreamDeleted && upstreamDeleted.length > 0 && (
            <div class="notice warning" role="alert" data-testid="upstream-deleted">
              <p>These files were deleted or moved in the repository since your drafts began:</p>
              <ul>
                {upstreamDeleted.map((p) => (
                  <li key={p}><code>{p}</code>{' '}
                    <button type="button" class="link-button" onClick={() => keepAsNew(p)}>Keep my draft as a new file</button>{' '}
                    <button type="button" class="link-button" onClick={() => discard(p)}>Discard it</button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {upstreamDeleted && upstreamDeleted.length === 0 && <Notice tone="success">Every file is settled; publish again.</Notice>}
          {conflicts ? <ConflictView api={api} conflicts={conflicts} onAllResolved={() => { setConflicts(undefined); void publish(); }} /> : (
            <button type="submit" disabled={pending || drafts.length === 0 || (target === 'branch' && !newBranch.trim())}>{pending ? 'Publishing…' : 'Publish'}</button>
          )}
        </form>
      )}
    </dialog>
  );
}
