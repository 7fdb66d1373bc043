/**
 * Every open draft of the project: which file, what changed (new, modified, deleted, renamed),
 * who changed it and when, and who started it; each can be discarded, or all at once.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { ErrorNotice, Loading } from '../ui/notice.tsx';
import { useLoad } from '../ui/use-load.ts';
import type { Draft, EditorApi } from './api.ts';
import { fileUrl } from './paths.ts';

const WORDS: Record<string, string> = { modified: 'modified', added: 'new', deleted: 'deleted', unchanged: 'unchanged' };
const who = (p: { name: string; email: string }) => p.name || p.email;

export function DraftsPanel({ api, canEdit, version, onDiscarded }: { api: EditorApi; canEdit: boolean; version: number; onDiscarded(paths: string[] | undefined): void }) {
  const drafts = useLoad(() => api.drafts(), [api, version]);
  const [error, setError] = useState<ApiError>();
  const discard = async (paths?: string[]) => {
    if (!confirm(paths ? `Discard your changes to ${paths.join(', ')}? This cannot be undone.` : 'Discard every draft of this project? This cannot be undone.')) return;
    try {
      await api.discard(paths);
      setError(undefined);
      onDiscarded(paths);
      await drafts.reload();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));
    }
  };
  const list: Draft[] = drafts.data ?? [];
  return (
    <section class="drafts-panel" aria-labelledby="drafts-title" data-testid="drafts-panel">
      <div class="heading-row">
        <h2 id="drafts-title">Drafts</h2>
        {canEdit && list.length > 0 && <button type="button" class="secondary" onClick={() => discard()}>Discard all</button>}
      </div>
      <ErrorNotice error={error ?? drafts.error} />
      {!drafts.data && !drafts.error ? <Loading /> : list.length === 0 ? <p class="muted">No unpublished changes.</p> : (
        <ul class="draft-list">
          {list.map((d) => (
            <li key={d.path} data-path={d.path}>
              {d.status === 'deleted' ? <span class="draft-path">{d.path}</span> : <a class="draft-path" href={fileUrl(api.projectId, d.path)}>{d.path}</a>}
              <span class={`tree-status status-${d.renamed_from && d.status !== 'deleted' ? 'renamed' : d.status}`}>{d.renamed_from && d.status !== 'deleted' ? `renamed from ${d.renamed_from}` : WORDS[d.status] ?? d.status}</span>
              <span class="muted draft-who">
                {who(d.updated_by)}, {new Date(d.updated_at).toLocaleString()}
                {d.created_by && d.created_by.id !== d.updated_by.id ? ` (started by ${who(d.created_by)})` : ''}
              </span>
              {canEdit && <button type="button" class="link-button" onClick={() => discard([d.path])}>Discard<span class="sr-only"> {d.path}</span></button>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
