/**
 * Files that changed both in the drafts and in the repository since the drafts began, side by
 * side: what is in the repository now (theirs) and the draft (yours), with the merged text below
 * to edit (Git's conflict markers show where the two differ). "Use mine" and "Use theirs" fill
 * the merged text with one side; "Resolve" saves it as the draft on the new base.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { ErrorNotice } from '../ui/notice.tsx';
import type { Conflict, EditorApi } from './api.ts';

function ConflictFile({ api, conflict, onResolved }: { api: EditorApi; conflict: Conflict; onResolved(path: string): void }) {
  const [merged, setMerged] = useState(conflict.merged_with_markers);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError>();
  const id = `conflict-${conflict.path.replace(/[^a-z0-9]+/gi, '-')}`;
  const resolve = async () => {
    setPending(true);
    try {
      await api.resolve(conflict.path, merged);
      onResolved(conflict.path);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'client_error', String(err)));
    } finally {
      setPending(false);
    }
  };
  const markers = /^(<{7}|={7}|>{7})( |$)/m.test(merged);
  return (
    <section class="conflict" aria-labelledby={`${id}-title`} data-path={conflict.path}>
      <h3 id={`${id}-title`}>{conflict.path}</h3>
      <div class="conflict-sides">
        <figure>
          <figcaption>Theirs (in the repository now)</figcaption>
          <pre data-testid="theirs">{conflict.theirs ?? '(deleted)'}</pre>
        </figure>
        <figure>
          <figcaption>Yours (the draft)</figcaption>
          <pre data-testid="yours">{conflict.ours ?? '(deleted)'}</pre>
        </figure>
      </div>
      <label for={`${id}-merged`}>Merged text</label>
      <textarea id={`${id}-merged`} class="merged" rows={12} value={merged} onInput={(e) => setMerged(e.currentTarget.value)} spellcheck={false} />
      {markers && <p class="hint">The conflict markers (&lt;&lt;&lt;&lt;&lt;&lt;&lt;, =======, &gt;&gt;&gt;&gt;&gt;&gt;&gt;) are still in the text; remove them unless you mean to keep them.</p>}
      <ErrorNotice error={error} />
      <div class="button-row">
        <button type="button" class="secondary" onClick={() => setMerged(conflict.ours ?? '')}>Use mine</button>
        <button type="button" class="secondary" onClick={() => setMerged(conflict.theirs ?? '')}>Use theirs</button>
        <button type="button" disabled={pending} onClick={resolve}>Resolve {conflict.path}</button>
      </div>
    </section>
  );
}

export function ConflictView({ api, conflicts, onAllResolved }: { api: EditorApi; conflicts: Conflict[]; onAllResolved(): void }) {
  const [resolved, setResolved] = useState<string[]>([]);
  const left = conflicts.filter((c) => !resolved.includes(c.path));
  const done = (path: string) => {
    const next = [...resolved, path];
    setResolved(next);
    if (conflicts.every((c) => next.includes(c.path))) onAllResolved();
  };
  return (
    <div class="conflicts" data-testid="conflicts">
      <p>Someone changed {conflicts.length === 1 ? 'this file' : 'these files'} in the repository since your drafts began, in the same places. Nothing is lost: choose what to keep for each, then publish again.</p>
      {left.map((c) => <ConflictFile key={c.path} api={api} conflict={c} onResolved={done} />)}
      {resolved.length > 0 && <p class="muted" role="status">Resolved: {resolved.join(', ')}</p>}
    </div>
  );
}
